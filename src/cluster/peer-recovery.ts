/**
 * How a replica copy is filled from its primary, for now: only a primary with no operation in its history
 * (max seq_no -1: a new, empty index) gives an exact copy by starting empty, so that is what a replica does
 * after asking the primary's node. A primary with data refuses: copying files and operations while writes run
 * is peer recovery, which issue 13 builds; until then such a replica fails its allocation (and the master stops
 * retrying after `index.allocation.max_retries`), so the cluster shows yellow rather than a replica that lies.
 */
import { EsError } from '../common/errors.js';
import type { IndicesService } from '../indices/index.js';
import type { TransportService } from '../transport/index.js';
import type { ClusterState, ShardRouting } from './cluster-state.js';
import { transportNode } from './transport-nodes.js';

export const RECOVERY_CHECK_ACTION = 'internal:index/shard/recovery/history_check';

interface HistoryCheck {
  readonly index: string;
  readonly shard: number;
  readonly indexUuid: string;
}

export function registerRecoverySource(transport: TransportService, indicesService: IndicesService): void {
  transport.registerHandler(RECOVERY_CHECK_ACTION, async (body) => {
    const request = body as HistoryCheck;
    const shard = indicesService.shard(request.index, request.shard);
    if (shard === undefined || indicesService.indexService(request.index)?.uuid !== request.indexUuid) {
      throw new EsError('no_shard_available_action_exception', `[${request.index}][${request.shard}] primary is not open on this node`);
    }
    return { maxSeqNo: shard.stats().engine.seqNo.maxSeqNo };
  });
}

/** Resolves when the replica may start empty; throws why it may not. */
export async function checkReplicaCanStartEmpty(transport: TransportService, state: ClusterState, copy: ShardRouting): Promise<void> {
  const metadata = state.indices.get(copy.index);
  const primary = state.routing.get(copy.index)?.[copy.shard]?.find((candidate) => candidate.primary);
  const node = primary?.nodeId === undefined ? undefined : state.nodes.get(primary.nodeId);
  if (metadata === undefined || primary?.state !== 'STARTED' || node === undefined) {
    throw new EsError('illegal_state_exception', `[${copy.index}][${copy.shard}] no started primary to recover from`);
  }
  const answer = (await transport.sendRequest(transportNode(node), RECOVERY_CHECK_ACTION, { index: copy.index, shard: copy.shard, indexUuid: metadata.uuid } satisfies HistoryCheck, {
    timeoutMillis: 30_000,
  })) as { maxSeqNo: number };
  if (answer.maxSeqNo >= 0) {
    throw new EsError(
      'illegal_state_exception',
      `[${copy.index}][${copy.shard}] peer recovery of a primary with operations (max_seq_no [${answer.maxSeqNo}]) is not supported yet; the replica stays unassigned`,
    );
  }
}
