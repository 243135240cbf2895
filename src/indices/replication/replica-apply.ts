/**
 * A copy's side of replication (ES's TransportShardBulkAction.performOnReplica + IndexShard's replica permits):
 *
 * - the request must be for this very copy (allocation id) and from the current primary: an operation of an
 *   older primary term is refused ("operation primary term [x] is too old"); a newer term is adopted first,
 *   with every operation of the old term finished (a permit block) and the translog rolled under the new term;
 * - a newer term means a new primary (a promoted replica, or a primary recovered from its store). If this copy
 *   holds operations above the global checkpoint, some may be ones the new primary never received (the old
 *   primary died before they reached it); keeping them would make this copy diverge. So the copy refuses the
 *   new term (rollbackByRecovery) and stays on the old one; the new primary fails it through the master before
 *   acknowledging anything (it is taken out of the in-sync set), and it is allocated again and recovers from the
 *   new primary. That recovery starts from a *safe* commit (every operation in it at or below the global
 *   checkpoint its store persisted: history every in-sync copy, so the new primary, has) or copies the files,
 *   and the copy's own translog is discarded (recovery-target.ts), so nothing above the global checkpoint
 *   survives: the same outcome as ES's reset of the engine to the global checkpoint, at the cost of a recovery;
 *   decision 0013 says why this is the chosen equivalent. At or below the global checkpoint every in-sync copy
 *   holds the same operations, so a copy with nothing above it adopts the term and goes on;
 * - index operations are parsed against this node's mapping (from 128 KiB in a parse worker, as on the primary);
 *   a field it does not know yet means the master's mapping update has not been applied here, so the copy waits
 *   for the next cluster state and parses again;
 * - the operations are applied with the primary's seqNos, versions and terms and fsynced; the global checkpoint
 *   the primary sent is recorded first, so the same fsync persists it in the translog checkpoint; so is the
 *   primary's max seqNo of updates and deletes, under which the engine adds documents without looking their ids
 *   up (decision 0033);
 * - `refresh` runs here too (true: a refresh; wait_for: until a refresh makes the operations visible).
 * The answer carries this copy's persisted local checkpoint and global checkpoint, and where its history would
 * start after a restart (for its retention lease).
 */
import { EsError, errors, replicationErrors } from '../../common/errors.js';
import type { ReplicatedEngineOperation } from '../../engine/engine.js';
import type { ParsedDocument } from '../../mapping/index.js';
import { LARGE_DOCUMENT_BYTES } from '../document-parse-pool.js';
import type { IndexService } from '../index-service.js';
import type { IndexShard } from '../index-shard.js';
import type { IndicesService } from '../indices-service.js';
import { operationsFromWire, type GlobalCheckpointSyncRequest, type ReplicaRequest, type ReplicaResponse, type ReplicatedOperation } from './replicated-operation.js';
import type { ReplicationServices } from './replication-services.js';
import type { ReleasePermit } from './operation-permits.js';

/** How long a copy waits for the cluster state that brings a mapping its primary already used. */
const MAPPING_WAIT_MILLIS = 60_000;
/** How long a term change waits for the operations of the old term to finish. */
const TERM_BUMP_WAIT_MILLIS = 30 * 60_000;

/** The copy a replication or recovery request is for, or ES's shard-not-available errors. */
export function targetShard(indices: IndicesService, index: string, indexUuid: string, shardId: number, allocationId: string): { shard: IndexShard; service: IndexService } {
  const service = indices.indexService(index);
  if (service === undefined || service.uuid !== indexUuid) throw errors.indexNotFound(index);
  const shard = service.shards.get(shardId);
  if (shard === undefined || shard.state === 'closed') throw replicationErrors.shardNotFound(index, indexUuid, shardId);
  if (shard.allocationId !== allocationId) {
    throw replicationErrors.shardNotFound(index, indexUuid, shardId, `expected aID [${allocationId}] but found [${shard.allocationId}]`);
  }
  return { shard, service };
}

/**
 * A permit for operations of `operationTerm` (see the file comment). `globalCheckpoint` is the one the sender
 * knows: a copy holding operations above both it and this copy's own is rolled back by recovery on a new term.
 */
export async function acquireReplicaPermit(shard: IndexShard, operationTerm: number, globalCheckpoint = -2): Promise<ReleasePermit> {
  if (operationTerm < shard.operationPrimaryTerm) throw replicationErrors.termTooOld(shard.indexName, shard.shardId, operationTerm, shard.operationPrimaryTerm);
  if (operationTerm > shard.operationPrimaryTerm) {
    await shard.permits.blockOperations(TERM_BUMP_WAIT_MILLIS, async () => {
      if (operationTerm <= shard.operationPrimaryTerm) return;
      const engine = shard.replicationEngine;
      const known = Math.max(globalCheckpoint, shard.tracker.knownGlobalCheckpoint);
      if (engine.maxSeqNo > known) throw replicationErrors.rollbackByRecovery(shard.indexName, shard.shardId, operationTerm, shard.operationPrimaryTerm, engine.maxSeqNo, known);
      await engine.bumpPrimaryTerm(operationTerm);
      shard.operationPrimaryTerm = operationTerm;
    });
  }
  const release = await shard.permits.acquire();
  if (operationTerm < shard.operationPrimaryTerm) {
    release();
    throw replicationErrors.termTooOld(shard.indexName, shard.shardId, operationTerm, shard.operationPrimaryTerm);
  }
  return release;
}

