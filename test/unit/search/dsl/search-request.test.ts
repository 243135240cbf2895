import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkDocValueFieldsLimit,
  checkResultWindow,
  effectiveFrom,
  effectiveSize,
  effectiveTrackTotalHitsUpTo,
  parseSearchRequest,
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
  type SearchRequest,
} from '../../../../src/search/dsl/index.js';
import { thrown, type ErrorShape } from './helpers.js';

const body = (text: string, params: Record<string, string> = {}): SearchRequest =>
  parseSearchRequest({ body: text, params: { param: (name) => params[name] } });
const bodyError = (text: string, params: Record<string, string> = {}): ErrorShape => thrown(() => body(text, params));

function col(json: string, fragment: string): number {
  const index = json.indexOf(fragment);
  assert.ok(index >= 0);
  return index + 1;
}

const parsing = (reason: string, column: number): ErrorShape => ({ type: 'parsing_exception', reason, line: 1, col: column });

test('a full body', () => {
  const request = body(
    JSON.stringify({
      query: { term: { tag: 'a' } },
      post_filter: { match_all: {} },
      from: 0,
      size: '20',
      sort: ['_score', { date: 'desc' }, { price: { order: 'asc', mode: 'avg', missing: '_last', unmapped_type: 'double', numeric_type: 'long', format: 'x' } }, '_doc'],
      search_after: [1, 'a', null, true, 12345678901234567890n.toString()],
      track_total_hits: 100,
      _source: { includes: ['a.*'], excludes: 'b' },
      fields: ['f', { field: 'g', format: 'yyyy', include_unmapped: true }],
      docvalue_fields: [{ field: 'd' }],
      stored_fields: ['s'],
      highlight: { fields: { title: {} }, pre_tags: ['<b>'] },
      timeout: '2s',
      terminate_after: 10,
      min_score: 0.5,
      explain: true,
      version: 'true',
      seq_no_primary_term: false,
      track_scores: true,
      profile: true,
      stats: ['group'],
      aggs: { by_tag: { terms: { field: 'tag' } } },
    }),
  );
  assert.deepEqual(request, {
    query: { kind: 'term', field: 'tag', value: 'a', caseInsensitive: false, boost: 1 },
    postFilter: { kind: 'match_all', boost: 1 },
    from: 0,
    size: 20,
    sort: [
      { kind: 'score', order: 'desc' },
      { kind: 'field', field: 'date', order: 'desc' },
      { kind: 'field', field: 'price', order: 'asc', mode: 'avg', missing: '_last', unmappedType: 'double', numericType: 'long', format: 'x' },
      { kind: 'field', field: '_doc', order: 'asc' },
    ],
    searchAfter: [1, 'a', null, true, '12345678901234567890'],
    trackTotalHitsUpTo: 100,
    source: { fetch: true, includes: ['a.*'], excludes: ['b'] },
    fields: [{ field: 'f' }, { field: 'g', format: 'yyyy', includeUnmapped: true }],
    docvalueFields: [{ field: 'd' }],
    storedFields: { fetch: true, fields: ['s'] },
    highlight: { fields: { title: {} }, pre_tags: ['<b>'] },
    timeoutMillis: 2000,
    terminateAfter: 10,
    minScore: 0.5,
    explain: true,
    version: true,
    seqNoPrimaryTerm: false,
    trackScores: true,
    profile: true,
    stats: ['group'],
    aggregations: { by_tag: { terms: { field: 'tag' } } },
  });
});

test('defaults stay implicit; helpers resolve them', () => {
  const request = body('{}');
  assert.deepEqual(request, {});
  assert.equal(effectiveFrom(request), 0);
  assert.equal(effectiveSize(request), 10);
  assert.equal(effectiveTrackTotalHitsUpTo(request), 10000);
  assert.deepEqual(parseSearchRequest({}), {});
});

