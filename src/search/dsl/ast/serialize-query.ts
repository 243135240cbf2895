/**
 * The query AST back to Elasticsearch's JSON (each QueryBuilder's doXContent shape, every option spelled
 * out), so a parsed query can be shown in `explain`/profile output and logs, and so that
 * parse(serialize(ast)) == ast holds (a property test checks it).
 */
import { fuzzinessToString } from '../parse/common-params.js';
import type { FieldBoost, FilterFunction, JsonValue, QueryAst, ScoreFunction } from './query-ast.js';

type JsonObject = { [key: string]: JsonValue };

function withCommon(body: JsonObject, query: { boost: number; name?: string }): JsonObject {
  body['boost'] = query.boost;
  if (query.name !== undefined) body['_name'] = query.name;
  return body;
}

function optional(body: JsonObject, key: string, value: JsonValue | undefined): void {
  if (value !== undefined) body[key] = value;
}

function fieldList(fields: readonly FieldBoost[]): JsonValue[] {
  return fields.map((entry) => `${entry.field}^${entry.boost}`);
}

function singleField(field: string, body: JsonValue): JsonObject {
  const out: JsonObject = {};
  Object.defineProperty(out, field, { value: body, enumerable: true, writable: true, configurable: true });
  return out;
}

export function serializeQuery(query: QueryAst): JsonObject {
  switch (query.kind) {
    case 'match_all':
    case 'match_none':
      return { [query.kind]: withCommon({}, query) };
    case 'match': {
      const body: JsonObject = { query: query.query, operator: query.operator.toUpperCase() };
      optional(body, 'analyzer', query.analyzer);
      if (query.fuzziness !== undefined) body['fuzziness'] = fuzzinessToString(query.fuzziness);
      body['prefix_length'] = query.prefixLength;
      body['max_expansions'] = query.maxExpansions;
      optional(body, 'minimum_should_match', query.minimumShouldMatch);
      optional(body, 'fuzzy_rewrite', query.fuzzyRewrite);
      body['fuzzy_transpositions'] = query.fuzzyTranspositions;
      body['lenient'] = query.lenient;
      body['zero_terms_query'] = query.zeroTermsQuery.toUpperCase();
      body['auto_generate_synonyms_phrase_query'] = query.autoGenerateSynonymsPhraseQuery;
      return { match: singleField(query.field, withCommon(body, query)) };
    }
    case 'match_phrase':
    case 'match_phrase_prefix': {
      const body: JsonObject = { query: query.query };
      optional(body, 'analyzer', query.analyzer);
      body['slop'] = query.slop;
      if (query.kind === 'match_phrase_prefix') body['max_expansions'] = query.maxExpansions;
      body['zero_terms_query'] = query.zeroTermsQuery.toUpperCase();
      return { [query.kind]: singleField(query.field, withCommon(body, query)) };
    }
    case 'multi_match': {
      const body: JsonObject = { query: query.query, fields: fieldList(query.fields), type: query.type, operator: query.operator.toUpperCase() };
      optional(body, 'analyzer', query.analyzer);
      body['slop'] = query.slop;
      if (query.fuzziness !== undefined) body['fuzziness'] = fuzzinessToString(query.fuzziness);
      body['prefix_length'] = query.prefixLength;
      body['max_expansions'] = query.maxExpansions;
      optional(body, 'minimum_should_match', query.minimumShouldMatch);
      optional(body, 'fuzzy_rewrite', query.fuzzyRewrite);
      optional(body, 'tie_breaker', query.tieBreaker);
      optional(body, 'lenient', query.lenient);
      body['zero_terms_query'] = query.zeroTermsQuery.toUpperCase();
      body['auto_generate_synonyms_phrase_query'] = query.autoGenerateSynonymsPhraseQuery;
      body['fuzzy_transpositions'] = query.fuzzyTranspositions;
      return { multi_match: withCommon(body, query) };
    }
    case 'term': {
      const body: JsonObject = { value: query.value };
      if (query.caseInsensitive) body['case_insensitive'] = true;
      return { term: singleField(query.field, withCommon(body, query)) };
    }
    case 'terms':
      return { terms: withCommon(singleField(query.field, [...query.values]), query) };
    case 'range': {
      const body: JsonObject = {};
      optional(body, 'from', query.from);
      optional(body, 'to', query.to);
      body['include_lower'] = query.includeLower;
      body['include_upper'] = query.includeUpper;
      optional(body, 'time_zone', query.timeZone);
      optional(body, 'format', query.format);
      optional(body, 'relation', query.relation);
      return { range: singleField(query.field, withCommon(body, query)) };
    }
    case 'exists':
      return { exists: withCommon({ field: query.field }, query) };
    case 'prefix':
    case 'wildcard': {
      const body: JsonObject = { value: query.value };
      optional(body, 'rewrite', query.rewrite);
      if (query.caseInsensitive) body['case_insensitive'] = true;
      return { [query.kind]: singleField(query.field, withCommon(body, query)) };
    }
    case 'regexp': {
      const body: JsonObject = { value: query.value, flags_value: query.flags, max_determinized_states: query.maxDeterminizedStates };
      optional(body, 'rewrite', query.rewrite);
      if (query.caseInsensitive) body['case_insensitive'] = true;
      return { regexp: singleField(query.field, withCommon(body, query)) };
    }
    case 'fuzzy': {
      const body: JsonObject = {
        value: query.value,
        fuzziness: fuzzinessToString(query.fuzziness),
        prefix_length: query.prefixLength,
        max_expansions: query.maxExpansions,
        transpositions: query.transpositions,
      };
      optional(body, 'rewrite', query.rewrite);
      return { fuzzy: singleField(query.field, withCommon(body, query)) };
    }
    case 'ids':
      return { ids: withCommon({ values: [...query.values] }, query) };
    case 'bool': {
      const body: JsonObject = {};
      if (query.must.length > 0) body['must'] = query.must.map(serializeQuery);
      if (query.filter.length > 0) body['filter'] = query.filter.map(serializeQuery);
      if (query.mustNot.length > 0) body['must_not'] = query.mustNot.map(serializeQuery);
      if (query.should.length > 0) body['should'] = query.should.map(serializeQuery);
      if (!query.adjustPureNegative) body['adjust_pure_negative'] = false;
      optional(body, 'minimum_should_match', query.minimumShouldMatch);
      return { bool: withCommon(body, query) };
    }
    case 'constant_score':
      return { constant_score: withCommon({ filter: serializeQuery(query.filter) }, query) };
    case 'dis_max':
      return { dis_max: withCommon({ tie_breaker: query.tieBreaker, queries: query.queries.map(serializeQuery) }, query) };
    case 'boosting':
      return {
        boosting: withCommon({ positive: serializeQuery(query.positive), negative: serializeQuery(query.negative), negative_boost: query.negativeBoost }, query),
      };
    case 'function_score': {
      const body: JsonObject = {};
      if (query.query !== undefined) body['query'] = serializeQuery(query.query);
      body['functions'] = query.functions.map(serializeFilterFunction);
      body['score_mode'] = query.scoreMode;
      optional(body, 'boost_mode', query.boostMode);
      body['max_boost'] = query.maxBoost;
      optional(body, 'min_score', query.minScore);
      return { function_score: withCommon(body, query) };
    }
    case 'query_string': {
      const body: JsonObject = { query: query.query };
      optional(body, 'default_field', query.defaultField);
      if (query.fields !== undefined) body['fields'] = fieldList(query.fields);
      body['type'] = query.type;
      optional(body, 'tie_breaker', query.tieBreaker);
      body['default_operator'] = query.defaultOperator.toUpperCase();
      optional(body, 'analyzer', query.analyzer);
      optional(body, 'quote_analyzer', query.quoteAnalyzer);
      optional(body, 'quote_field_suffix', query.quoteFieldSuffix);
      optional(body, 'allow_leading_wildcard', query.allowLeadingWildcard);
      optional(body, 'analyze_wildcard', query.analyzeWildcard);
      body['max_determinized_states'] = query.maxDeterminizedStates;
      body['enable_position_increments'] = query.enablePositionIncrements;
      body['fuzziness'] = fuzzinessToString(query.fuzziness);
      body['fuzzy_prefix_length'] = query.fuzzyPrefixLength;
      body['fuzzy_max_expansions'] = query.fuzzyMaxExpansions;
      optional(body, 'fuzzy_rewrite', query.fuzzyRewrite);
      body['phrase_slop'] = query.phraseSlop;
      optional(body, 'rewrite', query.rewrite);
      optional(body, 'minimum_should_match', query.minimumShouldMatch);
      optional(body, 'lenient', query.lenient);
      optional(body, 'time_zone', query.timeZone);
      body['escape'] = query.escape;
      body['auto_generate_synonyms_phrase_query'] = query.autoGenerateSynonymsPhraseQuery;
      body['fuzzy_transpositions'] = query.fuzzyTranspositions;
      return { query_string: withCommon(body, query) };
    }
    case 'simple_query_string': {
      const body: JsonObject = { query: query.query };
      if (query.fields.length > 0) body['fields'] = fieldList(query.fields);
      optional(body, 'analyzer', query.analyzer);
      body['flags'] = query.flags;
      body['default_operator'] = query.defaultOperator;
      optional(body, 'lenient', query.lenient);
      body['analyze_wildcard'] = query.analyzeWildcard;
      optional(body, 'quote_field_suffix', query.quoteFieldSuffix);
      optional(body, 'minimum_should_match', query.minimumShouldMatch);
      body['fuzzy_prefix_length'] = query.fuzzyPrefixLength;
      body['fuzzy_max_expansions'] = query.fuzzyMaxExpansions;
      body['fuzzy_transpositions'] = query.fuzzyTranspositions;
      body['auto_generate_synonyms_phrase_query'] = query.autoGenerateSynonymsPhraseQuery;
      return { simple_query_string: withCommon(body, query) };
    }
  }
}

function serializeFilterFunction(entry: FilterFunction): JsonObject {
  const out: JsonObject = {};
  if (entry.filter !== undefined) out['filter'] = serializeQuery(entry.filter);
  Object.assign(out, serializeScoreFunction(entry.function));
  optional(out, 'weight', entry.weight);
  return out;
}

function serializeScoreFunction(fn: ScoreFunction): JsonObject {
  switch (fn.type) {
    case 'weight':
      return {};
    case 'field_value_factor': {
      const body: JsonObject = { field: fn.field, factor: fn.factor, modifier: fn.modifier };
      optional(body, 'missing', fn.missing);
      return { field_value_factor: body };
    }
    case 'decay': {
      const body = singleField(fn.field, { ...fn.params });
      body['multi_value_mode'] = fn.multiValueMode.toUpperCase();
      return { [fn.shape]: body };
    }
  }
}

/** JSON text of a serialized query; exact integers (bigint) are written as JSON numbers. */
export function toJsonText(value: JsonValue): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? { $bigint: item.toString() } : item)).replace(
    /\{"\$bigint":"(-?\d+)"\}/g,
    '$1',
  );
}
