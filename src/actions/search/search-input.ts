/**
 * A `_search` request's body and parameters read as RestSearchAction.parseSearchRequest does, into what the
 * executor needs: the typed SearchRequest (search/dsl), parsed aggregations, the index expressions and
 * indices options, search_type, scroll, `pit`, routing, allow_partial_search_results, the resolved
 * track_total_hits, and the response switches (rest_total_hits_as_int, typed_keys). Everything here fails
 * with ES's 400s before any shard is asked. The same reader serves `_msearch` items (header values as
 * parameters, the body line as an object).
 */
import { didYouMean } from '../../common/did-you-mean.js';
import { EsError, errors } from '../../common/errors.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams, splitCommaLikeJava, type IndicesOptions } from '../../cluster/indices-options.js';
import { parseAggregations, type AggregationSpec } from '../../search/aggregations/index.js';
import { parseHighlight } from '../../search/highlight/index.js';
import {
  parseQuery,
  parseSearchRequest,
  SEARCH_URL_PARAMETERS,
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  type JsonValue,
  type SearchRequest,
  type SortSpec,
} from '../../search/dsl/index.js';

export type SearchType = 'query_then_fetch' | 'dfs_query_then_fetch';

export interface PitReference {
  readonly id: string;
  readonly keepAliveMillis: number | undefined;
}

export interface SearchInput {
  readonly request: SearchRequest;
  readonly aggregations: AggregationSpec[] | undefined;
  /** Index expressions (empty: all indices). */
  readonly indices: readonly string[];
  readonly indicesOptions: IndicesOptions;
  readonly searchType: SearchType;
  readonly scrollKeepAliveMillis: number | undefined;
  readonly pit: PitReference | undefined;
  readonly routing: string | undefined;
  /** `preference`: which copy of each shard answers (search-shards.ts reads it). */
  readonly preference: string | undefined;
  readonly allowPartialResults: boolean;
  readonly trackTotalHitsUpTo: number;
  readonly totalHitsAsInt: boolean;
  readonly typedKeys: boolean;
  /** `batched_reduce_size`: shard results reduced together before the final reduce (512 when not given). */
  readonly batchedReduceSize: number;
  /** `pre_filter_shard_size`, when given (ES then decides by the indices and the sort). */
  readonly preFilterShardSize: number | undefined;
  /** `max_concurrent_shard_requests`: shard requests of this search in flight per node at once (ES's default 5). */
  readonly maxConcurrentShardRequests: number;
  /** The request's search source on one line, for the slow log (computed only when a line is written). */
  readonly slowLogSource: () => string;
}

/** SearchRequest.DEFAULT_BATCHED_REDUCE_SIZE. */
export const DEFAULT_BATCHED_REDUCE_SIZE = 512;

/** SearchRequest.DEFAULT_MAX_CONCURRENT_SHARD_REQUESTS: per node, as its docs say. */
export const DEFAULT_MAX_CONCURRENT_SHARD_REQUESTS = 5;

/** Parameters `_search` reads besides the body ones of the DSL. */
export const SEARCH_PARAMS: readonly string[] = [
  ...SEARCH_URL_PARAMETERS,
  ...INDICES_OPTIONS_PARAMS,
  'scroll',
  'search_type',
  'routing',
  'preference',
  'request_cache',
  'batched_reduce_size',
  'pre_filter_shard_size',
  'max_concurrent_shard_requests',
  'allow_partial_search_results',
  'ccs_minimize_roundtrips',
  'rest_total_hits_as_int',
  'typed_keys',
  'source',
  'source_content_type',
  'include_named_queries_score',
  'force_synthetic_source',
];

export type ParamReader = (name: string) => string | undefined;

/** RestRequest.paramAsBoolean (empty means true). */
export function booleanParam(param: ParamReader, name: string, fallback: boolean): boolean {
  const value = param(name);
  if (value === undefined) return fallback;
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw errors.illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** RestRequest.paramAsInt: Integer.parseInt's grammar and range, or ES's 400 with the NumberFormatException. */
function intParam(param: ParamReader, name: string): number | undefined {
  const value = param(name);
  if (value === undefined) return undefined;
  const parsed = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= -2147483648 && parsed <= 2147483647)) {
    throw errors.illegalArgument(`Failed to parse int parameter [${name}] with value [${value}]`, new EsError('number_format_exception', `For input string: "${value}"`));
  }
  return parsed;
}

/**
 * The shard-fan-out parameters RestSearchAction.parseSearchRequest reads right after the body, checked by
 * SearchRequest's setters before any index is resolved.
 */
