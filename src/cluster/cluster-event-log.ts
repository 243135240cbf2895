/**
 * What the cluster did, logged at info as ES's master logs it, found by comparing each applied cluster state with
 * the one before: indices deleted, closed, opened; mapping updates; index and cluster settings changes; shard
 * copies that failed; and, when the state is first recovered, how many indices it holds. Index creation is logged by
 * MetadataService (it knows the cause and the templates). Only the elected master logs, so a cluster logs each
 * event once; a state that comes from elsewhere (a replayed or reconciled one) is described the same way.
 *
 * The wording follows ES's messages (MetadataDeleteIndexService "[name/uuid] deleting index",
 * MetadataIndexStateService "closing indices [...]", MetadataMappingService "[name/uuid] update_mapping [_doc]",
 * AbstractScopedSettings "updating [key] from [a] to [b]"), with `event` and the names as fields for filtering.
 */
import type { Logger } from 'pino';
import type { ClusterService } from './cluster-service.js';
import type { ClusterState, IndexMetadata } from './cluster-state.js';

/** The block of a state that was not recovered yet (GatewayService's STATE_NOT_RECOVERED_BLOCK). */
const STATE_NOT_RECOVERED_BLOCK_ID = 1;

function label(metadata: IndexMetadata): string {
  return `${metadata.name}/${metadata.uuid}`;
}

function notRecovered(state: ClusterState): boolean {
  return state.globalBlocks.some((block) => block.id === STATE_NOT_RECOVERED_BLOCK_ID);
}

/** Keys whose value differs between two flat settings maps, with both values (undefined when absent). */
function changedSettings(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): Array<[string, string | undefined, string | undefined]> {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].sort().flatMap((key): Array<[string, string | undefined, string | undefined]> => (before[key] === after[key] ? [] : [[key, before[key], after[key]]]));
}

/** Settings the system changes itself, which ES does not log as an operator's change. */
const SYSTEM_SETTINGS = new Set(['index.verified_before_close']);

export function describeStateChange(logger: Logger, state: ClusterState, previous: ClusterState): void {
  if (notRecovered(previous) && !notRecovered(state)) {
    logger.info({ event: 'state_recovered', indices: state.indices.size }, `recovered [${state.indices.size}] indices into cluster_state`);
    return;
  }
  for (const [name, before] of previous.indices) {
    const after = state.indices.get(name);
    if (after === undefined || after.uuid !== before.uuid) logger.info({ event: 'index_deleted', index: name, index_uuid: before.uuid }, `[${label(before)}] deleting index`);
  }
  const closed: IndexMetadata[] = [];
  const opened: IndexMetadata[] = [];
  for (const [name, after] of state.indices) {
    const before = previous.indices.get(name);
    if (before === undefined || before.uuid !== after.uuid) continue;
    if (before.state !== after.state) (after.state === 'close' ? closed : opened).push(after);
    if (before.mappings !== after.mappings && JSON.stringify(before.mappings) !== JSON.stringify(after.mappings)) {
      logger.info({ event: 'mapping_updated', index: name, index_uuid: after.uuid }, `[${label(after)}] update_mapping [_doc]`);
    }
    if (before.settings !== after.settings) {
      for (const [key, from, to] of changedSettings(before.settings, after.settings)) {
        if (SYSTEM_SETTINGS.has(key)) continue;
        logger.info(
          { event: 'index_settings_updated', index: name, index_uuid: after.uuid, setting: key, from: from ?? null, to: to ?? null },
          `[${label(after)}] updating [${key}] from [${from ?? ''}] to [${to ?? ''}]`,
        );
      }
    }
  }
  if (closed.length > 0) logger.info({ event: 'indices_closed', indices: closed.map((m) => m.name) }, `closing indices [${closed.map(label).join(', ')}]`);
  if (opened.length > 0) logger.info({ event: 'indices_opened', indices: opened.map((m) => m.name) }, `opening indices [${opened.map(label).join(', ')}]`);
  if (state.persistentSettings !== previous.persistentSettings || state.transientSettings !== previous.transientSettings) {
    const effective = (s: ClusterState) => ({ ...s.persistentSettings, ...s.transientSettings });
    for (const [key, from, to] of changedSettings(effective(previous), effective(state))) {
      logger.info({ event: 'cluster_settings_updated', setting: key, from: from ?? null, to: to ?? null }, `updating [${key}] from [${from ?? ''}] to [${to ?? ''}]`);
    }
  }
  for (const [name, shards] of state.routing) {
    const before = previous.routing.get(name);
    if (before === shards) continue;
    shards.forEach((copies, shard) => {
      const wasAssigned = before?.[shard]?.some((copy) => copy.primary && copy.state !== 'UNASSIGNED') ?? false;
      const primary = copies.find((copy) => copy.primary);
      if (wasAssigned && primary !== undefined && primary.state === 'UNASSIGNED') {
        logger.warn({ event: 'shard_failed', index: name, shard }, `[${name}][${shard}] primary shard is unassigned`);
      }
    });
  }
}

/** Logs every applied state's changes while this node is the elected master; returns the unsubscribe function. */
export function logClusterEvents(clusterService: ClusterService, logger: Logger, localNodeId: string): () => void {
  return clusterService.onChange((state, previous) => {
    if (state.masterNodeId !== localNodeId) return;
    try {
      describeStateChange(logger, state, previous);
    } catch (err) {
      logger.debug({ err }, 'could not describe a cluster state change');
    }
  });
}
