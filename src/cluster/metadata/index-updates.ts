/**
 * Cluster-state changes to existing indices, as the master makes them: deleting indices (MetadataDeleteIndexService),
 * merging a mapping into indices (MetadataMappingService, for PUT _mapping and for the new fields a document
 * introduced), and updating settings (MetadataUpdateSettingsService: only dynamic settings on open indices,
 * `null` resets to the default, replica count changes reshape the routing table).
 */
import { errors, indexErrors } from '../../common/errors.js';
import { AnalysisRegistry } from '../../analysis/index.js';
import { EMPTY_ROOT, mergeMappings, parseMapping, serializeMapping, type RootMapping } from '../../mapping/index.js';
import { isDynamicSetting, readIndexSettings, validateUserSettings, type FlatSettings } from '../../indices/index.js';
import { INDEX_TOMBSTONES_KEPT, type ClusterState, type IndexMetadata, type IndexTombstone } from '../cluster-state.js';
import { withReplicaCount, allocateNewPrimaries } from '../routing/shard-allocation.js';
import { touchesAllocationFilters } from '../routing/allocation-filters.js';
import { autoExpandedReplicas, dataNodeCount } from './create-index.js';

export function removeIndices(state: ClusterState, names: readonly string[]): ClusterState {
  if (names.length === 0) return state;
  const indices = new Map(state.indices);
  const routing = new Map(state.routing);
  const now = Date.now();
  const tombstones: IndexTombstone[] = [];
  for (const name of names) {
    const metadata = indices.get(name);
    if (metadata !== undefined) tombstones.push({ name, uuid: metadata.uuid, deletedAtMillis: now });
    indices.delete(name);
    routing.delete(name);
  }
  const indexGraveyard = [...(state.indexGraveyard ?? []), ...tombstones].slice(-INDEX_TOMBSTONES_KEPT);
  return { ...state, indices, routing, indexGraveyard };
}

/** The index's current mapping model, parsed from what the metadata stores. */
export function storedMapping(metadata: IndexMetadata): RootMapping {
  if (Object.keys(metadata.mappings).length === 0) return EMPTY_ROOT;
  const view = readIndexSettings(metadata.settings);
  const analysis = AnalysisRegistry.forIndex(view.analysis, metadata.name);
  return parseMapping(metadata.mappings, { settings: view.mapping, analyzerExists: (name) => analysis.findAnalyzer(name) !== undefined });
}

/**
 * Merges `update` into each index's mapping. `update` is either mapping JSON (PUT _mapping: parsed per index,
 * since analyzers are per index) or an already-parsed model (a document's dynamic fields).
 */
export function mergeMappingInto(state: ClusterState, names: readonly string[], update: unknown | RootMapping, parsed: boolean): ClusterState {
  const indices = new Map(state.indices);
  let changed = false;
  for (const name of names) {
    const metadata = indices.get(name);
    if (metadata === undefined) throw errors.indexNotFound(name);
    const view = readIndexSettings(metadata.settings);
    const analysis = AnalysisRegistry.forIndex(view.analysis, metadata.name);
    const incoming = parsed
      ? (update as RootMapping)
      : parseMapping(update, { settings: view.mapping, analyzerExists: (analyzer) => analysis.findAnalyzer(analyzer) !== undefined });
    const merged = serializeMapping(mergeMappings(storedMapping(metadata), incoming, view.mapping));
    if (JSON.stringify(merged) === JSON.stringify(metadata.mappings)) continue;
    indices.set(name, { ...metadata, mappings: merged });
    changed = true;
  }
  return changed ? { ...state, indices } : state;
}

function indexLabel(metadata: IndexMetadata): string {
  return `[${metadata.name}/${metadata.uuid}]`;
}

/**
 * Applies a settings update to indices. Non-dynamic settings on open indices fail with ES's message; `null`
 * removes a setting (back to its default); with `preserveExisting` settings already set are kept.
 */
