/**
 * search/dsl/: Elasticsearch's query DSL and `_search` request body in, Gannet's own objects out.
 *
 *   ES JSON --parse--> QueryAst / SearchRequest --build (mapping, analyzers)--> PlanQuery --toExecutionQuery--> core Query
 *
 * Parsing needs no index and fails with ES's parsing_exception / x_content_parse_exception /
 * illegal_argument_exception (with line/col) before any shard is asked. Building needs one index's fields
 * and analyzers and fails with query_shard_exception as a shard would. Nothing below this folder sees ES JSON.
 */

// the AST
export type * from './ast/query-ast.js';
export { DEFAULTS, QUERY_KINDS } from './ast/query-ast.js';
export { serializeQuery, toJsonText } from './ast/serialize-query.js';

// parsing
export { parseQuery } from './parse/parse-query.js';
export { parseTopLevelQuery, type TopLevelQueryOptions } from './parse/inner-query.js';
export { DEFAULT_MAX_NESTED_DEPTH } from './parse/parse-context.js';
export { XContentParser } from './xcontent/xcontent-parser.js';

// the search request
export type { FieldAndFormat, SearchRequest, SliceSpec, SortMode, SortOrder, SortSpec, SourceFilter, StoredFields } from './request/search-request.js';
export {
  DEFAULT_FROM,
  DEFAULT_SIZE,
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
  effectiveFrom,
  effectiveSize,
  effectiveTrackTotalHitsUpTo,
} from './request/search-request.js';
export { parseSearchRequest, type SearchRequestInput } from './request/parse-search-request.js';
export { parseSearchBody, type SearchBodyOptions } from './request/parse-search-body.js';
export { applyUrlParameters, urlQuery, SEARCH_URL_PARAMETERS, type UrlParams } from './request/url-params.js';
export {
  checkDocValueFieldsLimit,
  checkResultWindow,
  validateSearchRequest,
  DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH,
  DEFAULT_MAX_RESULT_WINDOW,
} from './request/request-limits.js';

// building
export { FieldLookup, type MappedField } from './build/field-lookup.js';
export { buildContext, queryShardError, type BuildContext, type BuildContextOptions } from './build/build-context.js';
export { buildQuery, buildTopLevelQuery } from './build/build-query.js';
export type { Occur, PlanClause, PlanQuery, PlanScoreFunction, PlanType, PositionedTerm } from './build/query-plan.js';
export { childPlans } from './build/query-plan.js';
export { planToString } from './build/plan-string.js';
export { toExecutionQuery, UNSUPPORTED_PLAN_TYPES } from './build/to-execution.js';
export { calculateMinShouldMatch } from './build/minimum-should-match.js';
export { calculateMaxClauseCount } from './build/clause-limits.js';
export { prebuildSimpleQueryStringQuery } from './build/simple-query-string-builder.js';
