/**
 * The shard search of a plain `_search` (or `_count`) whose shard lives on another node: the coordinating node
 * sends `indices:data/read/search[phase/query+fetch]` to that node, which runs the query phase on its copy and
 * fetches its own top `from + size` hits in the same round trip (ES's QUERY_AND_FETCH shape), returning the
 * unreduced query result (hits, totals, partial aggregations) and those hits. The coordinating node reduces
 * every shard's result exactly as for local shards and keeps only the winners' fetched hits. (ES fetches the
 * winners only in a second round trip; this costs up to `from + size` fetched hits per remote shard instead.)
 * Scroll, point in time and dfs searches of remote shards are not supported yet: those slots fail as shards.
 */
import { EsError, errors } from '../../common/errors.js';
import { RawJson } from '../../common/raw-json.js';
import { Explanation } from '../../search/explanation.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import type { SearchRequest } from '../../search/dsl/index.js';
import { executeFetchPhase, executeQueryPhase, PhaseControl, resolveSort, type AfterDoc, type FetchedSearchHit, type QueryPhaseResult, type ResolvedSort } from '../../search/phase/index.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { targetFor } from './search-shards.js';

export const QUERY_FETCH_ACTION = 'indices:data/read/search[phase/query+fetch]';

export interface RemoteShardSearchRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly shardIndex: number;
  /** The request for this shard: alias filter and slice already applied. */
  readonly request: SearchRequest;
  readonly aggregations: readonly AggregationSpec[] | undefined;
  readonly numHits: number;
  readonly trackTotalHitsUpTo: number;
  readonly after: AfterDoc | undefined;
  readonly nowMillis: number;
}

export interface RemoteShardSearchResult {
  readonly query: QueryPhaseResult;
  /** Fetched hits, in the order of `query.hits`. */
  readonly hits: FetchedSearchHit[];
}

/** Runs on the node holding the shard copy, as a child task of the coordinating node's search. */
export async function executeRemoteShardSearch(services: NodeServices, request: RemoteShardSearchRequest, task: Task): Promise<unknown> {
  const indices = indicesOf(services).service;
  const service = indices.indexService(request.index);
  const shard = indices.shard(request.index, request.shard);
  if (service === undefined || shard === undefined || service.uuid !== request.indexUuid) {
    throw new EsError('no_shard_available_action_exception', `No shard available for [[${request.index}][${request.shard}]]`, {
      metadata: { index_uuid: request.indexUuid, shard: String(request.shard), index: request.index },
    });
  }
  const searcher = shard.acquireSearcher();
  shard.searchStats.openContexts++;
  shard.searchStats.queryCurrent++;
  const started = performance.now();
  try {
    const target = targetFor(request, service, searcher, services);
    const deadline = request.request.timeoutMillis === undefined ? undefined : performance.now() + request.request.timeoutMillis;
    const control = new PhaseControl(() => task.ensureNotCancelled(), deadline);
    const sort = resolveSort(target, request.request.sort);
    const query = await executeQueryPhase(
      target,
      {
        request: request.request,
        sort,
        ...(request.aggregations !== undefined && { aggregations: request.aggregations }),
        numHits: request.numHits,
        trackTotalHitsUpTo: request.trackTotalHitsUpTo,
        ...(request.after !== undefined && { after: request.after }),
        nowMillis: request.nowMillis,
        windowCheck: 'search',
      },
      control,
    );
    shard.searchStats.queryTotal++;
    shard.searchStats.queryTimeMillis += Math.round(performance.now() - started);
    const docs = query.hits.map((hit) => ({ shardIndex: request.shardIndex, doc: hit.doc, score: hit.score, ...(hit.sortValues !== undefined && { sortValues: hit.sortValues }) }));
    const hits = docs.length === 0 ? [] : await executeFetchPhase(target, { request: request.request, docs, nowMillis: request.nowMillis }, control);
    if (docs.length > 0) shard.searchStats.fetchTotal++;
    return encodeTagged({ query, hits } satisfies RemoteShardSearchResult);
  } catch (err) {
    shard.searchStats.queryFailure++;
    throw err;
  } finally {
    shard.searchStats.queryCurrent--;
    shard.searchStats.openContexts--;
    searcher.release();
  }
}

export function decodeRemoteShardSearch(raw: unknown): RemoteShardSearchResult {
  return decodeTagged(raw) as RemoteShardSearchResult;
}

/** The sort a shard of this index resolves, for the coordinating node's reduce (mappings are on every node). */
export function resolveSortForIndex(services: NodeServices, index: string, request: SearchRequest, label: { index: string; indexUuid: string; shard: number; shardIndex: number }): ResolvedSort {
  const service = indicesOf(services).service.indexService(index);
  if (service === undefined) throw errors.indexNotFound(index);
  return resolveSort(targetFor(label, service, undefined as never, services), request.sort);
}

// ---- values that msgpack alone would not carry back as they were ----------------------------------------------

function encodeTagged(value: unknown): unknown {
  if (value instanceof RawJson) return { $raw: value.text };
  if (value instanceof Map) return { $map: [...value].map(([k, v]) => [k, encodeTagged(v)]) };
  if (typeof value === 'bigint') return { $big: value.toString() };
  if (value instanceof Explanation) return { $explanation: explanationToWire(value) };
  if (Array.isArray(value)) return value.map(encodeTagged);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) out[key] = encodeTagged(child);
    return out;
  }
  return value;
}

function decodeTagged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeTagged);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record['$raw'] === 'string') return new RawJson(record['$raw']);
    if (Array.isArray(record['$map'])) return new Map((record['$map'] as [unknown, unknown][]).map(([k, v]) => [k, decodeTagged(v)]));
    if (typeof record['$big'] === 'string') return BigInt(record['$big']);
    if (record['$explanation'] !== undefined) return explanationFromWire(record['$explanation'] as WireExplanation);
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) out[key] = decodeTagged(child);
    return out;
  }
  return value;
}

interface WireExplanation {
  readonly isMatch: boolean;
  readonly value: number;
  readonly description: string;
  readonly kind: string;
  readonly details: WireExplanation[];
}

function explanationToWire(explanation: Explanation): WireExplanation {
  return { isMatch: explanation.isMatch, value: explanation.value, description: explanation.description, kind: explanation.kind, details: explanation.details.map(explanationToWire) };
}

function explanationFromWire(wire: WireExplanation): Explanation {
  const details = wire.details.map(explanationFromWire);
  if (!wire.isMatch) return Explanation.noMatch(wire.description, details);
  if (wire.kind === 'double') return Explanation.matchDouble(wire.value, wire.description, details);
  if (wire.kind === 'long') return Explanation.matchLong(wire.value, wire.description, details);
  return Explanation.match(wire.value, wire.description, details);
}
