/**
 * What one shard's search phases need to know about the shard they run on: which shard it is (for hits,
 * failures and `_shard_doc`), the point-in-time view of its segments, and the index's mapping, analyzers
 * and the index settings that bound a search. The indices layer above fills it in; nothing here reads
 * cluster state or HTTP.
 */
import type { AnalysisRegistry } from '../../analysis/index.js';
import type { Searcher } from '../../engine/searcher.js';
import type { MappingSettings, RootMapping } from '../../mapping/index.js';

/** What a search needs of ES's request circuit breaker (common/circuit-breakers.ts's ChildCircuitBreaker). */
export interface RequestBreaker {
  addEstimateBytesAndMaybeBreak(bytes: number, label: string): void;
  addWithoutBreaking(bytes: number): void;
}

/** Index settings (and node limits) a search reads, with ES's defaults filled in by the caller. */
export interface ShardSearchSettings {
  /** index.max_result_window. */
  readonly maxResultWindow: number;
  /** index.max_docvalue_fields_search. */
  readonly maxDocvalueFieldsSearch: number;
  /** index.max_inner_result_window. */
  readonly maxInnerResultWindow: number;
  /** index.highlight.max_analyzed_offset. */
  readonly maxAnalyzedOffset: number;
  /** index.highlight.weight_matches_mode.enabled (true when not given). */
  readonly weightMatchesEnabled?: boolean;
  /** index.max_terms_count. */
  readonly maxTermsCount: number;
  /** index.max_regex_length. */
  readonly maxRegexLength: number;
  /** index.query.default_field. */
  readonly defaultFields: readonly string[];
  /** index.query_string.lenient. */
  readonly queryStringLenient: boolean;
  /** The boolean clause limit (ES 8 derives indices.query.bool.max_clause_count from the heap). */
  readonly maxClauseCount: number;
  /** search.max_buckets. */
  readonly maxBuckets: number;
  /** index.max_slices_per_scroll (1024 when not given). */
  readonly maxSlicesPerScroll?: number;
}

export interface ShardSearchTarget {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly nodeId: string;
  /** The shard's position in the request's shard list (ES's shardIndex: merge tie-break, `_shard_doc`). */
  readonly shardIndex: number;
  readonly searcher: Searcher;
  readonly mapping: RootMapping;
  readonly mappingSettings: MappingSettings;
  readonly analysis: AnalysisRegistry;
  readonly settings: ShardSearchSettings;
  /** The node's request circuit breaker (aggregations reserve what they hold on it); absent in unit tests. */
  readonly requestBreaker?: RequestBreaker;
}
