import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTopLevelQuery, parseQuery, planToString, type QueryAst } from '../../../../src/search/dsl/index.js';
import { context, thrown } from './helpers.js';

function build(query: object): string {
  return planToString(buildTopLevelQuery(parseQuery(query as { [key: string]: never }) as QueryAst, context()));
}

const qs = (query: string, options: object = {}): string => build({ query_string: { query, default_field: 'title', ...options } });

/** query_string syntax over default_field `title` (standard analyzer): [query, Lucene query string]. */
const SYNTAX: Array<[string, string]> = [
  ['quick', 'title:quick'],
  ['Quick Brown', 'title:quick title:brown'],
  ['quick AND brown', '+title:quick +title:brown'],
  ['quick && brown', '+title:quick +title:brown'],
  ['quick OR brown', 'title:quick title:brown'],
  ['quick || brown', 'title:quick title:brown'],
  ['quick -brown', 'title:quick -title:brown'],
  ['quick !brown', 'title:quick -title:brown'],
  ['+quick brown', '+title:quick title:brown'],
  ['NOT brown', '-title:brown #*:*'],
  ['quick AND NOT brown', '+title:quick -title:brown'],
  ['a OR b AND c', 'title:a +title:b +title:c'],
  ['title:(quick brown)', 'title:quick title:brown'],
  ['(quick OR brown) AND fox', '+(title:quick title:brown) +title:fox'],
  ['quick^2', '(title:quick)^2.0'],
  ['quick brown^2', 'title:quick (title:brown)^2.0'],
  ['(quick brown)^1.5', '(title:quick title:brown)^1.5'],
  ['"quick brown"', 'title:"quick brown"'],
  ['"quick brown"~3', 'title:"quick brown"~3'],
  ['"quick"', 'title:quick'],
  ['qu?ck', 'title:qu?ck'],
  ['Qu*ck', 'title:qu*ck'],
  ['Qui*', 'title:qui*'],
  ['quikc~', 'title:quikc~1'],
  ['quikc~2', 'title:quikc~2'],
  ['ab~', 'title:ab~0'],
  ['/qu.*k/', 'title:/qu.*k/'],
  ['body:running', 'body:run'],
  ['tag:ABC', 'tag:ABC'],
  ['age:[10 TO 20]', 'age:[10 TO 20]'],
  ['age:{10 TO 20}', 'age:[11 TO 19]'],
  ['age:[10 TO *]', 'age:[10 TO 2147483647]'],
  ['age:>10', 'age:[11 TO 2147483647]'],
  ['age:>=10', 'age:[10 TO 2147483647]'],
  ['age:<5', 'age:[-2147483648 TO 4]'],
  ['age:<=5', 'age:[-2147483648 TO 5]'],
  ['title:[a TO c]', 'title:[a TO c]'],
  ['title:["A" TO "C"}', 'title:[a TO c}'],
  ['_exists_:title', 'ConstantScore(FieldExistsQuery [field=title])'],
  ['title:*', 'ConstantScore(FieldExistsQuery [field=title])'],
  ['*:*', '*:*'],
  ['quick body:the', 'title:quick'],
  ['a b c:d', 'title:a title:b MatchNoDocsQuery("unmapped fields [c]")'],
  ['foo\\:bar', 'title:foo:bar'],
];

for (const [query, expected] of SYNTAX) {
  test(`query_string ${JSON.stringify(query)} is ${expected}`, () => {
    assert.equal(qs(query), expected);
  });
}

test('default_operator AND makes bare clauses required, OR undoes it for its neighbour', () => {
  assert.equal(qs('quick brown', { default_operator: 'AND' }), '+title:quick +title:brown');
  assert.equal(qs('quick OR brown', { default_operator: 'AND' }), 'title:quick title:brown');
  // ES applies minimum_should_match whatever the clauses: with no should clause left the query can match nothing.
  assert.equal(qs('quick brown fox', { default_operator: 'AND', minimum_should_match: '2' }), '(+title:quick +title:brown +title:fox)~2');
  assert.equal(qs('quick brown fox', { minimum_should_match: '2' }), '(title:quick title:brown title:fox)~2');
});

test('fields with boosts: each term as a dis_max over the fields', () => {
  assert.equal(build({ query_string: { query: 'quick', fields: ['title^2', 'tag'] } }), '((title:quick)^2.0 | tag:quick)');
  assert.equal(build({ query_string: { query: 'quick', fields: ['title', 'tag'], tie_breaker: 0.5 } }), '(title:quick | tag:quick)~0.5');
  assert.equal(build({ query_string: { query: 'title:quick', fields: ['body'] } }), 'title:quick');
});

test('a blank query string matches nothing', () => {
  assert.equal(qs('   '), 'MatchNoDocsQuery("Matching no documents because no terms present")');
});

test('an analyzer that removes everything leaves no query', () => {
  assert.equal(build({ query_string: { query: 'the', default_field: 'body' } }), 'MatchNoDocsQuery("No query left after rewrite.")');
});

test('syntax errors are shard failures naming the query', () => {
  const error = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: 'title:(quick' } }), context()));
  assert.deepEqual(error, {
    type: 'query_shard_exception',
    reason: 'Failed to parse query [title:(quick]',
    index_uuid: 'uuid-1',
    index: 'test',
    caused_by: { type: 'parse_exception', reason: 'Cannot parse \'title:(quick\': Encountered "<EOF>" at line 1, column 12.' },
  } as unknown as ReturnType<typeof thrown>);
  const unexpected = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: 'quick )' } }), context()));
  assert.equal(unexpected.caused_by?.reason, 'Cannot parse \'quick )\': Encountered " ")" ") "" at line 1, column 7.');
  const lexical = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: '"quick' } }), context()));
  assert.match(lexical.caused_by!.reason, /^Cannot parse '"quick': Lexical error at line 1, column 7\.  Encountered: <EOF> after : "\\"quick"$/);
  const escape = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: 'quick\\' } }), context()));
  assert.equal(escape.type, 'query_shard_exception');
  const leading = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: '*ick', default_field: 'title', allow_leading_wildcard: false } }), context()));
  assert.equal(leading.caused_by?.reason, "Cannot parse '*ick': '*' or '?' not allowed as first character in WildcardQuery");
});

