/**
 * Building a new index's metadata and routing as ES's MetadataCreateIndexService does: the name rules, the
 * existence checks, user settings validated and completed with the system settings (uuid, creation date,
 * provided name, version created, the content tier preference), the analysis settings and the mapping checked
 * by building them, replicas expanded by `index.auto_expand_replicas`, and the copies placed.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { errors, indexErrors } from '../../common/errors.js';
import { randomBase64Uuid } from '../../common/uuid.js';
import { AnalysisRegistry } from '../../analysis/index.js';
import { checkMappingLimits, parseMapping, serializeMapping } from '../../mapping/index.js';
import { validateMapping } from '../../mapping/mapping-merge.js';
import {
  normalizeSettings,
  readIndexSettings,
  validateIndexName,
  validateUserSettings,
  type FlatSettings,
} from '../../indices/index.js';
import { isAlias, type AliasMetadata, type IndexAliases } from '../alias-metadata.js';
import type { ClusterState, IndexMetadata } from '../cluster-state.js';
import { parseAliasDefinition, validateNewAlias } from './alias-definitions.js';
import { validateAliasConsistency } from './alias-updates.js';
import { isDataNode } from '../discovery-node.js';
import { routingForNewIndex } from '../routing/shard-allocation.js';
import { applyTemplatesToRequest } from './templates/index.js';

export interface CreateIndexRequest {
  readonly index: string;
  /** The request body's `settings` (any ES shape). */
  readonly settings?: unknown;
  /** The request body's `mappings`. */
  readonly mappings?: unknown;
  /** The request body's `aliases` (names -> alias definitions). */
  readonly aliases?: unknown;
  /**
   * Set by the node itself, never from a request body: private settings the new index carries (the resize APIs'
   * `index.resize.source.*`), and whether index templates are skipped (a resize target takes its source's settings).
   */
  readonly internal?: { readonly settings?: Readonly<Record<string, string>>; readonly noTemplates?: boolean };
}

/** ES's Version id of the reported version (8.19.2 -> 8190299), printed as `index.version.created`. */
export function versionCreatedId(reportedVersion: string): string {
  const [major = 0, minor = 0, revision = 0] = reportedVersion.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return String(major * 1_000_000 + minor * 10_000 + revision * 100 + 99);
}

export function dataNodeCount(state: ClusterState): number {
  return [...state.nodes.values()].filter(isDataNode).length;
}

/** AutoExpandReplicas: `min-max` (max may be `all`) clamps `data nodes - 1`; `false` leaves the setting. */
export function autoExpandedReplicas(settings: FlatSettings, dataNodes: number): number | undefined {
  const value = settings['index.auto_expand_replicas'];
  if (value === undefined || value === 'false') return undefined;
  const [minText, maxText] = value.split('-');
  const min = Number(minText);
  const max = maxText === 'all' ? Math.max(0, dataNodes - 1) : Number(maxText);
  return Math.max(min, Math.min(max, Math.max(0, dataNodes - 1)));
}

/** The create body's `aliases`: each parsed as ES's Alias and validated as AliasValidator does for a new index. */
function validateAliases(aliases: unknown, index: string, state: ClusterState): IndexAliases {
  if (aliases === undefined || aliases === null) return {};
  if (typeof aliases !== 'object' || Array.isArray(aliases)) throw errors.illegalArgument('aliases must be an object');
  const definitions: Record<string, AliasMetadata> = {};
  for (const [alias, body] of Object.entries(aliases as Record<string, unknown>)) {
    const definition = parseAliasDefinition(body);
    validateNewAlias(alias, definition, (name) => name === index || state.indices.has(name));
    setOwnValue(definitions, alias, definition);
  }
  return definitions;
}

