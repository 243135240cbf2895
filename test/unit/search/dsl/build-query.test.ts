import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTopLevelQuery, parseQuery, type PlanQuery } from '../../../../src/search/dsl/index.js';
import { context, NOW, thrown } from './helpers.js';

type Json = { [key: string]: unknown };

function build(query: Json, overrides: Parameters<typeof context>[0] = {}): PlanQuery {
  return buildTopLevelQuery(parseQuery(query as never), context(overrides));
}

const term = (field: string, value: string): PlanQuery => ({ type: 'term', field, term: value });
const should = (query: PlanQuery) => ({ occur: 'should' as const, query });
const must = (query: PlanQuery) => ({ occur: 'must' as const, query });
const longRange = (field: string, lower: bigint, upper: bigint): PlanQuery => ({ type: 'long_range', field, lower, upper });
const DAY = 86_400_000;
const JAN_15 = BigInt(Date.UTC(2020, 0, 15));
const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

test('match: analyzed with the field\'s search analyzer into per-position clauses', () => {
  assert.deepEqual(build({ match: { title: 'Quick Brown' } }), { type: 'bool', clauses: [should(term('title', 'quick')), should(term('title', 'brown'))], minimumShouldMatch: 0 });
  assert.deepEqual(build({ match: { title: { query: 'quick brown', operator: 'and' } } }), {
    type: 'bool',
    clauses: [must(term('title', 'quick')), must(term('title', 'brown'))],
    minimumShouldMatch: 0,
  });
  assert.deepEqual(build({ match: { title: { query: 'a b c d', minimum_should_match: '-25%' } } }), {
    type: 'bool',
    clauses: ['a', 'b', 'c', 'd'].map((word) => should(term('title', word))),
    minimumShouldMatch: 3,
  });
  assert.deepEqual(build({ match: { title: 'quick' } }), term('title', 'quick'));
  assert.deepEqual(build({ match: { body: 'The Running' } }), term('body', 'run'));
});

test('match: fuzziness makes fuzzy queries sized by each term', () => {
  assert.deepEqual(build({ match: { title: { query: 'quikc ab', fuzziness: 'AUTO', prefix_length: 1, fuzzy_rewrite: 'top_terms_3' } } }), {
    type: 'bool',
    clauses: [
      should({ type: 'fuzzy', field: 'title', term: 'quikc', maxEdits: 1, prefixLength: 1, maxExpansions: 50, transpositions: true, rewrite: 'top_terms_3' }),
      should({ type: 'fuzzy', field: 'title', term: 'ab', maxEdits: 0, prefixLength: 1, maxExpansions: 50, transpositions: true, rewrite: 'top_terms_3' }),
    ],
    minimumShouldMatch: 0,
  });
});

test('match: zero_terms_query when analysis leaves nothing', () => {
  assert.deepEqual(build({ match: { body: 'the' } }), { type: 'match_none', reason: 'Matching no documents because no terms present' });
  assert.deepEqual(build({ match: { body: { query: 'the', zero_terms_query: 'all' } } }), { type: 'match_all' });
});

test('match on non-text fields: the field type parses the whole text', () => {
  assert.deepEqual(build({ match: { tag: 'Foo Bar' } }), term('tag', 'Foo Bar'));
  assert.deepEqual(build({ match: { lower: 'Foo Bar' } }), term('lower', 'foo bar'));
  assert.deepEqual(build({ match: { age: '42' } }), longRange('age', 42n, 42n));
  assert.deepEqual(build({ match: { flag: 'true' } }), term('flag', 'T'));
  assert.deepEqual(build({ match: { date: '2020-01-15' } }), longRange('date', JAN_15, JAN_15 + BigInt(DAY - 1)));
  assert.deepEqual(build({ match: { age: { query: 'abc', lenient: true } } }), {
    type: 'match_none',
    reason: 'failed [age] query, caused by number_format_exception:[For input string: "abc"]',
  });
  assert.deepEqual(thrown(() => build({ match: { age: 'abc' } })), {
    type: 'query_shard_exception',
    reason: 'failed to create query: For input string: "abc"',
    index_uuid: 'uuid-1',
    index: 'test',
    caused_by: { type: 'number_format_exception', reason: 'For input string: "abc"' },
  } as never);
});