test('escape: true escapes the syntax characters (not the AND/OR/NOT words)', () => {
  assert.equal(qs('quick (brown) -fox', { escape: true }), 'title:quick title:brown title:fox');
  assert.equal(qs('quick AND (brown)', { escape: true }), '+title:quick +title:brown');
});

test('fields and default_field together are refused as ES validates them', () => {
  const error = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: 'x', fields: ['a'], default_field: 'b' } }), context()));
  assert.deepEqual(error, {
    type: 'query_shard_exception',
    reason: 'failed to create query: Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
    index_uuid: 'uuid-1',
    index: 'test',
    caused_by: { type: 'query_validation_exception', reason: 'Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];' },
  } as unknown as ReturnType<typeof thrown>);
});

test('querying all fields is lenient: fields that cannot take the text match nothing instead of failing', () => {
  const built = build({ query_string: { query: 'fox' } });
  assert.match(built, /title:fox/);
  assert.match(built, /MatchNoDocsQuery\("failed \[age\] query, caused by number_format_exception:\[For input string: "fox"\]"\)/);
  const strict = thrown(() => buildTopLevelQuery(parseQuery({ query_string: { query: 'fox', fields: ['age'] } }), context()));
  assert.deepEqual(strict.caused_by, { type: 'number_format_exception', reason: 'For input string: "fox"' });
});

/** simple_query_string over `title`: [query, flags, Lucene query string]. */
const SIMPLE: Array<[string, string | undefined, string]> = [
  ['quick brown', undefined, 'title:quick title:brown'],
  ['quick + brown', undefined, '+title:quick +title:brown'],
  ['quick | brown', undefined, 'title:quick title:brown'],
  ['quick + brown | fox', undefined, '(+title:quick +title:brown) title:fox'],
  ['-fox', undefined, '-title:fox *:*'],
  ['--fox', undefined, 'title:fox'],
  ['quick -fox', undefined, 'title:quick (-title:fox *:*)'],
  ['quick - fox', undefined, 'title:quick title:fox'],
  ['"quick brown"', undefined, 'title:"quick brown"'],
  ['"quick brown"~2', undefined, 'title:"quick brown"~2'],
  ['qui*', undefined, 'title:qui*'],
  ['quikc~1', undefined, 'title:quikc~1'],
  ['quikc~', undefined, 'title:quikc~2'],
  ['quikc~0', undefined, 'title:quikc'],
  ['(quick | brown) + fox', undefined, '+(title:quick title:brown) +title:fox'],
  // An unclosed parenthesis or quote is dropped, not searched.
  ['quick (', undefined, 'title:quick'],
  ['"quick', undefined, 'title:quick'],
  ['', undefined, 'MatchNoDocsQuery("empty string passed to query parser")'],
  ['quick + brown', 'NONE', 'title:quick title:brown'],
  ['quick -fox', 'OR|PREFIX', 'title:quick title:fox'],
  ['qui*', 'AND', 'title:qui'],
];

for (const [query, flags, expected] of SIMPLE) {
  test(`simple_query_string ${JSON.stringify(query)}${flags === undefined ? '' : ` (flags ${flags})`} is ${expected}`, () => {
    assert.equal(build({ simple_query_string: { query, fields: ['title'], ...(flags !== undefined && { flags }) } }), expected);
  });
}

test('simple_query_string default_operator AND and minimum_should_match', () => {
  assert.equal(build({ simple_query_string: { query: 'quick brown', fields: ['title'], default_operator: 'and' } }), '+title:quick +title:brown');
  assert.equal(build({ simple_query_string: { query: 'a b c', fields: ['title'], minimum_should_match: '2' } }), '(title:a title:b title:c)~2');
});

test('simple_query_string over several fields: terms as most_fields, prefixes as dis_max(1.0)', () => {
  assert.equal(build({ simple_query_string: { query: 'quick', fields: ['title^2', 'tag'] } }), '((title:quick)^2.0 | tag:quick)~1.0');
  assert.equal(build({ simple_query_string: { query: 'qu*', fields: ['title', 'tag'] } }), '(title:qu* | tag:qu*)~1.0');
});

test('simple_query_string analyze_wildcard analyzes the prefix text, the last position stays a prefix', () => {
  assert.equal(build({ simple_query_string: { query: 'Quick-Bro*', fields: ['title'], analyze_wildcard: true } }), 'title:quick title:bro*');
  assert.equal(build({ simple_query_string: { query: 'Bro*', fields: ['title'], analyze_wildcard: true } }), 'title:bro*');
});

test('simple_query_string leniency: a field that cannot take a prefix becomes a match_none', () => {
  assert.equal(
    build({ simple_query_string: { query: 'ab*', fields: ['title', 'age'], lenient: true } }),
    '(title:ab* | MatchNoDocsQuery("failed query, caused by Can only use prefix queries on keyword, text and wildcard fields - not on [age] which is of type [integer]"))~1.0',
  );
  assert.equal(
    thrown(() => buildTopLevelQuery(parseQuery({ simple_query_string: { query: 'ab*', fields: ['title', 'age'] } }), context())).reason,
    'Can only use prefix queries on keyword, text and wildcard fields - not on [age] which is of type [integer]',
  );
});
