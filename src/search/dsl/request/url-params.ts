/**
 * The `_search` URL parameters that override or extend the body (RestSearchAction.parseSearchSource and
 * RestActions.urlParamsToQueryBuilder): `q` becomes a query_string query, `from`/`size`/... replace the
 * body's values, `sort` entries are appended after the body's sorts, as ES does.
 */
import { EsError } from '../../../common/errors.js';
import { parseTimeValueMillis } from '../../../common/time-value.js';
import type { QueryStringQuery } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { javaParseInt, javaSplit, readOperator } from '../parse/common-params.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import { storedFieldsFromList } from './parse-fetch.js';
import { isBooleanText, setters, type SearchRequestDraft } from './parse-search-body.js';
import { fieldOrScoreSort } from './parse-sort.js';

/** What the parameter parsing needs of a request (RestRequest satisfies it). */
export interface UrlParams {
  param(name: string): string | undefined;
}

/** The parameters read here, for a route's declared-parameter list. */
export const SEARCH_URL_PARAMETERS: readonly string[] = [
  'q', 'df', 'analyzer', 'analyze_wildcard', 'lenient', 'default_operator', 'from', 'size', 'explain', 'version',
  'seq_no_primary_term', 'timeout', 'terminate_after', 'stored_fields', 'docvalue_fields', '_source', '_source_includes',
  '_source_excludes', 'track_scores', 'track_total_hits', 'sort', 'stats',
];

/** RestRequest.paramAsInt. */
function paramAsInt(params: UrlParams, name: string): number | undefined {
  const value = params.param(name);
  if (value === undefined) return undefined;
  const parsed = javaParseInt(value);
  if (parsed === undefined) {
    throw illegalArgument(`Failed to parse int parameter [${name}] with value [${value}]`, new EsError('number_format_exception', `For input string: "${value}"`));
  }
  return parsed;
}

/** RestRequest.paramAsBoolean: present and empty means true; otherwise only "true"/"false". */
function paramAsBoolean(params: UrlParams, name: string): boolean | undefined {
  const value = params.param(name);
  if (value === undefined) return undefined;
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** Strings.splitStringByCommaToArray. */
function commaList(value: string): string[] {
  return value.length === 0 ? [] : javaSplit(value, ',');
}

/** RestActions.urlParamsToQueryBuilder: `q` with its companions, or undefined without `q`. */
export function urlQuery(params: UrlParams): QueryStringQuery | undefined {
  const q = params.param('q');
  if (q === undefined) return undefined;
  const defaultField = params.param('df');
  const analyzer = params.param('analyzer');
  const lenient = paramAsBoolean(params, 'lenient');
  const defaultOperator = params.param('default_operator');
  return {
    kind: 'query_string',
    query: q,
    ...(defaultField !== undefined && { defaultField }),
    defaultOperator: defaultOperator === undefined ? 'or' : readOperator(defaultOperator),
    ...(analyzer !== undefined && { analyzer }),
    analyzeWildcard: paramAsBoolean(params, 'analyze_wildcard') ?? false,
    enablePositionIncrements: true,
    escape: false,
    fuzziness: DEFAULTS.autoFuzziness,
    fuzzyPrefixLength: DEFAULTS.prefixLength,
    fuzzyMaxExpansions: DEFAULTS.maxExpansions,
    fuzzyTranspositions: DEFAULTS.fuzzyTranspositions,
    phraseSlop: DEFAULTS.slop,
    type: 'best_fields',
    ...(lenient !== undefined && { lenient }),
    maxDeterminizedStates: DEFAULTS.maxDeterminizedStates,
    autoGenerateSynonymsPhraseQuery: true,
    boost: DEFAULTS.boost,
  };
}

/** Applies the URL parameters on top of a parsed body (or an empty draft when there is none). */
export function applyUrlParameters(draft: SearchRequestDraft, params: UrlParams): SearchRequestDraft {
  const query = urlQuery(params);
  if (query !== undefined) draft.query = query;
  const from = paramAsInt(params, 'from');
  if (from !== undefined) setters.from(draft, from);
  const size = paramAsInt(params, 'size');
  if (size !== undefined) setters.size(draft, size);
  const explain = paramAsBoolean(params, 'explain');
  if (explain !== undefined) draft.explain = explain;
  const version = paramAsBoolean(params, 'version');
  if (version !== undefined) draft.version = version;
  const seqNoPrimaryTerm = paramAsBoolean(params, 'seq_no_primary_term');
  if (seqNoPrimaryTerm !== undefined) draft.seqNoPrimaryTerm = seqNoPrimaryTerm;
  const timeout = params.param('timeout');
  if (timeout !== undefined) draft.timeoutMillis = parseTimeValueMillis(timeout, 'timeout');
  const terminateAfter = paramAsInt(params, 'terminate_after');
  if (terminateAfter !== undefined) setters.terminateAfter(draft, terminateAfter);
  const storedFields = params.param('stored_fields');
  if (storedFields !== undefined) draft.storedFields = storedFieldsFromList(commaList(storedFields));
  const docvalueFields = params.param('docvalue_fields');
  if (docvalueFields !== undefined && docvalueFields.trim().length > 0) {
    draft.docvalueFields ??= [];
    for (const field of commaList(docvalueFields)) draft.docvalueFields.push({ field });
  }
  applySourceParameters(draft, params);
  const trackScores = paramAsBoolean(params, 'track_scores');
  if (trackScores !== undefined) draft.trackScores = trackScores;
  const trackTotalHits = params.param('track_total_hits');
  if (trackTotalHits !== undefined) {
    if (isBooleanText(trackTotalHits)) setters.trackTotalHits(draft, trackTotalHits === 'true');
    else setters.trackTotalHitsUpTo(draft, paramAsInt(params, 'track_total_hits')!);
  }
  const sort = params.param('sort');
  if (sort !== undefined) {
    for (const entry of commaList(sort)) {
      const delimiter = entry.lastIndexOf(':');
      if (delimiter < 0) {
        setters.sort(draft, fieldOrScoreSort(entry));
        continue;
      }
      const direction = entry.slice(delimiter + 1);
      // ES ignores an entry whose direction is neither asc nor desc.
      if (direction === 'asc' || direction === 'desc') setters.sort(draft, fieldOrScoreSort(entry.slice(0, delimiter), direction));
    }
  }
  const stats = params.param('stats');
  if (stats !== undefined) draft.stats = commaList(stats);
  return draft;
}

/** FetchSourceContext.parseFromRestRequest: `_source`, `_source_includes`, `_source_excludes`. */
function applySourceParameters(draft: SearchRequestDraft, params: UrlParams): void {
  let fetch: boolean | undefined;
  let includes: string[] | undefined;
  let excludes: string[] | undefined;
  const source = params.param('_source');
  if (source !== undefined) {
    if (source === 'true') fetch = true;
    else if (source === 'false') fetch = false;
    else includes = commaList(source);
  }
  const sourceIncludes = params.param('_source_includes');
  if (sourceIncludes !== undefined) includes = commaList(sourceIncludes);
  const sourceExcludes = params.param('_source_excludes');
  if (sourceExcludes !== undefined) excludes = commaList(sourceExcludes);
  if (fetch !== undefined || includes !== undefined || excludes !== undefined) {
    draft.source = { fetch: fetch ?? true, includes: includes ?? [], excludes: excludes ?? [] };
  }
}