test('match: unmapped field, unknown analyzer', () => {
  assert.deepEqual(build({ match: { nope: 'x' } }), { type: 'match_none', reason: 'unmapped fields [nope]' });
  assert.deepEqual(thrown(() => build({ match: { title: { query: 'x', analyzer: 'nope' } } })), {
    type: 'query_shard_exception',
    reason: '[match] analyzer [nope] not found',
    index_uuid: 'uuid-1',
    index: 'test',
  } as never);
});

test('match_phrase and match_phrase_prefix keep the analyzer\'s positions', () => {
  assert.deepEqual(build({ match_phrase: { title: 'quick the fox' } }), {
    type: 'phrase',
    field: 'title',
    terms: [
      { term: 'quick', position: 0 },
      { term: 'the', position: 1 },
      { term: 'fox', position: 2 },
    ],
    slop: 0,
  });
  // english drops "the" and leaves its position empty.
  assert.deepEqual(build({ match_phrase: { body: { query: 'quick the foxes', slop: 2 } } }), {
    type: 'phrase',
    field: 'body',
    terms: [
      { term: 'quick', position: 0 },
      { term: 'fox', position: 2 },
    ],
    slop: 2,
  });
  assert.deepEqual(build({ match_phrase: { title: 'quick' } }), term('title', 'quick'));
  assert.deepEqual(build({ match_phrase_prefix: { title: { query: 'quick br', max_expansions: 7 } } }), {
    type: 'phrase_prefix',
    field: 'title',
    terms: [
      { term: 'quick', position: 0 },
      { term: 'br', position: 1 },
    ],
    slop: 0,
    maxExpansions: 7,
  });
  const noPositions = thrown(() => build({ match_phrase: { nopos: 'a b' } }));
  assert.equal(noPositions.reason, 'failed to create query: field:[nopos] was indexed without position data; cannot run PhraseQuery');
  assert.equal(noPositions.caused_by?.type, 'illegal_state_exception');
  assert.equal(
    thrown(() => build({ match_phrase_prefix: { tag: 'ab' } })).reason,
    'failed to create query: Can only use phrase prefix queries on text fields - not on [tag] which is of type [keyword]',
  );
});

test('multi_match types', () => {
  const fields = ['title^2', 'tag'];
  assert.deepEqual(build({ multi_match: { query: 'quick', fields } }), {
    type: 'dis_max',
    queries: [{ type: 'boost', query: term('title', 'quick'), boost: 2 }, term('tag', 'quick')],
    tieBreaker: 0,
  });
  assert.deepEqual(build({ multi_match: { query: 'quick', fields, type: 'most_fields' } }), {
    type: 'dis_max',
    queries: [{ type: 'boost', query: term('title', 'quick'), boost: 2 }, term('tag', 'quick')],
    tieBreaker: 1,
  });
  assert.deepEqual(build({ multi_match: { query: 'quick fox', fields: ['title', 'body'], type: 'phrase', tie_breaker: 0.3 } }), {
    type: 'dis_max',
    queries: [
      { type: 'phrase', field: 'title', terms: [{ term: 'quick', position: 0 }, { term: 'fox', position: 1 }], slop: 0 },
      { type: 'phrase', field: 'body', terms: [{ term: 'quick', position: 0 }, { term: 'fox', position: 1 }], slop: 0 },
    ],
    tieBreaker: Math.fround(0.3),
  });
  assert.deepEqual(build({ multi_match: { query: 'quick br', fields: ['title'], type: 'bool_prefix' } }), {
    type: 'bool',
    clauses: [should(term('title', 'quick')), should({ type: 'prefix', field: 'title', prefix: 'br', caseInsensitive: false })],
    minimumShouldMatch: 0,
  });
  assert.deepEqual(build({ multi_match: { query: 'x', fields: ['nope', 'nada'] } }), { type: 'match_none', reason: 'unmapped fields []' });
});