function readFanOutParams(param: ParamReader): { batchedReduceSize: number; preFilterShardSize: number | undefined; maxConcurrentShardRequests: number } {
  const batchedReduceSize = intParam(param, 'batched_reduce_size') ?? DEFAULT_BATCHED_REDUCE_SIZE;
  if (batchedReduceSize <= 1) throw errors.illegalArgument('batchedReduceSize must be >= 2');
  const preFilterShardSize = intParam(param, 'pre_filter_shard_size');
  if (preFilterShardSize !== undefined && preFilterShardSize < 1) throw errors.illegalArgument('preFilterShardSize must be >= 1');
  const maxConcurrentShardRequests = intParam(param, 'max_concurrent_shard_requests');
  if (maxConcurrentShardRequests !== undefined && maxConcurrentShardRequests < 1) throw errors.illegalArgument('maxConcurrentShardRequests must be >= 1');
  return { batchedReduceSize, preFilterShardSize, maxConcurrentShardRequests: maxConcurrentShardRequests ?? DEFAULT_MAX_CONCURRENT_SHARD_REQUESTS };
}

/** SearchType.fromString. */
export function parseSearchType(value: string | undefined): SearchType {
  if (value === undefined || value === 'query_then_fetch') return 'query_then_fetch';
  if (value === 'dfs_query_then_fetch') return 'dfs_query_then_fetch';
  throw errors.illegalArgument(`No search type for [${value}]`);
}

/** PointInTimeBuilder's parser: `{"id": "...", "keep_alive": "1m"}`. */
function readPit(value: unknown): PitReference {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EsError('x_content_parse_exception', '[pit] point_in_time doesn\'t support values of type: VALUE_STRING');
  }
  let id: string | undefined;
  let keepAliveMillis: number | undefined;
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'id') id = String(field);
    else if (key === 'keep_alive') keepAliveMillis = parseTimeValueMillis(String(field), 'keep_alive');
    else throw new EsError('x_content_parse_exception', `[pit] unknown field [${key}]${didYouMean(key, ['id', 'keep_alive'])}`);
  }
  if (id === undefined) throw new EsError('x_content_parse_exception', '[pit] Required [id]');
  return { id, keepAliveMillis };
}

/**
 * The body with `pit` taken out (the DSL parser refuses it): parsed as JSON only when the text mentions
 * `"pit"`, so other bodies keep their exact parse error locations.
 */
function splitPit(body: Uint8Array | string | { [key: string]: JsonValue } | undefined): { body: typeof body; pit: PitReference | undefined } {
  if (body === undefined) return { body, pit: undefined };
  let object: Record<string, unknown>;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    if (!text.includes('"pit"')) return { body, pit: undefined };
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { body, pit: undefined };
      object = parsed as Record<string, unknown>;
    } catch {
      return { body, pit: undefined };
    }
  } else {
    object = body;
  }
  if (!Object.prototype.hasOwnProperty.call(object, 'pit')) return { body, pit: undefined };
  const { pit, ...rest } = object;
  return { body: rest as { [key: string]: JsonValue }, pit: readPit(pit) };
}

/** SearchRequest.resolveTrackTotalHitsUpTo, with RestSearchAction.checkRestTotalHits. */
function resolveTrackTotalHits(request: SearchRequest, scroll: boolean, totalHitsAsInt: boolean): number {
  if (scroll) return TRACK_TOTAL_HITS_ACCURATE;
  const given = request.trackTotalHitsUpTo;
  if (totalHitsAsInt) {
    if (given === undefined) return TRACK_TOTAL_HITS_ACCURATE;
    if (given !== TRACK_TOTAL_HITS_ACCURATE && given !== TRACK_TOTAL_HITS_DISABLED) {
      throw errors.illegalArgument(`[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${given}`);
    }
  }
  return given ?? DEFAULT_TRACK_TOTAL_HITS_UP_TO;
}

/** SearchRequest.validate's checks for scroll and point in time. */
function validate(request: SearchRequest, scroll: boolean, pit: PitReference | undefined, requestCache: boolean | undefined): void {
  const problems: string[] = [];
  if (scroll) {
    if (request.trackTotalHitsUpTo !== undefined && request.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_ACCURATE) {
      problems.push('disabling [track_total_hits] is not allowed in a scroll context');
    }
    if ((request.from ?? 0) > 0) problems.push('using [from] is not allowed in a scroll context');
    if (request.size === 0) problems.push('[size] cannot be [0] in a scroll context');
    if (requestCache === true) problems.push('[request_cache] cannot be used in a scroll context');
  }
  if (request.slice !== undefined && pit === undefined && !scroll) problems.push('[slice] can only be used with [scroll] or [point-in-time] requests');
  if (pit !== undefined) {
    if (scroll) problems.push('using [point in time] is not allowed in a scroll context');
  } else if (request.sort?.some((sort) => sort.kind === 'field' && sort.field === '_shard_doc')) {
    problems.push('[_shard_doc] sort field cannot be used without [point in time]');
  }
  if (problems.length > 0) throw errors.requestValidation(problems);
}

