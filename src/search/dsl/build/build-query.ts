/**
 * Query AST -> query plan, kind by kind, as each ES QueryBuilder's doRewrite + doToQuery would: unmapped
 * fields rewrite to match_none, bool/constant_score/boosting collapse around match_none clauses, boosts wrap
 * the result, `_name` marks it. buildTopLevelQuery adds what SearchExecutionContext.toQuery does at the top:
 * pure negative queries get a match_all, and failures become query_shard_exception "failed to create query".
 */
import { EsError, toEsError } from '../../../common/errors.js';
import type {
  BoolQuery,
  ExistsQuery,
  FunctionScoreQuery,
  MatchPhrasePrefixQuery,
  MatchPhraseQuery,
  MatchQuery,
  MultiMatchQuery,
  QueryAst,
} from '../ast/query-ast.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import { queryShardError, type BuildContext } from './build-context.js';
import { fuzzyQuery, prefixQuery, rangeQuery, regexpQuery, termQuery, termsQuery, wildcardQuery } from './field-queries.js';
import { buildFunctions } from './function-score-builder.js';
import { DEFAULT_MATCH_OPTIONS, matchQuery, type MatchOptions } from './match-builder.js';
import { applyMinimumShouldMatch } from './minimum-should-match.js';
import { defaultFieldBoosts, multiMatchQuery, resolveMappingFields } from './multi-match-builder.js';
import { bool, boosted, isMatchAll, isRewrittenMatchNone, MATCH_ALL, matchNone, withRewrite, type PlanClause, type PlanQuery } from './query-plan.js';
import { buildQueryString, buildSimpleQueryString } from './query-string-builder.js';
import { countLeafClauses, exceedsNestedLimit, QueryRewriteFailure, tooManyClauses, tooManyNestedClauses } from './clause-limits.js';
import { simpleMatch } from '../../../common/wildcards.js';

const USER_MATCH_NONE = 'User requested "match_none" query.';

/** AbstractQueryBuilder.toQuery: the query's own part, then its boost and name. Null: nothing to match on. */
export function buildQuery(query: QueryAst, context: BuildContext): PlanQuery | null {
  const built = buildKind(query, context);
  if (built === null) return null;
  const withBoost = boosted(built, query.boost);
  return query.name === undefined ? withBoost : { type: 'named', name: query.name, query: withBoost };
}

/** SearchExecutionContext.toQuery: the query a shard runs, or query_shard_exception. */
export function buildTopLevelQuery(query: QueryAst, context: BuildContext): PlanQuery {
  let built: PlanQuery | null;
  try {
    built = buildQuery(query, context);
  } catch (err) {
    if (err instanceof QueryRewriteFailure) throw err;
    if (err instanceof EsError && (err.type === 'query_shard_exception' || err.type === 'parsing_exception')) throw err;
    const cause = err instanceof EsError ? err : toEsError(err);
    throw queryShardError(context, `failed to create query: ${cause.reason}`, cause);
  }
  if (built === null) return matchNone('No query left after rewrite.');
  // What Lucene's rewrite counts across nesting; the builders that can grow without bound count as they go.
  if (exceedsNestedLimit(countLeafClauses(built, context.maxClauseCount + 1), context.maxClauseCount)) throw tooManyNestedClauses(context.maxClauseCount);
  return fixNegativeQueryIfNeeded(built);
}

/** Queries.fixNegativeQueryIfNeeded: a boolean query of only must_not clauses also needs a match_all. */
export function fixNegativeQueryIfNeeded(query: PlanQuery): PlanQuery {
  if (query.type !== 'bool' || query.clauses.length === 0 || !query.clauses.every((clause) => clause.occur === 'must_not')) return query;
  return { ...query, clauses: [...query.clauses, { occur: 'filter', query: MATCH_ALL }] };
}

function matchOptionsOf(context: BuildContext, query: MatchQuery | MatchPhraseQuery | MatchPhrasePrefixQuery | MultiMatchQuery, queryName: string): MatchOptions {
  let analyzer = undefined;
  if (query.analyzer !== undefined) {
    analyzer = context.analysis.findAnalyzer(query.analyzer);
    if (analyzer === undefined) throw queryShardError(context, `[${queryName}] analyzer [${query.analyzer}] not found`);
  }
  const base: MatchOptions = { ...DEFAULT_MATCH_OPTIONS, ...(analyzer !== undefined && { analyzer }), zeroTermsQuery: query.zeroTermsQuery };
  switch (query.kind) {
    case 'match':
    case 'multi_match':
      return {
        ...base,
        occur: query.operator === 'and' ? 'must' : 'should',
        ...(query.fuzziness !== undefined && { fuzziness: query.fuzziness }),
        ...(query.fuzzyRewrite !== undefined && { fuzzyRewrite: query.fuzzyRewrite }),
        prefixLength: query.prefixLength,
        maxExpansions: query.maxExpansions,
        transpositions: query.fuzzyTranspositions,
        phraseSlop: query.kind === 'multi_match' ? query.slop : 0,
        lenient: query.lenient ?? false,
      };
    case 'match_phrase':
      return { ...base, phraseSlop: query.slop };
    case 'match_phrase_prefix':
      return { ...base, phraseSlop: query.slop, maxExpansions: query.maxExpansions };
  }
}