test('multi_match cross_fields blends a term across the fields of one analyzer', () => {
  assert.deepEqual(build({ multi_match: { query: 'quick fox', fields: ['title', 'user.name^3'], type: 'cross_fields', operator: 'and' } }), {
    type: 'dis_max',
    queries: [
      { type: 'bool', clauses: [must(term('title', 'quick')), must(term('title', 'fox'))], minimumShouldMatch: 0 },
      { type: 'boost', query: term('user.name', 'quick fox'), boost: 3 },
    ],
    tieBreaker: 0,
  });
  assert.deepEqual(build({ multi_match: { query: 'quick fox', fields: ['title^2', 'title.raw'], analyzer: 'standard', type: 'cross_fields' } }), {
    type: 'bool',
    clauses: [
      should({ type: 'blended_terms', terms: [{ field: 'title', term: 'quick', boost: 2 }, { field: 'title.raw', term: 'quick', boost: 1 }], tieBreaker: 0 }),
      should({ type: 'blended_terms', terms: [{ field: 'title', term: 'fox', boost: 2 }, { field: 'title.raw', term: 'fox', boost: 1 }], tieBreaker: 0 }),
    ],
    minimumShouldMatch: 0,
  });
});

test('multi_match field patterns and the default `*` (lenient unless told otherwise)', () => {
  const built = build({ multi_match: { query: 'quick', fields: ['t*'] } });
  assert.deepEqual(built, { type: 'dis_max', queries: [term('title', 'quick'), term('title.raw', 'quick'), term('tag', 'quick')], tieBreaker: 0 });
  const all = build({ multi_match: { query: 'x' } });
  assert.equal(all.type, 'dis_max');
  assert.ok((all as { queries: readonly PlanQuery[] }).queries.some((query) => query.type === 'match_none' && query.reason.startsWith('failed [age] query')));
  assert.equal(thrown(() => build({ multi_match: { query: 'x', lenient: false } })).reason, 'failed to create query: For input string: "x"');
  assert.equal(
    thrown(() => build({ multi_match: { query: 'x' } }, { maxClauseCount: 3 })).reason,
    'failed to create query: field expansion matches too many fields, limit: 3, got: 16',
  );
});

test('term: values converted per field type, never analyzed', () => {
  assert.deepEqual(build({ term: { title: 'Quick Fox' } }), term('title', 'Quick Fox'));
  assert.deepEqual(build({ term: { lower: 'ABC' } }), term('lower', 'abc'));
  assert.deepEqual(build({ term: { tag: { value: 'a*b', case_insensitive: true } } }), { type: 'wildcard', field: 'tag', pattern: 'a\\*b', caseInsensitive: true });
  assert.deepEqual(build({ term: { age: '7' } }), longRange('age', 7n, 7n));
  assert.deepEqual(build({ term: { age: 5.5 } }), { type: 'match_none', reason: 'Value [5.5] has a decimal part' });
  assert.equal(thrown(() => build({ term: { age: 3000000000 } })).reason, 'failed to create query: Value [3000000000] is out of range for an integer');
  assert.deepEqual(build({ term: { count: 9007199254740993n } as never }), longRange('count', 9007199254740993n, 9007199254740993n));
  assert.equal(thrown(() => build({ term: { count: 1e30 } })).reason, 'failed to create query: Value [1.0E30] is out of range for a long');
  assert.deepEqual(build({ term: { price: 1.5 } }), { type: 'double_range', field: 'price', lower: 1.5, upper: 1.5 });
  assert.deepEqual(build({ term: { ratio: 0.1 } }), { type: 'double_range', field: 'ratio', lower: Math.fround(0.1), upper: Math.fround(0.1) });
  assert.deepEqual(build({ term: { scaled: 1.234 } }), longRange('scaled', 123n, 123n));
  assert.deepEqual(build({ term: { flag: 'false' } }), term('flag', 'F'));
  assert.equal(thrown(() => build({ term: { flag: 'yes' } })).reason, "failed to create query: Can't parse boolean value [yes], expected [true] or [false]");
  assert.deepEqual(build({ term: { date: '2020-01-15T10:00:00Z' } }), longRange('date', JAN_15 + 36_000_000n, JAN_15 + 36_000_999n));
  assert.deepEqual(build({ term: { _id: '1' } }), term('_id', '1'));
  assert.deepEqual(build({ term: { _index: 'test' } }), { type: 'match_all' });
  assert.deepEqual(build({ term: { nope: 'x' } }), { type: 'match_none', reason: 'User requested "match_none" query.', rewritten: true });
});

