import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery, type QueryAst } from '../../../../src/search/dsl/index.js';

const AUTO = { kind: 'auto', low: 3, high: 6 } as const;

const MATCH_DEFAULTS = {
  operator: 'or',
  prefixLength: 0,
  maxExpansions: 50,
  fuzzyTranspositions: true,
  lenient: false,
  zeroTermsQuery: 'none',
  autoGenerateSynonymsPhraseQuery: true,
  boost: 1,
} as const;

/** Every query kind, short and long forms, to the AST ES's builder would hold. */
const CASES: Array<[string, QueryAst]> = [
  ['{"match_all":{}}', { kind: 'match_all', boost: 1 }],
  ['{"match_all":{"boost":1.5,"_name":"all"}}', { kind: 'match_all', boost: 1.5, name: 'all' }],
  ['{"match_none":{}}', { kind: 'match_none', boost: 1 }],
  ['{"match":{"title":"quick fox"}}', { kind: 'match', field: 'title', query: 'quick fox', ...MATCH_DEFAULTS }],
  ['{"match":{"age":42}}', { kind: 'match', field: 'age', query: 42, ...MATCH_DEFAULTS }],
  [
    '{"match":{"title":{"query":"quick fox","operator":"AND","minimum_should_match":"75%","fuzziness":"AUTO:2,5","prefix_length":1,' +
      '"max_expansions":10,"fuzzy_transpositions":false,"fuzzy_rewrite":"top_terms_5","lenient":true,"zero_terms_query":"ALL",' +
      '"analyzer":"standard","auto_generate_synonyms_phrase_query":false,"boost":"2","_name":"m"}}}',
    {
      kind: 'match',
      field: 'title',
      query: 'quick fox',
      operator: 'and',
      analyzer: 'standard',
      fuzziness: { kind: 'auto', low: 2, high: 5 },
      prefixLength: 1,
      maxExpansions: 10,
      fuzzyTranspositions: false,
      fuzzyRewrite: 'top_terms_5',
      minimumShouldMatch: '75%',
      lenient: true,
      zeroTermsQuery: 'all',
      autoGenerateSynonymsPhraseQuery: false,
      boost: 2,
      name: 'm',
    },
  ],
  ['{"match":{"title":{"query":"x","fuzziness":1}}}', { kind: 'match', field: 'title', query: 'x', ...MATCH_DEFAULTS, fuzziness: { kind: 'edits', edits: 1 } }],
  ['{"match_phrase":{"title":"quick fox"}}', { kind: 'match_phrase', field: 'title', query: 'quick fox', slop: 0, zeroTermsQuery: 'none', boost: 1 }],
  [
    '{"match_phrase":{"title":{"query":"quick fox","slop":2,"analyzer":"simple","zero_terms_query":"all","_name":"p"}}}',
    { kind: 'match_phrase', field: 'title', query: 'quick fox', analyzer: 'simple', slop: 2, zeroTermsQuery: 'all', boost: 1, name: 'p' },
  ],
  [
    '{"match_phrase_prefix":{"title":{"query":"quick f","max_expansions":5}}}',
    { kind: 'match_phrase_prefix', field: 'title', query: 'quick f', slop: 0, maxExpansions: 5, zeroTermsQuery: 'none', boost: 1 },
  ],
  [
    '{"match_phrase_prefix":{"title":"quick f"}}',
    { kind: 'match_phrase_prefix', field: 'title', query: 'quick f', slop: 0, maxExpansions: 50, zeroTermsQuery: 'none', boost: 1 },
  ],
  [
    '{"multi_match":{"query":"quick","fields":["title^2","body","t*"],"type":"most_fields","tie_breaker":0.3}}',
    {
      kind: 'multi_match',
      query: 'quick',
      fields: [
        { field: 'title', boost: 2 },
        { field: 'body', boost: 1 },
        { field: 't*', boost: 1 },
      ],
      type: 'most_fields',
      operator: 'or',
      slop: 0,
      prefixLength: 0,
      maxExpansions: 50,
      fuzzyTranspositions: true,
      tieBreaker: Math.fround(0.3),
      zeroTermsQuery: 'none',
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
  ],
  [
    '{"multi_match":{"query":"q","fields":"title","type":"boolean","lenient":false}}',
    {
      kind: 'multi_match',
      query: 'q',
      fields: [{ field: 'title', boost: 1 }],
      type: 'best_fields',
      operator: 'or',
      slop: 0,
      prefixLength: 0,
      maxExpansions: 50,
      fuzzyTranspositions: true,
      lenient: false,
      zeroTermsQuery: 'none',
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
  ],
  ['{"term":{"tag":"A"}}', { kind: 'term', field: 'tag', value: 'A', caseInsensitive: false, boost: 1 }],
  ['{"term":{"tag":{"value":"A","case_insensitive":true,"boost":3}}}', { kind: 'term', field: 'tag', value: 'A', caseInsensitive: true, boost: 3 }],
  ['{"term":{"count":12345678901234567890}}', { kind: 'term', field: 'count', value: 12345678901234567890n, caseInsensitive: false, boost: 1 }],
  ['{"term":{"flag":true}}', { kind: 'term', field: 'flag', value: true, caseInsensitive: false, boost: 1 }],
  ['{"terms":{"tag":["a","b",3],"boost":2}}', { kind: 'terms', field: 'tag', values: ['a', 'b', 3], boost: 2 }],
  [
    '{"range":{"age":{"gte":10,"lt":"20","boost":2}}}',
    { kind: 'range', field: 'age', from: 10, to: '20', includeLower: true, includeUpper: false, boost: 2 },
  ],
  [
    '{"range":{"date":{"from":"now-1d/d","to":"now","include_lower":false,"format":"yyyy-MM-dd||epoch_millis","time_zone":"+01:00","relation":"WITHIN"}}}',
    {
      kind: 'range',
      field: 'date',
      from: 'now-1d/d',
      to: 'now',
      includeLower: false,
      includeUpper: true,
      format: 'yyyy-MM-dd||epoch_millis',
      timeZone: '+01:00',
      relation: 'within',
      boost: 1,
    },
  ],
  ['{"range":{"age":{"gt":null}}}', { kind: 'range', field: 'age', includeLower: false, includeUpper: true, boost: 1 }],
  ['{"exists":{"field":"title"}}', { kind: 'exists', field: 'title', boost: 1 }],
  ['{"prefix":{"tag":"ab"}}', { kind: 'prefix', field: 'tag', value: 'ab', caseInsensitive: false, boost: 1 }],
  [
    '{"prefix":{"tag":{"value":"ab","rewrite":"constant_score","case_insensitive":true}}}',
    { kind: 'prefix', field: 'tag', value: 'ab', rewrite: 'constant_score', caseInsensitive: true, boost: 1 },
  ],
  ['{"wildcard":{"tag":"a*b?"}}', { kind: 'wildcard', field: 'tag', value: 'a*b?', caseInsensitive: false, boost: 1 }],
  ['{"wildcard":{"tag":{"wildcard":"a*"}}}', { kind: 'wildcard', field: 'tag', value: 'a*', caseInsensitive: false, boost: 1 }],
  ['{"regexp":{"tag":"a.*"}}', { kind: 'regexp', field: 'tag', value: 'a.*', flags: 0xff, maxDeterminizedStates: 10000, caseInsensitive: false, boost: 1 }],
  [
    '{"regexp":{"tag":{"value":"a.*","flags":"INTERSECTION|complement","max_determinized_states":500}}}',
    { kind: 'regexp', field: 'tag', value: 'a.*', flags: 0x03, maxDeterminizedStates: 500, caseInsensitive: false, boost: 1 },
  ],
  ['{"regexp":{"tag":{"value":"a","flags":"NONE"}}}', { kind: 'regexp', field: 'tag', value: 'a', flags: 0, maxDeterminizedStates: 10000, caseInsensitive: false, boost: 1 }],
  [
    '{"fuzzy":{"title":"quikc"}}',
    { kind: 'fuzzy', field: 'title', value: 'quikc', fuzziness: AUTO, prefixLength: 0, maxExpansions: 50, transpositions: true, boost: 1 },
  ],
  [
    '{"fuzzy":{"title":{"value":"quikc","fuzziness":2,"prefix_length":1,"max_expansions":3,"transpositions":false}}}',
    { kind: 'fuzzy', field: 'title', value: 'quikc', fuzziness: { kind: 'edits', edits: 2 }, prefixLength: 1, maxExpansions: 3, transpositions: false, boost: 1 },
  ],
  ['{"ids":{"values":["1","2","1"]}}', { kind: 'ids', values: ['1', '2'], boost: 1 }],
  ['{"ids":{"values":"7"}}', { kind: 'ids', values: ['7'], boost: 1 }],
  [
    '{"bool":{"must":{"term":{"a":"1"}},"should":[{"term":{"b":"2"}},{"term":{"c":"3"}}],"filter":null,"must_not":[],"minimum_should_match":1,"boost":2}}',
    {
      kind: 'bool',
      must: [{ kind: 'term', field: 'a', value: '1', caseInsensitive: false, boost: 1 }],
      filter: [],
      should: [
        { kind: 'term', field: 'b', value: '2', caseInsensitive: false, boost: 1 },
        { kind: 'term', field: 'c', value: '3', caseInsensitive: false, boost: 1 },
      ],
      mustNot: [],
      minimumShouldMatch: '1',
      adjustPureNegative: true,
      boost: 2,
    },
  ],
  ['{"bool":{}}', { kind: 'bool', must: [], filter: [], should: [], mustNot: [], adjustPureNegative: true, boost: 1 }],
  [
    '{"constant_score":{"filter":{"term":{"a":"1"}},"boost":1.2}}',
    { kind: 'constant_score', filter: { kind: 'term', field: 'a', value: '1', caseInsensitive: false, boost: 1 }, boost: Math.fround(1.2) },
  ],
  [
    '{"dis_max":{"queries":[{"match_all":{}},{"match_none":{}}],"tie_breaker":0.7}}',
    { kind: 'dis_max', queries: [{ kind: 'match_all', boost: 1 }, { kind: 'match_none', boost: 1 }], tieBreaker: Math.fround(0.7), boost: 1 },
  ],
  ['{"dis_max":{"queries":{"match_all":{}}}}', { kind: 'dis_max', queries: [{ kind: 'match_all', boost: 1 }], tieBreaker: 0, boost: 1 }],
  [
    '{"boosting":{"positive":{"match_all":{}},"negative":{"term":{"a":"1"}},"negative_boost":0.5}}',
    {
      kind: 'boosting',
      positive: { kind: 'match_all', boost: 1 },
      negative: { kind: 'term', field: 'a', value: '1', caseInsensitive: false, boost: 1 },
      negativeBoost: 0.5,
      boost: 1,
    },
  ],
  [
    '{"function_score":{"query":{"match_all":{}},"field_value_factor":{"field":"likes","factor":1.2,"modifier":"sqrt","missing":1},"boost_mode":"sum","max_boost":10,"min_score":0.5}}',
    {
      kind: 'function_score',
      query: { kind: 'match_all', boost: 1 },
      functions: [{ function: { type: 'field_value_factor', field: 'likes', factor: Math.fround(1.2), modifier: 'sqrt', missing: 1 } }],
      scoreMode: 'multiply',
      boostMode: 'sum',
      maxBoost: 10,
      minScore: 0.5,
      boost: 1,
    },
  ],
  [
    '{"function_score":{"functions":[{"filter":{"term":{"a":"1"}},"weight":3},{"gauss":{"date":{"origin":"now","scale":"10d"},"multi_value_mode":"MAX"},"weight":2}],"score_mode":"sum"}}',
    {
      kind: 'function_score',
      functions: [
        { filter: { kind: 'term', field: 'a', value: '1', caseInsensitive: false, boost: 1 }, function: { type: 'weight' }, weight: 3 },
        { function: { type: 'decay', shape: 'gauss', field: 'date', params: { origin: 'now', scale: '10d' }, multiValueMode: 'max' }, weight: 2 },
      ],
      scoreMode: 'sum',
      maxBoost: Math.fround(3.4028234663852886e38),
      boost: 1,
    },
  ],
  [
    '{"function_score":{"weight":2}}',
    { kind: 'function_score', functions: [{ function: { type: 'weight' }, weight: 2 }], scoreMode: 'multiply', maxBoost: Math.fround(3.4028234663852886e38), boost: 1 },
  ],
  [
    '{"query_string":{"query":"a AND b","fields":["title^3","body"],"default_operator":"and","phrase_slop":1,"lenient":true,"time_zone":"Europe/Paris"}}',
    {
      kind: 'query_string',
      query: 'a AND b',
      fields: [
        { field: 'title', boost: 3 },
        { field: 'body', boost: 1 },
      ],
      defaultOperator: 'and',
      enablePositionIncrements: true,
      escape: false,
      fuzziness: AUTO,
      fuzzyPrefixLength: 0,
      fuzzyMaxExpansions: 50,
      fuzzyTranspositions: true,
      phraseSlop: 1,
      type: 'best_fields',
      lenient: true,
      timeZone: 'Europe/Paris',
      maxDeterminizedStates: 10000,
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
  ],
  [
    '{"simple_query_string":{"query":"a + b","fields":["title"],"flags":"AND|PREFIX","default_operator":"AND","analyze_wildcard":true}}',
    {
      kind: 'simple_query_string',
      query: 'a + b',
      fields: [{ field: 'title', boost: 1 }],
      defaultOperator: 'and',
      flags: 1 | 8,
      analyzeWildcard: true,
      fuzzyPrefixLength: 0,
      fuzzyMaxExpansions: 50,
      fuzzyTranspositions: true,
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
  ],
  [
    '{"simple_query_string":{"query":"x","flags":-5}}',
    {
      kind: 'simple_query_string',
      query: 'x',
      fields: [],
      defaultOperator: 'or',
      flags: -1,
      analyzeWildcard: false,
      fuzzyPrefixLength: 0,
      fuzzyMaxExpansions: 50,
      fuzzyTranspositions: true,
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
  ],
];

for (const [json, expected] of CASES) {
  test(`parses ${json}`, () => {
    assert.deepEqual(parseQuery(json), expected);
  });
}

test('the short and long forms of a term query are the same query', () => {
  assert.deepEqual(parseQuery('{"term":{"f":"v"}}'), parseQuery('{"term":{"f":{"value":"v"}}}'));
  assert.deepEqual(parseQuery('{"match":{"f":"v"}}'), parseQuery('{"match":{"f":{"query":"v"}}}'));
  assert.deepEqual(parseQuery('{"prefix":{"f":"v"}}'), parseQuery('{"prefix":{"f":{"value":"v"}}}'));
});

test('a query can come as an already-parsed JSON value', () => {
  assert.deepEqual(parseQuery({ term: { f: 'v' } }), parseQuery('{"term":{"f":"v"}}'));
  assert.deepEqual(parseQuery({ term: { f: 2n ** 70n } }), { kind: 'term', field: 'f', value: 2n ** 70n, caseInsensitive: false, boost: 1 });
});