export function updateIndexSettings(
  state: ClusterState,
  names: readonly string[],
  update: Record<string, string | null>,
  preserveExisting: boolean,
  now: number,
): ClusterState {
  validateUserSettings(update, 'update');
  const targets = names.map((name) => {
    const metadata = state.indices.get(name);
    if (metadata === undefined) throw errors.indexNotFound(name);
    return metadata;
  });
  const nonDynamic = Object.keys(update).filter((key) => !isDynamicSetting(key));
  const open = targets.filter((metadata) => metadata.state === 'open');
  if (nonDynamic.length > 0 && open.length > 0) {
    throw errors.illegalArgument(`Can't update non dynamic settings [[${nonDynamic.join(', ')}]] for open indices [${open.map(indexLabel).join(', ')}]`);
  }
  const indices = new Map(state.indices);
  const routing = new Map(state.routing);
  for (const metadata of targets) {
    const settings: FlatSettings = { ...metadata.settings };
    for (const [key, value] of Object.entries(update)) {
      if (preserveExisting && settings[key] !== undefined) continue;
      // A list setting is stored as key.0, key.1 ...: replacing it removes the old elements.
      for (const existing of Object.keys(settings)) if (existing === key || existing.startsWith(`${key}.`) && /^\d+$/.test(existing.slice(key.length + 1))) delete settings[existing];
      if (value !== null) settings[key] = value;
    }
    if (update['index.number_of_replicas'] === null) settings['index.number_of_replicas'] = '1';
    const expanded = autoExpandedReplicas(settings, dataNodeCount(state));
    if (expanded !== undefined) settings['index.number_of_replicas'] = String(expanded);
    // Validate the result as a whole (an analysis change on a closed index must still build).
    const view = readIndexSettings(settings);
    if (Object.keys(update).some((key) => key.startsWith('index.analysis.'))) AnalysisRegistry.forIndex(view.analysis, metadata.name);
    indices.set(metadata.name, { ...metadata, settings, numberOfReplicas: view.numberOfReplicas });
    if (view.numberOfReplicas !== metadata.numberOfReplicas) {
      const shards = routing.get(metadata.name);
      if (shards !== undefined) routing.set(metadata.name, withReplicaCount(shards, view.numberOfReplicas, now));
    }
  }
  let next: ClusterState = { ...state, indices, routing };
  // New allocation filters may now allow a node for primaries they kept unassigned (ES reroutes after the update).
  if (touchesAllocationFilters(Object.keys(update))) for (const metadata of targets) next = allocateNewPrimaries(next, next.indices.get(metadata.name)!);
  return next;
}

/** Throws when a write block is set on the index (ES's ClusterBlockException for index blocks). */
export function checkWriteBlocks(metadata: IndexMetadata): void {
  const settings = metadata.settings;
  if (settings['index.blocks.read_only'] === 'true') throw blockError(metadata.name, 'FORBIDDEN/5/index read-only (api)');
  if (settings['index.blocks.read_only_allow_delete'] === 'true') {
    throw blockError(metadata.name, 'TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block', 429);
  }
  if (settings['index.blocks.write'] === 'true') throw blockError(metadata.name, 'FORBIDDEN/8/index write (api)');
}

/** Blocks that stop metadata changes (mapping, settings other than the blocks themselves). */
export function checkMetadataBlocks(metadata: IndexMetadata): void {
  if (metadata.settings['index.blocks.read_only'] === 'true') throw blockError(metadata.name, 'FORBIDDEN/5/index read-only (api)');
  if (metadata.settings['index.blocks.metadata'] === 'true') throw blockError(metadata.name, 'FORBIDDEN/9/index metadata (api)');
}

export function checkReadBlocks(metadata: IndexMetadata): void {
  if (metadata.settings['index.blocks.read'] === 'true') throw blockError(metadata.name, 'FORBIDDEN/7/index read (api)');
}

function blockError(index: string, block: string, status = 403) {
  return indexErrors.blocked(index, block, status);
}
