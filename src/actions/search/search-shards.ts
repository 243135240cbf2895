/**
 * Which shards a search runs on (ES's TransportSearchAction shard iterators): every shard of every concrete
 * index, narrowed by `routing`, ordered as ES orders them (ShardId.compareTo: shard number, then index name,
 * then uuid) so that the position of each (its shardIndex) breaks merge ties as in ES. Any started copy may
 * answer (replicas hold every acknowledged write: issue 13): this node's copy when it has one, else the
 * primary's, else a replica's, narrowed or chosen by `preference` (copy-preference.ts); the other copies follow
 * in that order, tried when the first fails. A copy is named by its node only: whether that node is this one is
 * the transport's question (decision 0024). A shard with no started copy becomes ES's unassigned-shard failure.
 */
import { getHeapStatistics } from 'node:v8';
import { calculateMaxClauseCount } from '../../search/dsl/index.js';
import type { ClusterState, DiscoveryNode } from '../../cluster/index.js';
import { checkReadBlocks } from '../../cluster/metadata/index-updates.js';
import type { Searcher } from '../../engine/searcher.js';
import { shardIdFor, type IndexService } from '../../indices/index.js';
import type { ShardSearchSettings, ShardSearchTarget } from '../../search/phase/index.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { orderCopies, parsePreference } from '../copy-preference.js';

/** One copy of a shard a search may read, on its node (this one included: the transport decides how to reach it). */
export interface SearchCopy {
  readonly nodeId: string;
  readonly node: DiscoveryNode;
}

export interface SearchShardRef {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly shardIndex: number;
  /** The copy searched first, or undefined when none is started (the shard then fails as ES's unassigned shard). */
  readonly copy: SearchCopy | undefined;
  /**
   * The copies tried next, in order, when the first one fails (ES's SearchShardIterator: a failed shard request
   * goes to the next copy before the shard counts as failed).
   */
  readonly alternatives: readonly SearchCopy[];
}

/**
 * The limit on boolean clauses, as ES 8 derives it at startup (SearchUtils.calculateMaxClauseValue): the heap
 * (V8's limit here) in MB times 64, divided by the search pool's size, at least 1024.
 */
let maxClauseCountMemo: number | undefined;
function maxClauseCount(services: NodeServices): number {
  return (maxClauseCountMemo ??= calculateMaxClauseCount(services.threadPools.pool('search').info.max, getHeapStatistics().heap_size_limit));
}

function intSetting(flat: Readonly<Record<string, string>>, key: string, fallback: number): number {
  const raw = flat[key];
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
}

export function searchSettingsOf(service: IndexService, services: NodeServices): ShardSearchSettings {
  const flat = service.flatSettings;
  const defaultField = flat['index.query.default_field'];
  return {
    maxResultWindow: service.settings.maxResultWindow,
    maxDocvalueFieldsSearch: intSetting(flat, 'index.max_docvalue_fields_search', 100),
    maxInnerResultWindow: intSetting(flat, 'index.max_inner_result_window', 100),
    maxAnalyzedOffset: intSetting(flat, 'index.highlight.max_analyzed_offset', 1_000_000),
    weightMatchesEnabled: flat['index.highlight.weight_matches_mode.enabled'] !== 'false',
    maxTermsCount: intSetting(flat, 'index.max_terms_count', 65_536),
    maxRegexLength: intSetting(flat, 'index.max_regex_length', 1000),
    defaultFields: defaultField === undefined ? ['*'] : defaultField.replace(/^\[|\]$/g, '').split(',').map((field) => field.trim().replace(/^"|"$/g, '')),
    queryStringLenient: flat['index.query_string.lenient'] === 'true',
    maxClauseCount: maxClauseCount(services),
    maxBuckets: intSetting(services.settings.raw(), 'search.max_buckets', 65_536),
    maxSlicesPerScroll: intSetting(flat, 'index.max_slices_per_scroll', 1024),
  };
}

/** Identifies a shard of a search: enough for hits, failures and `_shard_doc`. */
export interface ShardLabel {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly shardIndex: number;
}

export function targetFor(label: ShardLabel, service: IndexService, searcher: Searcher, services: NodeServices): ShardSearchTarget {
  return {
    index: label.index,
    indexUuid: label.indexUuid,
    shard: label.shard,
    nodeId: services.localNode.id,
    shardIndex: label.shardIndex,
    searcher,
    mapping: service.mapping,
    mappingSettings: service.settings.mapping,
    analysis: service.analysis,
    settings: searchSettingsOf(service, services),
    requestBreaker: services.breakers.breaker('request'),
  };
}

/** ES's ShardId order: shard number, then index name, then index uuid. */
export function compareShardIds(a: { shard: number; index: string; indexUuid: string }, b: { shard: number; index: string; indexUuid: string }): number {
  if (a.shard !== b.shard) return a.shard - b.shard;
  if (a.index !== b.index) return a.index < b.index ? -1 : 1;
  return a.indexUuid < b.indexUuid ? -1 : a.indexUuid > b.indexUuid ? 1 : 0;
}

/** The shard numbers `routing` (comma separated) selects in one index, or every shard. */
function routedShards(service: IndexService | undefined, state: ClusterState, index: string, routing: string | undefined): number[] {
  const metadata = state.indices.get(index)!;
  const all = Array.from({ length: metadata.numberOfShards }, (_, i) => i);
  if (routing === undefined || service === undefined) return all;
  const values = routing.split(',').filter((value) => value.length > 0);
  if (values.length === 0) return all;
  return [...new Set(values.map((value) => shardIdFor(service.settings, '', value)))].sort((a, b) => a - b);
}

/** `routing` is the request's (the same for every index) or, through aliases, each index's own. */
export function resolveSearchShards(
  services: NodeServices,
  state: ClusterState,
  indices: readonly string[],
  routing: string | undefined | ((index: string) => string | undefined),
  preferenceText?: string,
): SearchShardRef[] {
  const { service: indicesService } = indicesOf(services);
  const preference = parsePreference(preferenceText);
  const refs: Omit<SearchShardRef, 'shardIndex'>[] = [];
  for (const index of indices) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    checkReadBlocks(metadata);
    const localService = indicesService.indexService(index);
    const service = localService?.uuid === metadata.uuid ? localService : undefined;
    for (const shard of routedShards(service, state, index, typeof routing === 'function' ? routing(index) : routing)) {
      if (preference.shards !== undefined && !preference.shards.has(shard)) continue;
      const copies = state.routing.get(index)?.[shard] ?? [];
      const active = orderCopies(
        copies.filter((copy) => copy.state === 'STARTED' || copy.state === 'RELOCATING'),
        preference,
        services.localNode.id,
        { index, indexUuid: metadata.uuid, shard },
      );
      // Every started copy whose node the state knows, in preference order; each is reached through the transport
      // (in-process for this node's), and a copy that turns out not to be there fails over to the next.
      const reachable: SearchCopy[] = [];
      for (const copy of active) {
        const node = copy.nodeId === undefined ? undefined : state.nodes.get(copy.nodeId);
        if (node !== undefined) reachable.push({ nodeId: node.id, node });
      }
      const [first, ...alternatives] = reachable;
      refs.push({ index, indexUuid: metadata.uuid, shard, copy: first, alternatives });
    }
  }
  return refs.sort(compareShardIds).map((ref, shardIndex) => ({ ...ref, shardIndex }));
}
