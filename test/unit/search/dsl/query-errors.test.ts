import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../../../../src/search/dsl/index.js';
import { parseError, type ErrorShape } from './helpers.js';

/** 1-based column of the n-th occurrence of `fragment` in a one-line JSON text (what Jackson reports). */
function col(json: string, fragment: string, nth = 0): number {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = json.indexOf(fragment, index + 1);
    assert.ok(index >= 0, `${fragment} not found in ${json}`);
  }
  return index + 1;
}

function parsing(reason: string, line: number, column: number, causedBy?: ErrorShape): ErrorShape {
  return { type: 'parsing_exception', reason, line, col: column, ...(causedBy && { caused_by: causedBy }) };
}

const IAE = (reason: string): ErrorShape => ({ type: 'illegal_argument_exception', reason });

test('unknown query names get ES\'s suggestions and a named_object_not_found cause', () => {
  let json = '{"boool":{}}';
  assert.deepEqual(
    parseError(json),
    parsing('unknown query [boool] did you mean [bool]?', 1, col(json, '{}'), { type: 'named_object_not_found_exception', reason: `[1:${col(json, '{}')}] unknown field [boool]` }),
  );
  json = '{"match_":{}}';
  assert.equal(parseError(json).reason, 'unknown query [match_] did you mean any of [match, match_all, match_none]?');
  json = '{"qwertyuiop":{}}';
  assert.equal(parseError(json).reason, 'unknown query [qwertyuiop]');
  // Lucene's Levenshtein similarity above 0.5: "xyzzy" is 2 edits from "fuzzy" (1 - 2/5).
  assert.equal(parseError('{"xyzzy":{}}').reason, 'unknown query [xyzzy] did you mean [fuzzy]?');
});

test('the query wrapper: exactly one name with an object', () => {
  assert.deepEqual(parseError('{}'), IAE('query malformed, empty clause found at [1:2]'));
  let json = '{"match":"x"}';
  assert.deepEqual(parseError(json), parsing('[match] query malformed, no start_object after query name', 1, col(json, '"x"')));
  assert.deepEqual(parseError('[]'), parsing('[_na] query malformed, must start with start_object', 1, 1));
  json = '{"term":{"a":"1"},"match":{}}';
  assert.deepEqual(parseError(json), parsing('[term] malformed query, expected [END_OBJECT] but found [FIELD_NAME]', 1, col(json, '"match"')));
});

test('single-field queries refuse a second field, located at the second one', () => {
  let json = '{"match":{"a":"x","b":"y"}}';
  assert.deepEqual(parseError(json), parsing("[match] query doesn't support multiple fields, found [a] and [b]", 1, col(json, '"y"')));
  json = '{"term":{"a":{"value":"x"},"boost":2}}';
  assert.deepEqual(parseError(json), parsing("[term] query doesn't support multiple fields, found [a] and [boost]", 1, col(json, '2')));
  json = '{"range":{"a":{"gt":1},"b":{"lt":2}}}';
  assert.deepEqual(parseError(json), parsing("[range] query doesn't support multiple fields, found [a] and [b]", 1, col(json, '{"lt"')));
});