test('terms', () => {
  assert.deepEqual(build({ terms: { lower: ['A', 'b'] } }), { type: 'term_set', field: 'lower', terms: ['a', 'b'] });
  assert.deepEqual(build({ terms: { age: [1, 2.5, '3'] } }), { type: 'long_set', field: 'age', values: [1n, 3n] });
  assert.deepEqual(build({ terms: { age: [2.5] } }), { type: 'match_none', reason: 'All values have a decimal part' });
  assert.deepEqual(build({ terms: { price: [1, '2.5'] } }), { type: 'double_set', field: 'price', values: [1, 2.5] });
  assert.deepEqual(build({ terms: { flag: [true] } }), { type: 'term_set', field: 'flag', terms: ['T'] });
  assert.deepEqual(build({ terms: { tag: [] } }), { type: 'match_none', reason: 'The "terms" query was rewritten to a "match_none" query.', rewritten: true });
  assert.deepEqual(build({ terms: { nope: ['a'] } }), { type: 'match_none', reason: 'The "terms" query is against a field that does not exist', rewritten: true });
  assert.deepEqual(thrown(() => build({ terms: { tag: ['a', 'b', 'c'] } }, { maxTermsCount: 2 })), {
    type: 'query_shard_exception',
    reason:
      'failed to create query: The number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.',
    index_uuid: 'uuid-1',
    index: 'test',
    caused_by: {
      type: 'illegal_argument_exception',
      reason:
        'The number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.',
    },
  } as never);
});

test('range on numbers: exclusive and decimal bounds move inwards as ES does', () => {
  assert.deepEqual(build({ range: { age: { gt: 1.5, lte: 10 } } }), longRange('age', 2n, 10n));
  assert.deepEqual(build({ range: { age: { gt: 1, lt: 10 } } }), longRange('age', 2n, 9n));
  assert.deepEqual(build({ range: { age: { gte: -1.5, lt: -0.5 } } }), longRange('age', -1n, -1n));
  assert.deepEqual(build({ range: { age: { gte: 5 } } }), longRange('age', 5n, INT_MAX));
  assert.deepEqual(build({ range: { age: { lte: '5' } } }), longRange('age', INT_MIN, 5n));
  assert.deepEqual(build({ range: { count: { lt: 0 } } }), longRange('count', LONG_MIN, -1n));
  assert.deepEqual(build({ range: { price: { gt: 1, lte: 2 } } }), { type: 'double_range', field: 'price', lower: 1.0000000000000002, upper: 2 });
  assert.deepEqual(build({ range: { ratio: { lt: 1 } } }), { type: 'double_range', field: 'ratio', lower: -Infinity, upper: Math.fround(0.99999994) });
  assert.deepEqual(build({ range: { scaled: { gt: 1.234, lte: 2 } } }), longRange('scaled', 124n, 200n));
  assert.equal(thrown(() => build({ range: { age: { gt: 'abc' } } })).reason, 'failed to create query: For input string: "abc"');
});