export interface SearchInputSource {
  readonly param: ParamReader;
  /** The body; undefined when the request has none. */
  readonly body: Uint8Array | string | { [key: string]: JsonValue } | undefined;
  /** Index expressions from the path (or an msearch header). */
  readonly indices: readonly string[];
  /** Defaults for the indices options (msearch headers may bring their own). */
  readonly indicesOptions?: IndicesOptions;
}

export function readSearchInput(source: SearchInputSource): SearchInput {
  const { param } = source;
  const rawBody = source.body ?? param('source');
  const { body, pit } = splitPit(rawBody);
  const request = parseSearchRequest({ ...(body !== undefined && { body }), params: { param } });
  const fanOut = readFanOutParams(param);
  // SearchSourceBuilder parses the highlight builder with the request: a bad option is the request's 400, not a
  // failure of every shard that has a hit to highlight.
  if (request.highlight !== undefined) parseHighlight(request.highlight);
  const scrollText = param('scroll');
  const scroll = scrollText === undefined ? undefined : parseTimeValueMillis(scrollText, 'scroll');
  const requestCache = param('request_cache') === undefined ? undefined : booleanParam(param, 'request_cache', false);
  const totalHitsAsInt = booleanParam(param, 'rest_total_hits_as_int', false);
  const trackTotalHitsUpTo = resolveTrackTotalHits(request, scroll !== undefined, totalHitsAsInt);
  validate(request, scroll !== undefined, pit, requestCache);
  const indicesOptions = indicesOptionsFromParams(param, source.indicesOptions ?? STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const routing = param('routing');
  if (pit !== undefined) {
    const problems: string[] = [];
    if (source.indices.length > 0) problems.push('[indices] cannot be used with point in time. Do not specify any index with point in time.');
    if (INDICES_OPTIONS_PARAMS.some((name) => param(name) !== undefined)) problems.push('[indicesOptions] cannot be used with point in time');
    if (routing !== undefined) problems.push('[routing] cannot be used with point in time');
    if (param('preference') !== undefined) problems.push('[preference] cannot be used with point in time');
    if (problems.length > 0) throw errors.requestValidation(problems);
  }
  const aggregations =
    request.aggregations === undefined ? undefined : parseAggregations(request.aggregations, { parseQuery: (query) => parseQuery(query as { [key: string]: JsonValue }) });
  return {
    request,
    aggregations,
    indices: source.indices,
    indicesOptions,
    searchType: parseSearchType(param('search_type')),
    scrollKeepAliveMillis: scroll,
    pit,
    routing,
    preference: param('preference'),
    allowPartialResults: booleanParam(param, 'allow_partial_search_results', true),
    trackTotalHitsUpTo,
    totalHitsAsInt,
    typedKeys: booleanParam(param, 'typed_keys', false),
    ...fanOut,
    slowLogSource: () => searchSourceText(rawBody, param('q')),
  };
}

/**
 * What the slow log shows as `source`: the body on one line as sent (ES prints its parsed SearchSourceBuilder,
 * defaults included), or for a `q=` search the query_string query it stands for.
 */
function searchSourceText(body: Uint8Array | string | { [key: string]: JsonValue } | undefined, q: string | undefined): string {
  if (body === undefined) return q === undefined ? '{}' : JSON.stringify({ query: { query_string: { query: q } } });
  if (typeof body === 'object' && !(body instanceof Uint8Array)) return JSON.stringify(body);
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/\s*\n\s*/g, ' ');
  }
}

/** ES adds `_shard_doc` as the last sort of a PIT search, unless search_after leaves no room for it. */
export function withPitTiebreaker(request: SearchRequest): SearchRequest {
  const sorts = request.sort;
  if (sorts === undefined || sorts.length === 0) return request;
  if (request.searchAfter !== undefined && request.searchAfter.length !== sorts.length + 1) return request;
  const last = sorts[sorts.length - 1]!;
  if (last.kind === 'field' && last.field === '_shard_doc') return request;
  const tiebreaker: SortSpec = { kind: 'field', field: '_shard_doc', order: 'asc', unmappedType: 'long' };
  return { ...request, sort: [...sorts, tiebreaker] };
}

/** The `{index}` path part as index expressions. */
export function indexExpressions(pathValue: string | undefined): string[] {
  return pathValue === undefined ? [] : splitCommaLikeJava(pathValue);
}