/** The next cluster state with the index added; throws ES's error when the request is invalid. */
export function addNewIndex(state: ClusterState, givenRequest: CreateIndexRequest, reportedVersion: string, now: number): { state: ClusterState; metadata: IndexMetadata } {
  const name = givenRequest.index;
  validateIndexName(name);
  const existing = state.indices.get(name);
  if (existing !== undefined) throw indexErrors.alreadyExists(name, existing.uuid);
  if (isAlias(state, name)) throw errors.invalidIndexName(name, 'already exists as alias');
  // The matching index templates give their settings, mappings and aliases; the request's own go on top.
  const templated = givenRequest.internal?.noTemplates === true ? undefined : applyTemplatesToRequest(state.templates, name, givenRequest);
  const request: CreateIndexRequest = templated === undefined ? givenRequest : { index: name, ...templated };
  const userSettings = normalizeSettings(request.settings);
  validateUserSettings(userSettings, 'create');
  const uuid = randomBase64Uuid();
  const settings: FlatSettings = {};
  for (const [key, value] of Object.entries(userSettings)) if (value !== null) setOwnValue(settings, key, value);
  for (const [key, value] of Object.entries(givenRequest.internal?.settings ?? {})) setOwnValue(settings, key, value);
  settings['index.number_of_shards'] ??= '1';
  settings['index.number_of_replicas'] ??= '1';
  settings['index.routing.allocation.include._tier_preference'] ??= 'data_content';
  settings['index.creation_date'] ??= String(now);
  settings['index.provided_name'] = name;
  settings['index.uuid'] = uuid;
  settings['index.version.created'] = versionCreatedId(reportedVersion);
  const expanded = autoExpandedReplicas(settings, dataNodeCount(state));
  if (expanded !== undefined) settings['index.number_of_replicas'] = String(expanded);

  const view = readIndexSettings(settings);
  checkRoutingShards(view.numberOfShards, view.routingNumShards, settings['index.number_of_routing_shards'] !== undefined);
  if (view.routingPartitionSize > 1 && view.routingPartitionSize >= view.routingNumShards) {
    throw errors.illegalArgument(`routing partition size [${view.routingPartitionSize}] should be a positive number less than the number of routing shards [${view.routingNumShards}]`);
  }
  const analysis = AnalysisRegistry.forIndex(view.analysis, name);
  let mappings: Record<string, unknown> = {};
  if (request.mappings !== undefined && request.mappings !== null) {
    const parsed = parseMapping(request.mappings, { settings: view.mapping, analyzerExists: (analyzer) => analysis.findAnalyzer(analyzer) !== undefined });
    // A new index takes the mapping as given (root settings such as _routing.required included), checked as a
    // merged mapping would be.
    validateMapping(parsed);
    checkMappingLimits(parsed, view.mapping);
    mappings = serializeMapping(parsed);
  }
  const aliases = validateAliases(request.aliases, name, state);

  const metadata: IndexMetadata = {
    name,
    uuid,
    state: 'open',
    numberOfShards: view.numberOfShards,
    numberOfReplicas: view.numberOfReplicas,
    creationDateMillis: Number(settings['index.creation_date']),
    settings,
    mappings,
    aliases,
    primaryTerms: Array.from({ length: view.numberOfShards }, () => 1),
    inSyncAllocationIds: Array.from({ length: view.numberOfShards }, () => []),
  };
  const indices = new Map(state.indices);
  indices.set(name, metadata);
  // The new index joins existing aliases: they must still have one write index and agree on is_hidden.
  for (const alias of Object.keys(aliases)) validateAliasConsistency(indices, alias);
  const withIndex: ClusterState = { ...state, indices };
  const routing = new Map(state.routing);
  routing.set(name, routingForNewIndex(withIndex, metadata, now));
  return { state: { ...withIndex, routing }, metadata };
}

/** IndexMetadata.getRoutingFactor's rule: routing shards must be a multiple of the shards. */
function checkRoutingShards(shards: number, routingShards: number, explicit: boolean): void {
  if (!explicit) return;
  if (routingShards < shards) {
    throw errors.illegalArgument(`index.number_of_routing_shards [${routingShards}] must be >= index.number_of_shards [${shards}]`);
  }
  if (routingShards % shards !== 0) {
    throw errors.illegalArgument(`the number of source shards [${shards}] must be a factor of [${routingShards}]`);
  }
}