test('range on dates: formats, rounding, date math with an injected now, time zones', () => {
  const day = (d: number): bigint => BigInt(Date.UTC(2020, 0, d));
  assert.deepEqual(build({ range: { date: { gte: '2020-01-01', lte: '2020-01-31' } } }), longRange('date', day(1), day(32) - 1n));
  assert.deepEqual(build({ range: { date: { gt: '2020-01-01', lt: '2020-01-31' } } }), longRange('date', day(2), day(31) - 1n));
  assert.deepEqual(build({ range: { date: { gte: 'now-1d/d', lte: 'now/d' } } }), longRange('date', day(14), day(16) - 1n));
  assert.deepEqual(build({ range: { date: { gte: 'now' } } }), longRange('date', BigInt(NOW), LONG_MAX));
  assert.deepEqual(build({ range: { date: { gte: '15/01/2020', format: 'dd/MM/yyyy' } } }), longRange('date', day(15), LONG_MAX));
  assert.deepEqual(build({ range: { date: { gte: '2020-01-15T00:00:00', time_zone: '+01:00' } } }), longRange('date', day(15) - 3_600_000n, LONG_MAX));
  assert.deepEqual(build({ range: { date: { gte: '2020-01-15T00:00:00Z', time_zone: '+01:00' } } }), longRange('date', day(15), LONG_MAX));
  assert.deepEqual(build({ range: { date: { gte: 1579046400000 } } }), longRange('date', day(15), LONG_MAX));
  assert.deepEqual(build({ range: { day: { lte: '2020-01-15' } } }), longRange('day', LONG_MIN, day(16) - 1n));
  const bad = thrown(() => build({ range: { date: { gte: 'not a date' } } }));
  assert.equal(bad.type, 'query_shard_exception');
  assert.equal(bad.caused_by?.type, 'parse_exception');
});

test('range on terms, without bounds, on unmapped fields', () => {
  assert.deepEqual(build({ range: { lower: { gte: 'A', lt: 'M' } } }), { type: 'term_range', field: 'lower', lower: 'a', upper: 'm', includeLower: true, includeUpper: false });
  assert.deepEqual(build({ range: { flag: { gte: false } } }), { type: 'term_range', field: 'flag', lower: 'F', includeLower: true, includeUpper: true });
  assert.deepEqual(build({ range: { age: {} } }), { type: 'constant_score', query: { type: 'field_exists', field: 'age' } });
  assert.deepEqual(build({ range: { nope: { gt: 1 } } }), { type: 'match_none', reason: 'User requested "match_none" query.', rewritten: true });
});

test('exists: a field, an object, a pattern, metadata', () => {
  const exists = (field: string): PlanQuery => ({ type: 'field_exists', field });
  assert.deepEqual(build({ exists: { field: 'title' } }), { type: 'constant_score', query: exists('title') });
  assert.deepEqual(build({ exists: { field: 'user' } }), {
    type: 'constant_score',
    query: { type: 'bool', clauses: [should(exists('user.name')), should(exists('user.email'))], minimumShouldMatch: 0 },
  });
  assert.deepEqual(build({ exists: { field: 'user.*' } }), {
    type: 'constant_score',
    query: {
      type: 'bool',
      clauses: [should({ type: 'constant_score', query: exists('user.name') }), should({ type: 'constant_score', query: exists('user.email') })],
      minimumShouldMatch: 0,
    },
  });
  assert.deepEqual(build({ exists: { field: '_id' } }), { type: 'constant_score', query: { type: 'match_all' } });
  assert.deepEqual(build({ exists: { field: 'nope' } }), { type: 'match_none', reason: 'The "exists" query was rewritten to a "match_none" query.', rewritten: true });
});