test('unknown options and tokens, as each query reports them', () => {
  const cases: Array<[string, string, string]> = [
    ['{"match":{"f":{"query":"x","foo":1}}}', '[match] query does not support [foo]', '1}'],
    ['{"match":{"f":{"query":null}}}', '[match] unknown token [VALUE_NULL] after [query]', 'null'],
    ['{"match":{"f":{"query":"x","zero_terms_query":"some"}}}', 'Unsupported zero_terms_query value [some]', '"some"'],
    ['{"term":{"f":["a"]}}', '[term] query does not support array of values', '['],
    [
      '{"term":{"f":{"value":["a"]}}}',
      '[term] query does not support arrays for value - use a bool query with multiple term clauses in the should section or use a Terms query if scoring is not required',
      '[',
    ],
    ['{"term":{"f":{"foo":"a"}}}', '[term] query does not support [foo]', '"a"'],
    ['{"range":{"f":{"foo":1}}}', '[range] query does not support [foo]', '1}'],
    ['{"range":{"f":5}}', '[range] query does not support [f]', '5'],
    ['{"prefix":{"f":{"foo":"a"}}}', '[prefix] query does not support [foo]', '"a"'],
    ['{"wildcard":{"f":{"foo":"a"}}}', '[wildcard] query does not support [foo]', '"a"'],
    ['{"regexp":{"f":{"foo":"a"}}}', '[regexp] query does not support [foo]', '"a"'],
    ['{"fuzzy":{"f":{"foo":"a"}}}', '[fuzzy] query does not support [foo]', '"a"'],
    ['{"fuzzy":{"f":{"value":["a"]}}}', '[fuzzy] unexpected token [START_ARRAY] after [value]', '['],
    ['{"exists":{"field":"f","foo":1}}', '[exists] query does not support [foo]', '1}'],
    ['{"exists":{"field":["f"]}}', '[exists] unknown token [START_ARRAY] after [field]', '['],
    ['{"terms":{"f":["a"],"foo":1}}', '[terms] query does not support [foo]', '1}'],
    ['{"terms":{"f":["a"],"g":["b"]}}', '[terms] query does not support multiple fields', '["b"]'],
    ['{"terms":{"f":["a",null]}}', 'No value specified for terms query', 'null'],
    ['{"constant_score":{"filter":{"match_all":{}},"foo":1}}', '[constant_score] query does not support [foo]', '1}'],
    ['{"constant_score":{"query":{"match_all":{}}}}', '[constant_score] query does not support [query]', '{"match_all"'],
    ['{"dis_max":{"queries":[{"match_all":{}}],"foo":1}}', '[dis_max] query does not support [foo]', '1}'],
    ['{"boosting":{"foo":1}}', '[boosting] query does not support [foo]', '1}'],
    ['{"multi_match":{"query":"x","foo":1}}', '[multi_match] query does not support [foo]', '1}'],
    ['{"multi_match":{"query":"x","fields":{"a":1}}}', '[multi_match] query does not support [fields]', '{"a"'],
    ['{"query_string":{"query":"x","foo":1}}', '[query_string] query does not support [foo]', '1}'],
    ['{"query_string":{"query":"x","fields":"a"}}', '[query_string] query does not support [fields]', '"a"'],
    ['{"simple_query_string":{"query":"x","foo":1}}', '[simple_query_string] unsupported field [foo]', '1}'],
    ['{"match_phrase":{"f":{"query":"x","max_expansions":1}}}', '[match_phrase] query does not support [max_expansions]', '1}'],
  ];
  for (const [json, reason, at] of cases) {
    assert.deepEqual(parseError(json), parsing(reason, 1, col(json, at)), json);
  }
});

test('missing required parts', () => {
  const endOf = (json: string, depth: number): number => json.length - depth + 1;
  let json = '{"match":{"f":{"analyzer":"x"}}}';
  assert.deepEqual(parseError(json), parsing('No text specified for text query', 1, endOf(json, 2)));
  json = '{"multi_match":{"fields":["a"]}}';
  assert.deepEqual(parseError(json), parsing('No text specified for multi_match query', 1, endOf(json, 2)));
  json = '{"dis_max":{"tie_breaker":0.5}}';
  assert.deepEqual(parseError(json), parsing("[dis_max] requires 'queries' field with at least one clause", 1, endOf(json, 2)));
  json = '{"constant_score":{}}';
  assert.deepEqual(parseError(json), parsing("[constant_score] requires a 'filter' element", 1, endOf(json, 2)));
  json = '{"boosting":{"positive":{"match_all":{}},"negative_boost":0.2}}';
  assert.deepEqual(parseError(json), parsing("[boosting] query requires 'negative' query to be set'", 1, endOf(json, 2)));
  json = '{"boosting":{"positive":{"match_all":{}},"negative":{"match_all":{}}}}';
  assert.deepEqual(parseError(json), parsing("[boosting] query requires 'negative_boost' to be set to be a positive value'", 1, endOf(json, 2)));
  json = '{"exists":{}}';
  assert.deepEqual(parseError(json), parsing('[exists] must be provided with a [field]', 1, endOf(json, 2)));
  json = '{"terms":{"boost":2}}';
  assert.deepEqual(
    parseError(json),
    parsing('[terms] query requires a field name, followed by array of terms or a document lookup specification', 1, endOf(json, 2)),
  );
  json = '{"query_string":{"default_field":"a"}}';
  assert.deepEqual(parseError(json), parsing('[query_string] must be provided with a [query]', 1, endOf(json, 2)));
  json = '{"simple_query_string":{}}';
  assert.deepEqual(parseError(json), parsing('[simple_query_string] query text missing', 1, endOf(json, 2)));
  assert.deepEqual(parseError('{"term":{}}'), IAE('field name is null or empty'));
  assert.deepEqual(parseError('{"term":{"f":{"boost":2}}}'), IAE('value cannot be null'));
  assert.deepEqual(parseError('{"term":{"f":null}}'), IAE('field name is null or empty'));
  assert.deepEqual(parseError('{"prefix":{"f":null}}'), IAE('value cannot be null'));
  assert.deepEqual(parseError('{"fuzzy":{"f":{"boost":1}}}'), IAE('query value cannot be null'));
  assert.deepEqual(parseError('{"match_phrase":{"f":{"slop":-1,"query":"x"}}}'), IAE('No negative slop allowed.'));
});

