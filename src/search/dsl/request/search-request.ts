/**
 * Gannet's search request: what a `_search` body and its URL parameters asked for, typed, with ES's
 * defaults left implicit (undefined = not given) so the search layer can tell "size: 10" from "no size".
 */
import type { JsonValue, QueryAst, QueryValue } from '../ast/query-ast.js';

/** SearchContext.TRACK_TOTAL_HITS_ACCURATE (`track_total_hits: true`). */
export const TRACK_TOTAL_HITS_ACCURATE = 2147483647;
/** SearchContext.TRACK_TOTAL_HITS_DISABLED (`track_total_hits: false`). */
export const TRACK_TOTAL_HITS_DISABLED = -1;
/** SearchContext.DEFAULT_TRACK_TOTAL_HITS_UP_TO. */
export const DEFAULT_TRACK_TOTAL_HITS_UP_TO = 10000;
/** SearchService.DEFAULT_SIZE / DEFAULT_FROM. */
export const DEFAULT_SIZE = 10;
export const DEFAULT_FROM = 0;

export type SortOrder = 'asc' | 'desc';
export type SortMode = 'min' | 'max' | 'sum' | 'avg' | 'median';

export type SortSpec =
  /** `_score`; ES's default order for it is desc. */
  | { readonly kind: 'score'; readonly order: SortOrder }
  /** A field (or `_doc`, index order); default order asc. */
  | {
      readonly kind: 'field';
      readonly field: string;
      readonly order: SortOrder;
      readonly missing?: QueryValue;
      readonly unmappedType?: string;
      readonly mode?: SortMode;
      readonly numericType?: string;
      readonly format?: string;
    };

/** `_source` filtering (FetchSourceContext). */
export interface SourceFilter {
  readonly fetch: boolean;
  readonly includes: readonly string[];
  readonly excludes: readonly string[];
}

/** `stored_fields` (StoredFieldsContext): `_none_` alone turns stored field loading (and _source) off. */
export interface StoredFields {
  readonly fetch: boolean;
  readonly fields: readonly string[];
}

/** An entry of `fields` / `docvalue_fields` (FieldAndFormat). */
export interface FieldAndFormat {
  readonly field: string;
  readonly format?: string;
  readonly includeUnmapped?: boolean;
}

/** `slice` (SliceBuilder): this request reads slice `id` of `max`; `field` undefined is ES's default strategy. */
export interface SliceSpec {
  readonly field?: string;
  readonly id: number;
  readonly max: number;
  /**
   * Set by the coordinator on the copy of the request it sends a shard (ShardSearchRequest's
   * shardRequestIndex and numberOfShards): which shard of how many this is, and whether it is a scroll.
   */
  readonly shard?: { readonly index: number; readonly count: number; readonly scroll: boolean };
}

export interface SearchRequest {
  readonly query?: QueryAst;
  readonly postFilter?: QueryAst;
  readonly from?: number;
  readonly size?: number;
  /** In request order; body sorts first, then URL `sort` entries (ES appends them). */
  readonly sort?: readonly SortSpec[];
  /** Sort values to continue after; null for a missing value. */
  readonly searchAfter?: readonly (QueryValue | null)[];
  /** -1 (disabled), a bound, or TRACK_TOTAL_HITS_ACCURATE; undefined = DEFAULT_TRACK_TOTAL_HITS_UP_TO. */
  readonly trackTotalHitsUpTo?: number;
  readonly trackScores?: boolean;
  readonly source?: SourceFilter;
  readonly storedFields?: StoredFields;
  readonly docvalueFields?: readonly FieldAndFormat[];
  readonly fields?: readonly FieldAndFormat[];
  /** The highlight section, checked for shape only (top-level keys, `fields`), kept as given. */
  readonly highlight?: { readonly [key: string]: JsonValue };
  readonly timeoutMillis?: number;
  readonly terminateAfter?: number;
  readonly minScore?: number;
  readonly explain?: boolean;
  readonly version?: boolean;
  readonly seqNoPrimaryTerm?: boolean;
  readonly profile?: boolean;
  readonly stats?: readonly string[];
  /** `aggs`/`aggregations` exactly as given, for the aggregations module to parse. */
  readonly aggregations?: { readonly [name: string]: JsonValue };
  readonly slice?: SliceSpec;
}

/** A request whose defaults are resolved, for code that just wants numbers. */
export function effectiveFrom(request: SearchRequest): number {
  return request.from ?? DEFAULT_FROM;
}

export function effectiveSize(request: SearchRequest): number {
  return request.size ?? DEFAULT_SIZE;
}

export function effectiveTrackTotalHitsUpTo(request: SearchRequest): number {
  return request.trackTotalHitsUpTo ?? DEFAULT_TRACK_TOTAL_HITS_UP_TO;
}