test('prefix, wildcard, regexp, fuzzy', () => {
  assert.deepEqual(build({ prefix: { lower: 'AB' } }), { type: 'prefix', field: 'lower', prefix: 'ab', caseInsensitive: false });
  assert.deepEqual(build({ prefix: { title: { value: 'Ab', rewrite: 'top_terms_10' } } }), {
    type: 'prefix',
    field: 'title',
    prefix: 'Ab',
    caseInsensitive: false,
    rewrite: 'top_terms_10',
  });
  assert.deepEqual(build({ wildcard: { title: 'Qu*CK' } }), { type: 'wildcard', field: 'title', pattern: 'qu*ck', caseInsensitive: false });
  assert.deepEqual(build({ wildcard: { tag: 'Qu*CK' } }), { type: 'wildcard', field: 'tag', pattern: 'Qu*CK', caseInsensitive: false });
  assert.deepEqual(build({ regexp: { tag: { value: 'a.*', flags: 'ALL' } } }), { type: 'regexp', field: 'tag', pattern: 'a.*', flags: 0xff, caseInsensitive: false, maxDeterminizedStates: 10000 });
  assert.deepEqual(build({ fuzzy: { title: 'quikc' } }), { type: 'fuzzy', field: 'title', term: 'quikc', maxEdits: 1, prefixLength: 0, maxExpansions: 50, transpositions: true });
  assert.deepEqual(thrown(() => build({ prefix: { age: '1' } })), {
    type: 'query_shard_exception',
    reason: 'Can only use prefix queries on keyword, text and wildcard fields - not on [age] which is of type [integer]',
    index_uuid: 'uuid-1',
    index: 'test',
  } as never);
  assert.equal(thrown(() => build({ fuzzy: { age: '1' } })).reason, 'failed to create query: Can only use fuzzy queries on keyword and text fields - not on [age] which is of type [integer]');
  assert.equal(
    thrown(() => build({ prefix: { tag: 'x'.repeat(1001) } })).reason,
    'failed to create query: The length of prefix [1001] used in the Prefix Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
  );
  assert.deepEqual(build({ wildcard: { nope: 'a*' } }), { type: 'match_none', reason: 'The "wildcard" query was rewritten to a "match_none" query.', rewritten: true });
});

test('ids', () => {
  assert.deepEqual(build({ ids: { values: ['1', '2'] } }), { type: 'term_set', field: '_id', terms: ['1', '2'] });
  assert.deepEqual(build({ ids: { values: [] } }), { type: 'match_none', reason: 'The "ids" query was rewritten to a "match_none" query.', rewritten: true });
});

test('bool: ES\'s clause order, pure negatives, minimum_should_match, rewrites around match_none', () => {
  const a = term('tag', 'a');
  const b = term('tag', 'b');
  assert.deepEqual(build({ bool: { filter: [{ term: { tag: 'b' } }], should: [{ term: { tag: 'a' } }], must_not: [{ term: { tag: 'b' } }], must: [{ term: { tag: 'a' } }] } }), {
    type: 'bool',
    clauses: [must(a), { occur: 'must_not', query: b }, should(a), { occur: 'filter', query: b }],
    minimumShouldMatch: 0,
  });
  assert.deepEqual(build({ bool: { must_not: [{ term: { tag: 'a' } }] } }), {
    type: 'bool',
    clauses: [{ occur: 'must_not', query: a }, { occur: 'filter', query: { type: 'match_all' } }],
    minimumShouldMatch: 0,
  });
  // adjust_pure_negative: false keeps a nested pure negative as it is (the top level is always adjusted).
  assert.deepEqual(build({ bool: { must: [{ bool: { must_not: [{ term: { tag: 'a' } }], adjust_pure_negative: false } }] } }), {
    type: 'bool',
    clauses: [must({ type: 'bool', clauses: [{ occur: 'must_not', query: a }], minimumShouldMatch: 0 })],
    minimumShouldMatch: 0,
  });
  assert.deepEqual(build({ bool: { should: [{ term: { tag: 'a' } }, { term: { tag: 'b' } }, { term: { tag: 'c' } }], minimum_should_match: '2<-1' } }), {
    type: 'bool',
    clauses: [should(a), should(b), should(term('tag', 'c'))],
    minimumShouldMatch: 2,
  });
  assert.deepEqual(build({ bool: { boost: 3 } }), { type: 'boost', query: { type: 'match_all' }, boost: 3 });
  const none = { type: 'match_none', reason: 'The "bool" query was rewritten to a "match_none" query.', rewritten: true };
  assert.deepEqual(build({ bool: { must: [{ term: { tag: 'a' } }, { term: { nope: 'x' } }] } }), none);
  assert.deepEqual(build({ bool: { filter: [{ match_none: {} }] } }), none);
  assert.deepEqual(build({ bool: { must_not: [{ match_all: {} }] } }), none);
  assert.deepEqual(build({ bool: { should: [{ term: { nope: 'x' } }, { ids: { values: [] } }] } }), none);
  // A match on an unmapped field is not a builder rewrite: it stays a clause.
  assert.deepEqual(build({ bool: { must: [{ match: { nope: 'x' } }] } }), {
    type: 'bool',
    clauses: [must({ type: 'match_none', reason: 'unmapped fields [nope]' })],
    minimumShouldMatch: 0,
  });
  assert.deepEqual(thrown(() => build({ bool: { should: [{ term: { tag: 'a' } }, { term: { tag: 'b' } }, { term: { tag: 'c' } }] } }, { maxClauseCount: 2 })), {
    type: 'query_shard_exception',
    reason: 'failed to create query: maxClauseCount is set to 2',
    index_uuid: 'uuid-1',
    index: 'test',
    caused_by: { type: 'too_many_clauses', reason: 'maxClauseCount is set to 2' },
  } as never);
});