test('value types: coercion and the failures of ES\'s XContent accessors', () => {
  const boost = '{"match":{"f":{"query":"x","boost":true}}}';
  assert.deepEqual(parseError(boost), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(boost, 'true')}] Current token (VALUE_TRUE) not numeric, can not use numeric value accessors`,
  });
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","boost":"abc"}}}'), { type: 'number_format_exception', reason: 'For input string: "abc"' });
  assert.equal(parseQuery('{"match":{"f":{"query":"x","boost":"2.5"}}}').boost, 2.5);
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","lenient":"yes"}}}'), IAE('Failed to parse value [yes] as only [true] or [false] are allowed.'));
  const lenient = '{"match":{"f":{"query":"x","lenient":1}}}';
  assert.deepEqual(parseError(lenient), { type: 'x_content_parse_exception', reason: `[1:${col(lenient, '1}')}] Current token (VALUE_NUMBER_INT) not of boolean type` });
  const slop = '{"match_phrase":{"f":{"query":"x","slop":3000000000}}}';
  assert.deepEqual(parseError(slop), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(slop, '3000000000')}] Numeric value (3000000000) out of range of int (-2147483648 - 2147483647)`,
  });
  assert.deepEqual(parseError('{"match_phrase":{"f":{"query":"x","slop":"3000000000"}}}'), IAE('Value [3000000000] is out of range for an integer'));
  assert.equal((parseQuery('{"match_phrase":{"f":{"query":"x","slop":"2.9"}}}') as { slop: number }).slop, 2);
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","operator":"xor"}}}'), IAE('No enum constant org.elasticsearch.index.query.Operator.XOR'));
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","boost":-1}}}'), IAE('negative [boost] are not allowed.'));
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","prefix_length":-1}}}'), IAE('[match] requires prefix length to be non-negative.'));
  assert.deepEqual(parseError('{"match":{"f":{"query":"x","max_expansions":0}}}'), IAE('[match] requires maxExpansions to be positive.'));
});

test('fuzziness values', () => {
  const fuzziness = (value: string): ErrorShape => parseError(`{"match":{"f":{"query":"x","fuzziness":${value}}}}`);
  assert.deepEqual(fuzziness('"3"'), IAE('Valid edit distances are [0, 1, 2] but was [3]'));
  assert.deepEqual(fuzziness('3'), IAE('Valid edit distances are [0, 1, 2] but was [3]'));
  assert.deepEqual(fuzziness('"1.5"'), IAE('fuzziness needs to be one of 0.0, 1.0 or 2.0 but was 1.5'));
  assert.deepEqual(fuzziness('"abc"'), { ...IAE('fuzziness cannot be [abc].'), caused_by: { type: 'number_format_exception', reason: 'For input string: "ABC"' } });
  assert.deepEqual(fuzziness('"AUTO:5"'), { type: 'parse_exception', reason: 'failed to find low and high distance values' });
  assert.deepEqual(fuzziness('"AUTO:5,2"'), { type: 'parse_exception', reason: 'fuzziness wrongly configured [AUTO:5,2]. Must be 0 < lower value <= higher value.' });
  assert.deepEqual(fuzziness('true'), IAE("Can't parse fuzziness on token: [VALUE_BOOLEAN]"));
  assert.deepEqual((parseQuery('{"match":{"f":{"query":"x","fuzziness":"auto"}}}') as { fuzziness: unknown }).fuzziness, { kind: 'auto', low: 3, high: 6 });
  assert.deepEqual((parseQuery('{"match":{"f":{"query":"x","fuzziness":"2.0"}}}') as { fuzziness: unknown }).fuzziness, { kind: 'edits', edits: 2 });
});

