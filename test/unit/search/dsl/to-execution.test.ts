import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BooleanQuery,
  BoostQuery,
  ConstantScoreQuery,
  MatchAllDocsQuery,
  MatchNoDocsQuery,
  PhraseQuery,
  TermQuery,
} from '../../../../src/search/index.js';
import { DisjunctionMaxQuery } from '../../../../src/search/query/dismax-query.js';
import { DocValuesRangeQuery } from '../../../../src/search/query/doc-values-range-query.js';
import { ExistsQuery } from '../../../../src/search/query/exists-query.js';
import { FuzzyQuery } from '../../../../src/search/query/multiterm/fuzzy-query.js';
import { PrefixQuery } from '../../../../src/search/query/multiterm/prefix-query.js';
import { TermInSetQuery } from '../../../../src/search/query/multiterm/term-in-set-query.js';
import { WildcardQuery } from '../../../../src/search/query/multiterm/wildcard-query.js';
import { buildTopLevelQuery, parseQuery, toExecutionQuery, UNSUPPORTED_PLAN_TYPES, type PlanQuery } from '../../../../src/search/dsl/index.js';
import { context, thrown } from './helpers.js';

function execute(query: object) {
  return toExecutionQuery(buildTopLevelQuery(parseQuery(query as never), context()));
}

test('each plan maps to the core query class that runs it', () => {
  const cases: Array<[object, Function, string]> = [
    [{ match_all: {} }, MatchAllDocsQuery, '*:*'],
    [{ match_none: {} }, MatchNoDocsQuery, 'MatchNoDocsQuery("User requested "match_none" query.")'],
    [{ term: { tag: 'a' } }, TermQuery, 'tag:a'],
    [{ match: { title: 'quick fox' } }, BooleanQuery, 'title:quick title:fox'],
    [{ match: { title: { query: 'quick', boost: 2 } } }, BoostQuery, '(title:quick)^2.0'],
    [{ constant_score: { filter: { term: { tag: 'a' } } } }, ConstantScoreQuery, 'ConstantScore(tag:a)'],
    [{ multi_match: { query: 'quick', fields: ['title', 'tag'] } }, DisjunctionMaxQuery, '(title:quick | tag:quick)'],
    [{ match_phrase: { title: 'quick fox' } }, PhraseQuery, 'title:"quick fox"'],
    [{ prefix: { tag: 'ab' } }, PrefixQuery, 'tag:ab*'],
    [{ wildcard: { tag: 'a?b*' } }, WildcardQuery, 'tag:a?b*'],
    [{ fuzzy: { title: 'quikc' } }, FuzzyQuery, 'title:quikc~1'],
    [{ range: { age: { gte: 1, lt: 10 } } }, DocValuesRangeQuery, 'age:[1 TO 9]'],
    [{ range: { price: { gte: 1.5 } } }, DocValuesRangeQuery, 'price:[1.5 TO Infinity]'],
    [{ terms: { tag: ['b', 'a'] } }, TermInSetQuery, 'tag:(a b)'],
    [{ ids: { values: ['1'] } }, TermInSetQuery, '_id:(1)'],
  ];
  for (const [query, type, text] of cases) {
    const built = execute(query);
    assert.ok(built instanceof type, `${JSON.stringify(query)} -> ${built.constructor.name}`);
    assert.equal(built.toString(), text, JSON.stringify(query));
  }
});

test('structure survives the mapping: clauses, occurs, minimum_should_match, exists, sets', () => {
  const bool = execute({ bool: { must: [{ term: { tag: 'a' } }], filter: [{ exists: { field: 'title' } }], should: [{ term: { tag: 'b' } }, { term: { tag: 'c' } }], minimum_should_match: 1 } });
  assert.ok(bool instanceof BooleanQuery);
  assert.equal(bool.minimumShouldMatch, 1);
  assert.deepEqual(bool.clauses.map((clause) => clause.occur), ['must', 'should', 'should', 'filter']);
  const exists = (bool.clauses[3]!.query as ConstantScoreQuery).query;
  assert.ok(exists instanceof ExistsQuery);
  assert.equal(exists.field, 'title');
  const set = execute({ terms: { age: [1, 2] } });
  assert.ok(set instanceof ConstantScoreQuery);
  assert.equal(set.toString(), 'ConstantScore(age:[1 TO 1] age:[2 TO 2])');
  const phrase = execute({ match_phrase: { body: 'quick the fox' } });
  assert.ok(phrase instanceof PhraseQuery);
  assert.deepEqual(phrase.positions, [0, 2]);
  const caseInsensitive = execute({ prefix: { tag: { value: 'a*', case_insensitive: true } } });
  assert.ok(caseInsensitive instanceof WildcardQuery);
  assert.equal(caseInsensitive.pattern, 'a\\**');
  assert.equal(caseInsensitive.caseInsensitive, true);
});

test('every plan type runs: none is left unsupported', () => {
  assert.deepEqual(Object.keys(UNSUPPORTED_PLAN_TYPES), []);
});

test('rewrite methods reach the multi-term queries; unknown ones are refused', () => {
  const prefix = execute({ prefix: { tag: { value: 'a', rewrite: 'top_terms_3' } } }) as PrefixQuery;
  assert.deepEqual(prefix.rewriteMethod, { kind: 'top_terms', size: 3 });
  assert.equal(thrown(() => execute({ prefix: { tag: { value: 'a', rewrite: 'fastest' } } })).reason, 'unknown rewrite method [fastest]');
});

test('a named query runs as its inner query', () => {
  const plan: PlanQuery = { type: 'named', name: 'n', query: { type: 'term', field: 'tag', term: 'a' } };
  assert.ok(toExecutionQuery(plan) instanceof TermQuery);
});