test('boost and _name wrap the built query', () => {
  assert.deepEqual(build({ term: { tag: { value: 'a', boost: 2, _name: 'tagged' } } }), { type: 'named', name: 'tagged', query: { type: 'boost', query: term('tag', 'a'), boost: 2 } });
});

test('constant_score, dis_max, boosting, function_score', () => {
  assert.deepEqual(build({ constant_score: { filter: { term: { tag: 'a' } }, boost: 2 } }), {
    type: 'boost',
    query: { type: 'constant_score', query: term('tag', 'a') },
    boost: 2,
  });
  assert.deepEqual(build({ constant_score: { filter: { term: { nope: 'a' } } } }), { type: 'match_none', reason: 'User requested "match_none" query.', rewritten: true });
  assert.deepEqual(build({ dis_max: { queries: [{ term: { tag: 'a' } }, { term: { tag: 'b' } }], tie_breaker: 0.5 } }), {
    type: 'dis_max',
    queries: [term('tag', 'a'), term('tag', 'b')],
    tieBreaker: 0.5,
  });
  assert.deepEqual(build({ boosting: { positive: { term: { tag: 'a' } }, negative: { term: { tag: 'b' } }, negative_boost: 0.25 } }), {
    type: 'boosting',
    positive: term('tag', 'a'),
    negative: term('tag', 'b'),
    negativeBoost: 0.25,
  });
  assert.deepEqual(
    build({
      function_score: {
        query: { term: { tag: 'a' } },
        functions: [
          { gauss: { date: { scale: '10d', offset: '1d', decay: 0.3 } } },
          { filter: { term: { tag: 'b' } }, exp: { price: { origin: 10, scale: '2' } }, weight: 2 },
          { field_value_factor: { field: 'age', modifier: 'log1p' } },
        ],
        score_mode: 'max',
      },
    }),
    {
      type: 'function_score',
      query: term('tag', 'a'),
      functions: [
        { function: { kind: 'decay', shape: 'gauss', field: 'date', origin: NOW, scale: 10 * DAY, offset: DAY, decay: 0.3, multiValueMode: 'min' } },
        { filter: term('tag', 'b'), function: { kind: 'decay', shape: 'exp', field: 'price', origin: 10, scale: 2, offset: 0, decay: 0.5, multiValueMode: 'min' }, weight: 2 },
        { function: { kind: 'field_value_factor', field: 'age', factor: 1, modifier: 'log1p' } },
      ],
      scoreMode: 'max',
      boostMode: 'multiply',
      maxBoost: Math.fround(3.4028234663852886e38),
    },
  );
  assert.equal(
    thrown(() => build({ function_score: { linear: { price: { scale: 2 } } } })).reason,
    'failed to create query: both [scale] and [origin] must be set for numeric fields.',
  );
  assert.equal(
    thrown(() => build({ function_score: { gauss: { tag: { origin: 'a', scale: 1 } } } })).reason,
    'field [tag] is of type [keyword], but only numeric types are supported.',
  );
});