test('bool is an ObjectParser: failures inside a section are wrapped, suggestions for unknown keys', () => {
  let json = '{"bool":{"must":[{"match":{"a":"x","b":"y"}}]}}';
  assert.deepEqual(parseError(json), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(json, '"y"')}] [bool] failed to parse field [must]`,
    caused_by: parsing("[match] query doesn't support multiple fields, found [a] and [b]", 1, col(json, '"y"')),
  });
  json = '{"bool":{"must":[{}]}}';
  assert.deepEqual(parseError(json), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(json, '}]')}] [bool] failed to parse field [must]`,
    caused_by: IAE(`query malformed, empty clause found at [1:${col(json, '}]')}]`),
  });
  json = '{"bool":{"mus":[]}}';
  assert.deepEqual(parseError(json), { type: 'x_content_parse_exception', reason: `[1:${col(json, '"mus"')}] [bool] unknown field [mus] did you mean [must]?` });
  json = '{"bool":{"must":"x"}}';
  assert.deepEqual(parseError(json), { type: 'x_content_parse_exception', reason: `[1:${col(json, '"x"')}] [bool] must doesn't support values of type: VALUE_STRING` });
  json = '{"bool":{"boost":-2}}';
  assert.deepEqual(parseError(json), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(json, '-2')}] [bool] failed to parse field [boost]`,
    caused_by: IAE('negative [boost] are not allowed.'),
  });
  // A string where a query object is expected: ES reads one token further before failing.
  json = '{"bool":{"must":["x"]}}';
  assert.deepEqual(parseError(json), {
    type: 'x_content_parse_exception',
    reason: `[1:${col(json, ']')}] [bool] failed to parse field [must]`,
    caused_by: parsing('[_na] query malformed, must start with start_object', 1, col(json, ']')),
  });
});

test('ids and match_all report their ObjectParser failures as parsing_exception', () => {
  let json = '{"ids":{"values":["1"],"foo":1}}';
  const unknown = `[1:${col(json, '"foo"')}] [ids] unknown field [foo]`;
  assert.deepEqual(parseError(json), parsing(unknown, 1, col(json, '1}'), { type: 'x_content_parse_exception', reason: unknown }));
  json = '{"match_all":{"boost":"x"}}';
  const failed = `[1:${col(json, '"x"')}] [match_all] failed to parse field [boost]`;
  assert.deepEqual(
    parseError(json),
    parsing(failed, 1, col(json, '"x"'), { type: 'x_content_parse_exception', reason: failed, caused_by: { type: 'number_format_exception', reason: 'For input string: "x"' } }),
  );
});

test('nesting deeper than indices.query.bool.max_nested_depth (20) is refused', () => {
  const nest = (depth: number, wrap: (inner: string) => string): string => {
    let json = '{"match_all":{}}';
    for (let i = 1; i < depth; i++) json = wrap(json);
    return json;
  };
  const constantScore = (inner: string): string => `{"constant_score":{"filter":${inner}}}`;
  assert.doesNotThrow(() => parseQuery(nest(20, constantScore)));
  assert.deepEqual(
    parseError(nest(21, constantScore)),
    IAE('The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]'),
  );
  const boolMust = (inner: string): string => `{"bool":{"must":[${inner}]}}`;
  assert.doesNotThrow(() => parseQuery(nest(20, boolMust)));
  let error: ErrorShape | undefined = parseError(nest(21, boolMust));
  assert.equal(error.type, 'x_content_parse_exception');
  while (error?.caused_by !== undefined) error = error.caused_by;
  assert.deepEqual(error, IAE('The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]'));
  assert.doesNotThrow(() => parseQuery(nest(25, constantScore), { maxNestedDepth: 30 }));
});

test('range options', () => {
  assert.deepEqual(parseError('{"range":{"f":{"gt":1,"relation":"disjoint"}}}'), IAE('[range] query does not support relation [disjoint]'));
  assert.deepEqual(parseError('{"range":{"f":{"gt":1,"relation":"near"}}}'), IAE('near is not a valid relation'));
  assert.deepEqual(parseError('{"range":{"f":{"gt":1,"time_zone":"Mars/Olympus"}}}'), IAE('java.time.zone.ZoneRulesException: Unknown time-zone ID: Mars/Olympus'));
  assert.equal(parseError('{"range":{"f":{"gt":1,"format":"yyyy-MM-dd\'T"}}}').type, 'illegal_argument_exception');
});

test('multi_match, query_string and simple_query_string options', () => {
  let json = '{"multi_match":{"query":"x","type":"cross_fields","fuzziness":1}}';
  // Located at the multi_match object's closing brace, where the parser stands after reading it.
  assert.deepEqual(parseError(json), parsing('Fuzziness not allowed for type [cross_fields]', 1, json.length - 1));
  json = '{"multi_match":{"query":"x","type":"bool_prefix","slop":1}}';
  assert.deepEqual(parseError(json), parsing('[slop] not allowed for type [bool_prefix]', 1, json.length - 1));
  assert.deepEqual(parseError('{"multi_match":{"query":"x","type":"foo"}}'), { type: 'parse_exception', reason: 'failed to parse [multi_match] query type [foo]. unknown type.' });
  assert.deepEqual(parseError('{"simple_query_string":{"query":"x","flags":"AND|FOO"}}'), IAE('Unknown simple_query_string flag [FOO]'));
  assert.deepEqual(parseError('{"regexp":{"f":{"value":"x","flags":"FOO"}}}'), IAE('Unknown regexp flag [FOO]'));
  assert.deepEqual(parseError('{"query_string":{"query":"x","type":"foo"}}'), { type: 'parse_exception', reason: 'failed to parse [multi_match] query type [foo]. unknown type.' });
});

test('function_score structure errors', () => {
  let json = '{"function_score":{"foo":{}}}';
  assert.deepEqual(parseError(json), { type: 'named_object_not_found_exception', reason: `[1:${col(json, '{}')}] unknown field [foo]` });
  json = '{"function_score":{"functions":[{"weight":1}],"gauss":{"a":{"scale":1}}}}';
  assert.deepEqual(
    parseError(json),
    parsing(
      'failed to parse [function_score] query. [you can either define [functions] array or a single function, not both. already found [functions] array, now encountering [gauss].]',
      1,
      col(json, '{"a"'),
    ),
  );
  json = '{"function_score":{"weight":1,"boost_mode":"sum","field_value_factor":{"field":"a"}}}';
  assert.equal(
    parseError(json).reason,
    'failed to parse [function_score] query. already found function [weight], now encountering [field_value_factor]. use [functions] array if you want to define several functions.',
  );
  json = '{"function_score":{"gauss":{"a":{"scale":1}},"exp":{"a":{"scale":1}}}}';
  assert.deepEqual(
    parseError(json),
    parsing(
      'failed to parse [function_score] query. already found function [gauss], now encountering [exp]. use [functions] array if you want to define several functions.',
      1,
      col(json, '{"a"', 1),
    ),
  );
  json = '{"function_score":{"functions":[{"filter":{"match_all":{}}}]}}';
  assert.equal(parseError(json).reason, 'failed to parse [function_score] query. an entry in functions list is missing a function.');
  assert.deepEqual(parseError('{"function_score":{"weight":-1}}'), IAE('[weight] cannot be negative for a filtering function'));
  assert.deepEqual(
    parseError('{"function_score":{"score_mode":"best"}}'),
    IAE('No enum constant org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode.BEST'),
  );
  json = '{"function_score":{"field_value_factor":{"factor":2}}}';
  assert.deepEqual(parseError(json), parsing("[field_value_factor] required field 'field' missing", 1, col(json, '}}}')));
  json = '{"function_score":{"gauss":{"multi_value_mode":"min"}}}';
  assert.equal(parseError(json).reason, 'malformed score function score parameters.');
});

test('what Gannet does not run is refused by name, not called unknown', () => {
  const json = '{"nested":{"path":"a","query":{"match_all":{}}}}';
  assert.deepEqual(parseError(json), parsing('query [nested] is not supported by this node', 1, col(json, '{"path"')));
  assert.equal(parseError('{"terms":{"f":{"index":"i","id":"1","path":"p"}}}').reason, '[terms] query does not support a terms lookup for field [f]: list the terms instead');
  assert.equal(parseError('{"function_score":{"random_score":{}}}').reason, '[function_score] function [random_score] is not supported by this node');
});

test('malformed JSON is an x_content_parse_exception located where Jackson stops', () => {
  const error = parseError('{"match":{"a":');
  assert.equal(error.type, 'x_content_parse_exception');
  assert.match(error.reason, /^\[1:15\] Unexpected end-of-input/);
  assert.match(parseError('{"match":{"a":"x",}}').reason, /^\[1:19\] Unexpected character \('\}' \(code 125\)\)/);
  assert.match(parseError('{"match":{"a":"x","a":"y"}}').reason, /Duplicate field 'a'/);
});