function buildKind(query: QueryAst, context: BuildContext): PlanQuery | null {
  switch (query.kind) {
    case 'match_all':
      return MATCH_ALL;
    case 'match_none':
      return matchNone(USER_MATCH_NONE, true);
    case 'match': {
      const built = matchQuery(context, 'boolean', query.field, query.query, matchOptionsOf(context, query, 'match'));
      return built === null ? null : applyMinimumShouldMatch(built, query.minimumShouldMatch);
    }
    case 'match_phrase':
      return matchQuery(context, 'phrase', query.field, query.query, matchOptionsOf(context, query, 'match_phrase'));
    case 'match_phrase_prefix':
      return matchQuery(context, 'phrase_prefix', query.field, query.query, matchOptionsOf(context, query, 'match_phrase_prefix'));
    case 'multi_match':
      return buildMultiMatch(query, context);
    case 'term': {
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone(USER_MATCH_NONE, true);
      return termQuery(context, field, query.value, query.caseInsensitive);
    }
    case 'terms': {
      if (query.values.length === 0) return matchNone('The "terms" query was rewritten to a "match_none" query.', true);
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone('The "terms" query is against a field that does not exist', true);
      if (query.values.length > context.maxTermsCount) {
        throw illegalArgument(
          `The number of terms [${query.values.length}] used in the Terms Query request has exceeded the allowed maximum of [${context.maxTermsCount}]. ` +
            'This maximum can be set by changing the [index.max_terms_count] index level setting.',
        );
      }
      return termsQuery(context, field, query.values);
    }
    case 'range': {
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone(USER_MATCH_NONE, true);
      if (query.from === undefined && query.to === undefined) return existsFilter(context, query.field);
      return rangeQuery(context, field, query.from, query.to, query.includeLower, query.includeUpper, query.format, query.timeZone);
    }
    case 'exists':
      return buildExists(query, context);
    case 'prefix': {
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone('The "prefix" query is against a field that does not exist', true);
      if (field.kind === 'metadata' && field.name === '_index') return constantMatch(context.indexName.startsWith(query.value), 'prefix');
      return withRewrite(prefixQuery(context, field, query.value, query.caseInsensitive), query.rewrite);
    }
    case 'wildcard': {
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone('The "wildcard" query was rewritten to a "match_none" query.', true);
      if (field.kind === 'metadata' && field.name === '_index') return constantMatch(simpleMatch(query.value, context.indexName), 'wildcard');
      return withRewrite(wildcardQuery(context, field, query.value, query.caseInsensitive), query.rewrite);
    }
    case 'regexp':
      return withRewrite(
        regexpQuery(context, context.fields.get(query.field) ?? query.field, query.value, query.flags, query.caseInsensitive, query.maxDeterminizedStates),
        query.rewrite,
      );
    case 'fuzzy': {
      const field = context.fields.get(query.field);
      if (field === undefined) return matchNone(USER_MATCH_NONE, true);
      return withRewrite(fuzzyQuery(field, context, query.value, query), query.rewrite);
    }
    case 'ids':
      if (query.values.length === 0) return matchNone('The "ids" query was rewritten to a "match_none" query.', true);
      return { type: 'term_set', field: '_id', terms: query.values };
    case 'bool':
      return buildBool(query, context);
    case 'constant_score': {
      const filter = buildQuery(query.filter, context);
      if (filter === null) return null;
      if (isRewrittenMatchNone(filter)) return filter;
      return { type: 'constant_score', query: filter };
    }
    case 'dis_max': {
      const queries = query.queries.map((inner) => buildQuery(inner, context)).filter((built): built is PlanQuery => built !== null);
      if (queries.length === 0) return matchNone('no clauses for dismax query.');
      return { type: 'dis_max', queries, tieBreaker: query.tieBreaker };
    }
    case 'boosting': {
      const positive = buildQuery(query.positive, context) ?? MATCH_ALL;
      if (isRewrittenMatchNone(positive)) return positive;
      const negative = buildQuery(query.negative, context) ?? matchNone('');
      return { type: 'boosting', positive, negative, negativeBoost: query.negativeBoost };
    }
    case 'function_score':
      return buildFunctionScore(query, context);
    case 'query_string':
      return buildQueryString(query, context);
    case 'simple_query_string':
      return buildSimpleQueryString(query, context);
  }
}

/** A constant field (`_index`) answers pattern queries with match_all or match_none outright. */
function constantMatch(matches: boolean, queryName: string): PlanQuery {
  return matches ? MATCH_ALL : matchNone(`The "${queryName}" query was rewritten to a "match_none" query.`, true);
}