test('short forms: sort, _source, stored_fields, track_total_hits', () => {
  assert.deepEqual(body('{"sort":"age"}').sort, [{ kind: 'field', field: 'age', order: 'asc' }]);
  assert.deepEqual(body('{"sort":{"_score":"asc"}}').sort, [{ kind: 'score', order: 'asc' }]);
  assert.deepEqual(body('{"sort":[{"_score":{"order":"asc"}}]}').sort, [{ kind: 'score', order: 'asc' }]);
  assert.deepEqual(body('{"_source":false}').source, { fetch: false, includes: [], excludes: [] });
  assert.deepEqual(body('{"_source":"a*"}').source, { fetch: true, includes: ['a*'], excludes: [] });
  assert.deepEqual(body('{"_source":["a","b"]}').source, { fetch: true, includes: ['a', 'b'], excludes: [] });
  assert.deepEqual(body('{"_source":{"include":"a","exclude":["b"]}}').source, { fetch: true, includes: ['a'], excludes: ['b'] });
  // ES 9's exclude_vectors, which the Python elasticsearch.dsl sends on every Document search.
  assert.deepEqual(body('{"_source":{"exclude_vectors":false}}').source, { fetch: true, includes: [], excludes: [] });
  assert.deepEqual(body('{"_source":{"includes":["a"],"exclude_vectors":"true"}}').source, { fetch: true, includes: ['a'], excludes: [] });
  assert.deepEqual(body('{"stored_fields":"_none_"}').storedFields, { fetch: false, fields: [] });
  assert.equal(body('{"track_total_hits":true}').trackTotalHitsUpTo, TRACK_TOTAL_HITS_ACCURATE);
  assert.equal(body('{"track_total_hits":"false"}').trackTotalHitsUpTo, TRACK_TOTAL_HITS_DISABLED);
  assert.equal(body('{"track_total_hits":"500"}').trackTotalHitsUpTo, 500);
  assert.deepEqual(body('{"aggregations":{"a":{"max":{"field":"x"}}}}').aggregations, { a: { max: { field: 'x' } } });
});

test('unknown keys and wrong value types, as SearchSourceBuilder reports them', () => {
  let json = '{"foo":1}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a VALUE_NUMBER in [foo].', col(json, '1')));
  json = '{"foo":{}}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a START_OBJECT in [foo].', col(json, '{}')));
  json = '{"query":[]}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a START_ARRAY in [query].', col(json, '[')));
  json = '{"query":"x"}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a VALUE_STRING in [query].', col(json, '"x"')));
  json = '{"search_after":1}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a VALUE_NUMBER in [search_after].', col(json, '1')));
  json = '{"size":1}{"from":2}';
  assert.deepEqual(bodyError(json), parsing('Unexpected token [START_OBJECT] found after the main object.', col(json, '{"from"')));
  assert.deepEqual(bodyError('[]'), parsing('Expected [START_OBJECT] but found [START_ARRAY]', 1));
  json = '{"_source":1}';
  assert.deepEqual(bodyError(json), parsing('Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [VALUE_NUMBER]', col(json, '1')));
  json = '{"_source":{"foo":["a"]}}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a START_ARRAY in [foo].', col(json, '["a"]')));
  json = '{"_source":{"excludes":true}}';
  assert.deepEqual(bodyError(json), parsing('Unknown key for a VALUE_BOOLEAN in [excludes].', col(json, 'true')));
  json = '{"stored_fields":1}';
  assert.deepEqual(bodyError(json), parsing('Expected [VALUE_STRING] or [START_ARRAY] in [stored_fields] but found [VALUE_NUMBER]', col(json, '1')));
  assert.deepEqual(bodyError('{"stored_fields":["_none_","a"]}'), { type: 'illegal_argument_exception', reason: 'cannot combine _none_ with other fields' });
  json = '{"search_after":[{}]}';
  assert.deepEqual(
    bodyError(json),
    parsing('Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [START_OBJECT] inside search_after.', col(json, '{}')),
  );
  json = '{"stats":[1]}';
  assert.deepEqual(bodyError(json), parsing('Expected [VALUE_STRING] in [stats] but found [VALUE_NUMBER]', col(json, '1')));
  assert.deepEqual(bodyError('{"size":"abc"}'), { type: 'number_format_exception', reason: 'For input string: "abc"' });
  assert.deepEqual(bodyError('{"timeout":"soon"}'), {
    type: 'illegal_argument_exception',
    reason: 'failed to parse setting [timeout] with value [soon] as a time value: unit is missing or unrecognized',
  });
});