export async function performOnReplica(indices: IndicesService, services: ReplicationServices, request: ReplicaRequest): Promise<ReplicaResponse> {
  const { shard, service } = targetShard(indices, request.index, request.indexUuid, request.shard, request.targetAllocationId);
  // An old primary's request meets its replacement here: refused by term first (what the old primary is told).
  if (request.primaryTerm < shard.operationPrimaryTerm) throw replicationErrors.termTooOld(shard.indexName, shard.shardId, request.primaryTerm, shard.operationPrimaryTerm);
  if (shard.isPrimaryMode) throw new EsError('illegal_state_exception', `${shard.label} is in primary mode and cannot take operations from another primary`);
  const operations = operationsFromWire(request.operations);
  const release = await acquireReplicaPermit(shard, request.primaryTerm, request.globalCheckpoint);
  try {
    shard.tracker.updateGlobalCheckpointOnReplica(request.globalCheckpoint);
    shard.syncGlobalCheckpointToEngine();
    await applyOperations(shard, service, services, operations, 'replica', request.maxSeqNoOfUpdatesOrDeletes);
    if (request.refresh === 'immediate') await shard.refresh('api');
    else if (request.refresh === 'wait_for') {
      const maxSeqNo = operations.reduce((max, operation) => Math.max(max, operation.seqNo), -1);
      if (maxSeqNo >= 0) await shard.waitForRefresh(maxSeqNo);
    }
    return replicaResponse(shard);
  } finally {
    release();
  }
}

export async function syncGlobalCheckpointOnReplica(indices: IndicesService, request: GlobalCheckpointSyncRequest): Promise<ReplicaResponse> {
  const { shard } = targetShard(indices, request.index, request.indexUuid, request.shard, request.targetAllocationId);
  const release = await acquireReplicaPermit(shard, request.primaryTerm, request.globalCheckpoint);
  try {
    shard.tracker.updateGlobalCheckpointOnReplica(request.globalCheckpoint);
    shard.syncGlobalCheckpointToEngine();
    if (request.retentionLeases !== undefined && (shard.syncedLeases === undefined || request.retentionLeases.version >= shard.syncedLeases.version)) {
      shard.syncedLeases = request.retentionLeases;
    }
    await shard.replicationEngine.syncTranslog();
    return replicaResponse(shard);
  } finally {
    release();
  }
}

export function replicaResponse(shard: IndexShard): ReplicaResponse {
  const engine = shard.replicationEngine;
  return { localCheckpoint: engine.persistedLocalCheckpoint, globalCheckpoint: engine.globalCheckpoint, retainFromSeqNo: engine.restartRecoveryFromSeqNo };
}

/**
 * Parses and applies operations sequenced by the primary; any operation that fails fails the whole request
 * (the primary then fails this copy: a copy that cannot apply an acknowledged operation must not stay in sync).
 */
export async function applyOperations(
  shard: IndexShard,
  service: IndexService,
  services: ReplicationServices,
  operations: readonly ReplicatedOperation[],
  origin: 'replica' | 'peer_recovery',
  maxSeqNoOfUpdatesOrDeletes: number | undefined,
): Promise<void> {
  const prepared: Array<ReplicatedEngineOperation | undefined> = new Array(operations.length);
  for (let i = 0; i < operations.length; i++) {
    const operation = operations[i]!;
    if (operation.type !== 'index') {
      prepared[i] = operation;
      continue;
    }
    // The mapping of the moment knows every field almost always: parsed without an await per document (a
    // thousand awaits per request were a visible share of the copy's event loop); else wait for the state. A
    // large document is parsed in a parse worker, as on the primary (decision 0019): on this loop it would hold
    // the copy's node for as long as its primary's worker took.
    const parsed =
      operation.source.length < LARGE_DOCUMENT_BYTES
        ? service.parseDocument(operation.source, operation.id, operation.routing)
        : await service.parseDocumentAnySize(operation.source, operation.id, operation.routing);
    const document = parsed.mappingUpdate === undefined ? parsed : await parseKnownMapping(service, services, operation.source, operation.id, operation.routing);
    prepared[i] = { type: 'index', id: operation.id, document, seqNo: operation.seqNo, primaryTerm: operation.primaryTerm, version: operation.version };
  }
  const results = await shard.applyReplicated(prepared, origin, maxSeqNoOfUpdatesOrDeletes);
  for (const result of results) if (result instanceof EsError) throw result;
}

/** Parses with the mapping of the moment, waiting for the cluster state that holds a field the primary mapped. */
async function parseKnownMapping(service: IndexService, services: ReplicationServices, source: Uint8Array, id: string, routing: string | undefined): Promise<ParsedDocument> {
  const deadline = Date.now() + MAPPING_WAIT_MILLIS;
  for (;;) {
    const parsed = await service.parseDocumentAnySize(source, id, routing);
    if (parsed.mappingUpdate === undefined) return parsed;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new EsError('illegal_state_exception', `[${service.name}] mapping for document [${id}] is not known on this copy after waiting [${MAPPING_WAIT_MILLIS}ms] for the cluster state`);
    }
    await services.waitForNewerState(Math.min(remaining, 5000));
  }
}