function buildMultiMatch(query: MultiMatchQuery, context: BuildContext): PlanQuery | null {
  const requested = query.fields.length > 0 ? query.fields : defaultFieldBoosts(context);
  const fields = resolveMappingFields(context, requested);
  const isAllField = requested.some((entry) => entry.field === '*');
  const options = matchOptionsOf(context, query, 'multi_match');
  // Querying every field makes the query lenient unless the request said otherwise.
  const lenient = query.lenient ?? isAllField;
  return multiMatchQuery(context, query.type, fields, query.query, {
    ...options,
    lenient,
    ...(query.tieBreaker !== undefined && { tieBreaker: query.tieBreaker }),
    ...(query.minimumShouldMatch !== undefined && { minimumShouldMatch: query.minimumShouldMatch }),
  });
}

/** BoolQueryBuilder.doRewrite + doToQuery. */
function buildBool(query: BoolQuery, context: BuildContext): PlanQuery | null {
  const total = query.must.length + query.mustNot.length + query.filter.length + query.should.length;
  if (total === 0) return MATCH_ALL;
  const build = (queries: readonly QueryAst[]): PlanQuery[] =>
    queries.map((inner) => buildQuery(inner, context)).filter((built): built is PlanQuery => built !== null);
  const must = build(query.must);
  const mustNot = build(query.mustNot);
  const should = build(query.should);
  const filter = build(query.filter);
  const rewrittenToNone = 'The "bool" query was rewritten to a "match_none" query.';
  const onlyShould = query.must.length === 0 && query.filter.length === 0 && query.mustNot.length === 0 && query.should.length > 0;
  if (onlyShould && should.length > 0 && should.every(isRewrittenMatchNone)) return matchNone(rewrittenToNone, true);
  if (must.some(isRewrittenMatchNone) || filter.some(isRewrittenMatchNone) || mustNot.some(isMatchAll)) return matchNone(rewrittenToNone, true);
  // Lucene's BooleanQuery keeps ES's insertion order: must, must_not, should, filter.
  const clauses: PlanClause[] = [
    ...must.map((inner) => ({ occur: 'must' as const, query: inner })),
    ...mustNot.map((inner) => ({ occur: 'must_not' as const, query: inner })),
    ...should.map((inner) => ({ occur: 'should' as const, query: inner })),
    ...filter.map((inner) => ({ occur: 'filter' as const, query: inner })),
  ];
  if (clauses.length > context.maxClauseCount) throw tooManyClauses(context.maxClauseCount);
  if (clauses.length === 0) return MATCH_ALL;
  const built = applyMinimumShouldMatch(bool(clauses), query.minimumShouldMatch);
  return query.adjustPureNegative ? fixNegativeQueryIfNeeded(built) : built;
}

/** ExistsQueryBuilder: one field, an object (any of its fields), or a pattern (any matching field). */
function buildExists(query: ExistsQuery, context: BuildContext): PlanQuery {
  const pattern = query.field;
  const fields = context.fields.isObject(pattern) ? [pattern] : context.fields.matchingFieldNames(pattern);
  if (fields.length === 0) return matchNone('The "exists" query was rewritten to a "match_none" query.', true);
  if (fields.length === 1) return fieldExists(context, fields[0]!);
  return { type: 'constant_score', query: bool(fields.map((field) => ({ occur: 'should' as const, query: fieldExists(context, field) }))) };
}

/** ExistsQueryBuilder.newFieldExistsQuery. */
function fieldExists(context: BuildContext, name: string): PlanQuery {
  const field = context.fields.get(name);
  if (field === undefined) {
    if (!context.fields.isObject(name)) return matchNone(USER_MATCH_NONE);
    const subfields = context.fields.fieldsUnder(name);
    return { type: 'constant_score', query: bool(subfields.map((sub) => ({ occur: 'should' as const, query: existsLeaf(context, sub) }))) };
  }
  return { type: 'constant_score', query: existsLeaf(context, name) };
}

/** MappedFieldType.existsQuery: `_id` and `_index` are on every document. */
function existsLeaf(context: BuildContext, name: string): PlanQuery {
  const field = context.fields.get(name);
  if (field?.kind === 'metadata' && (field.name === '_id' || field.name === '_index')) return MATCH_ALL;
  return { type: 'field_exists', field: name };
}

/** A range without bounds: RangeQueryBuilder turns it into an exists filter. */
function existsFilter(context: BuildContext, field: string): PlanQuery {
  return fieldExists(context, field);
}

function buildFunctionScore(query: FunctionScoreQuery, context: BuildContext): PlanQuery {
  const inner = (query.query === undefined ? MATCH_ALL : buildQuery(query.query, context)) ?? MATCH_ALL;
  return {
    type: 'function_score',
    query: inner,
    functions: buildFunctions(query.functions, context, (ast) => buildQuery(ast, context) ?? MATCH_ALL),
    scoreMode: query.scoreMode,
    boostMode: query.boostMode ?? 'multiply',
    maxBoost: query.maxBoost,
    ...(query.minScore !== undefined && { minScore: query.minScore }),
  };
}