test('value checks of SearchSourceBuilder\'s setters', () => {
  const iae = (reason: string): ErrorShape => ({ type: 'illegal_argument_exception', reason });
  assert.deepEqual(bodyError('{"from":-1}'), iae('[from] parameter cannot be negative but was [-1]'));
  assert.deepEqual(bodyError('{"size":-1}'), iae('[size] parameter cannot be negative, found [-1]'));
  assert.deepEqual(bodyError('{"terminate_after":-1}'), iae('terminateAfter must be > 0'));
  assert.deepEqual(bodyError('{"track_total_hits":-5}'), iae('[track_total_hits] parameter must be positive or equals to -1, got -5'));
  assert.equal(body('{"track_total_hits":-1}').trackTotalHitsUpTo, -1);
});

test('sort errors', () => {
  assert.deepEqual(bodyError('{"sort":[{"f":"up"}]}'), { type: 'illegal_argument_exception', reason: 'No enum constant org.elasticsearch.search.sort.SortOrder.UP' });
  assert.deepEqual(bodyError('{"sort":[5]}'), {
    type: 'illegal_argument_exception',
    reason: 'malformed sort format, within the sort array, an object, or an actual string are allowed',
  });
  let json = '{"sort":{"f":{"foo":1}}}';
  assert.deepEqual(bodyError(json), { type: 'x_content_parse_exception', reason: `[1:${col(json, '"foo"')}] [field_sort] unknown field [foo]` });
  json = '{"sort":{"f":{"mode":"xx"}}}';
  assert.deepEqual(bodyError(json), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(json, '"xx"')}] [field_sort] failed to parse field [mode]`,
    caused_by: { type: 'illegal_argument_exception', reason: 'Unknown SortMode [xx]' },
  });
  json = '{"sort":{"f":{"ordr":"asc"}}}';
  assert.equal(bodyError(json).reason, `[1:${col(json, '"ordr"')}] [field_sort] unknown field [ordr] did you mean [order]?`);
});

test('query errors surface unchanged from the body', () => {
  const json = '{"query":{"match":{"a":"x","b":"y"}}}';
  assert.deepEqual(bodyError(json), parsing("[match] query doesn't support multiple fields, found [a] and [b]", col(json, '"y"')));
});

test('sections Gannet does not run are refused by name', () => {
  for (const section of ['collapse', 'rescore', 'suggest', 'knn', 'script_fields', 'pit', 'runtime_mappings']) {
    const json = `{"${section}":{}}`;
    assert.deepEqual(bodyError(json), parsing(`[${section}] is not supported by this node`, col(json, '{}')), section);
  }
  assert.deepEqual(bodyError('{"rescore":[]}'), parsing('[rescore] is not supported by this node', 12));
});

test('highlight: shape only', () => {
  let json = '{"highlight":{"fields":{"a":{}},"colour":1}}';
  assert.deepEqual(bodyError(json), { type: 'x_content_parse_exception', reason: `[1:${col(json, '"colour"')}] [highlight] unknown field [colour]` });
  json = '{"highlight":{"fields":"a"}}';
  assert.equal(bodyError(json).type, 'x_content_parse_exception');
  assert.deepEqual(body('{"highlight":{"fields":[{"a":{}},{"b":{"type":"plain"}}]}}').highlight, { fields: [{ a: {} }, { b: { type: 'plain' } }] });
});

test('URL parameters override and extend the body', () => {
  const request = body('{"from":1,"size":2,"sort":["a"],"query":{"match_all":{}}}', {
    q: 'title:quick',
    df: 'body',
    default_operator: 'AND',
    lenient: 'true',
    from: '3',
    size: '4',
    sort: 'b:desc,c,_score:asc,d:sideways',
    _source: 'false',
    track_total_hits: '50',
    stored_fields: 'x,y',
    docvalue_fields: 'd1,d2',
    explain: '',
    version: 'false',
    timeout: '1m',
    terminate_after: '7',
    track_scores: 'true',
    seq_no_primary_term: 'true',
    stats: 's1,s2',
  });
  assert.deepEqual(request, {
    query: {
      kind: 'query_string',
      query: 'title:quick',
      defaultField: 'body',
      defaultOperator: 'and',
      analyzeWildcard: false,
      enablePositionIncrements: true,
      escape: false,
      fuzziness: { kind: 'auto', low: 3, high: 6 },
      fuzzyPrefixLength: 0,
      fuzzyMaxExpansions: 50,
      fuzzyTranspositions: true,
      phraseSlop: 0,
      type: 'best_fields',
      lenient: true,
      maxDeterminizedStates: 10000,
      autoGenerateSynonymsPhraseQuery: true,
      boost: 1,
    },
    from: 3,
    size: 4,
    sort: [
      { kind: 'field', field: 'a', order: 'asc' },
      { kind: 'field', field: 'b', order: 'desc' },
      { kind: 'field', field: 'c', order: 'asc' },
      { kind: 'score', order: 'asc' },
    ],
    source: { fetch: false, includes: [], excludes: [] },
    trackTotalHitsUpTo: 50,
    storedFields: { fetch: true, fields: ['x', 'y'] },
    docvalueFields: [{ field: 'd1' }, { field: 'd2' }],
    explain: true,
    version: false,
    timeoutMillis: 60000,
    terminateAfter: 7,
    trackScores: true,
    seqNoPrimaryTerm: true,
    stats: ['s1', 's2'],
  });
  assert.deepEqual(body('{}', { _source_includes: 'a,b', _source_excludes: 'c' }).source, { fetch: true, includes: ['a', 'b'], excludes: ['c'] });
  assert.deepEqual(body('{}', { _source: 'x,y' }).source, { fetch: true, includes: ['x', 'y'], excludes: [] });
  assert.equal(body('{}', { track_total_hits: 'true' }).trackTotalHitsUpTo, TRACK_TOTAL_HITS_ACCURATE);
});

test('URL parameter errors', () => {
  assert.deepEqual(bodyError('{}', { size: 'ten' }), {
    type: 'illegal_argument_exception',
    reason: 'Failed to parse int parameter [size] with value [ten]',
    caused_by: { type: 'number_format_exception', reason: 'For input string: "ten"' },
  });
  assert.deepEqual(bodyError('{}', { explain: 'yes' }), { type: 'illegal_argument_exception', reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.' });
  assert.deepEqual(bodyError('{}', { from: '-2' }), { type: 'illegal_argument_exception', reason: '[from] parameter cannot be negative but was [-2]' });
  assert.deepEqual(bodyError('{}', { q: 'x', default_operator: 'xor' }), { type: 'illegal_argument_exception', reason: 'No enum constant org.elasticsearch.index.query.Operator.XOR' });
});

test('search_after with from is refused as SearchRequest.validate does', () => {
  assert.deepEqual(bodyError('{"from":5,"search_after":[1],"sort":["a"]}'), {
    type: 'action_request_validation_exception',
    reason: 'Validation Failed: 1: [from] parameter must be set to 0 when [search_after] is used;',
  });
});

test('index.max_result_window and index.max_docvalue_fields_search', () => {
  assert.doesNotThrow(() => checkResultWindow(body('{"from":9990,"size":10}')));
  assert.deepEqual(
    thrown(() => checkResultWindow(body('{"from":9990,"size":11}'))),
    {
      type: 'illegal_argument_exception',
      reason:
        'Result window is too large, from + size must be less than or equal to: [10000] but was [10001]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.',
    },
  );
  assert.equal(thrown(() => checkResultWindow(body('{"size":3}'), 2)).reason.slice(0, 80), 'Result window is too large, from + size must be less than or equal to: [2] but w');
  const fields = JSON.stringify({ docvalue_fields: Array.from({ length: 101 }, (_, i) => `f${i}`) });
  assert.deepEqual(thrown(() => checkDocValueFieldsLimit(body(fields))), {
    type: 'illegal_argument_exception',
    reason:
      'Trying to retrieve too many docvalue_fields. Must be less than or equal to: [100] but was [101]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.',
  });
});
