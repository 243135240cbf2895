/**
 * What building a query needs to know about the index it runs on (ES's SearchExecutionContext, reduced):
 * its name and uuid (for query_shard_exception), its fields, its analyzers, the index settings that bound
 * queries, and a clock (injectable, so `now` in date math is testable).
 */
import type { AnalysisRegistry } from '../../../analysis/index.js';
import { EsError } from '../../../common/errors.js';
import type { FieldLookup } from './field-lookup.js';

export interface BuildContext {
  readonly indexName: string;
  readonly indexUuid: string;
  readonly fields: FieldLookup;
  readonly analysis: AnalysisRegistry;
  /** Milliseconds since the epoch for `now`; fixed per request as ES fixes it per shard request. */
  readonly now: () => number;
  /** indices.query.bool.max_clause_count (ES 8 derives it from the heap, at least 1024). */
  readonly maxClauseCount: number;
  /** index.max_terms_count. */
  readonly maxTermsCount: number;
  /** index.max_regex_length. */
  readonly maxRegexLength: number;
  /** index.query.default_field. */
  readonly defaultFields: readonly string[];
  /** index.query_string.lenient. */
  readonly queryStringLenient: boolean;
  /**
   * Queries built ahead in slices (or their failure), by AST node: a search phase fills it before the build so
   * a costly builder (a 50,000-term simple_query_string) does not hold the event loop (shard-query.ts).
   */
  readonly prebuilt?: Map<object, unknown>;
}

export interface BuildContextOptions {
  readonly indexName?: string;
  readonly indexUuid?: string;
  readonly fields: FieldLookup;
  readonly analysis: AnalysisRegistry;
  readonly now?: () => number;
  readonly maxClauseCount?: number;
  readonly maxTermsCount?: number;
  readonly maxRegexLength?: number;
  readonly defaultFields?: readonly string[];
  readonly queryStringLenient?: boolean;
}

export const DEFAULT_MAX_CLAUSE_COUNT = 4096;
export const DEFAULT_MAX_TERMS_COUNT = 65536;
export const DEFAULT_MAX_REGEX_LENGTH = 1000;

export function buildContext(options: BuildContextOptions): BuildContext {
  // `now` is read once: every date math expression of one request sees the same instant.
  let nowMillis: number | undefined;
  const clock = options.now ?? Date.now;
  return {
    indexName: options.indexName ?? '_na_',
    indexUuid: options.indexUuid ?? '_na_',
    fields: options.fields,
    analysis: options.analysis,
    now: () => (nowMillis ??= clock()),
    maxClauseCount: options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT,
    maxTermsCount: options.maxTermsCount ?? DEFAULT_MAX_TERMS_COUNT,
    maxRegexLength: options.maxRegexLength ?? DEFAULT_MAX_REGEX_LENGTH,
    defaultFields: options.defaultFields ?? ['*'],
    queryStringLenient: options.queryStringLenient ?? false,
    prebuilt: new Map(),
  };
}

/** QueryShardException: a failure to build a query on a shard, located at its index. */
export function queryShardError(context: BuildContext, reason: string, causedBy?: EsError): EsError {
  return new EsError('query_shard_exception', reason, { metadata: { index_uuid: context.indexUuid, index: context.indexName }, causedBy });
}
