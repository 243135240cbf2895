/**
 * The small corpus most search tests use, and the queries of the Lucene oracle: the same ten documents
 * were indexed with Lucene 8.7.0 (StandardAnalyzer without stop words, one segment) and the same queries
 * run there; fixtures/lucene-oracle.ts holds what Lucene returned.
 */
import type { Searcher } from '../../../../src/engine/searcher.js';
import {
  BM25Similarity,
  BooleanQuery,
  BoostQuery,
  ConstantScoreQuery,
  IndexSearcher,
  PhraseQuery,
  TermQuery,
  type Occur,
  type Query,
} from '../../../../src/search/index.js';
import { DisjunctionMaxQuery } from '../../../../src/search/query/dismax-query.js';
import { FuzzyQuery } from '../../../../src/search/query/multiterm/fuzzy-query.js';
import { PrefixQuery } from '../../../../src/search/query/multiterm/prefix-query.js';
import { WildcardQuery } from '../../../../src/search/query/multiterm/wildcard-query.js';
import { buildSearcher, type Mappings, type TestDoc } from './test-indexer.js';

export const BODIES = [
  'the quick brown fox jumps over the lazy dog',
  'quick quick brown dogs',
  'a lazy fox sleeps',
  'brown fox brown fox brown fox',
  'the dog and the fox and the quick cat',
  '',
  'fox',
  'jumps over quick fox lazy',
  'quack quick quirk quick',
  'brown dog brown fox brown',
];

export const TAGS: readonly (readonly string[])[] = [['a'], ['b'], ['a', 'b'], [], ['c'], ['a'], [], ['b'], ['a'], []];

export const SMALL_MAPPINGS: Mappings = { body: { type: 'text' }, tag: { type: 'keyword' } };

export function smallDocs(): TestDoc[] {
  return BODIES.map((body, i) => ({ id: String(i), source: { body, tag: [...TAGS[i]!] } }));
}

/** The corpus in one segment. */
export async function smallSearcher(legacyK1Factor = false): Promise<IndexSearcher> {
  const reader: Searcher = await buildSearcher([smallDocs()], SMALL_MAPPINGS);
  return new IndexSearcher(reader, { similarity: new BM25Similarity({ legacyK1Factor }) });
}

export const term = (text: string, field = 'body'): TermQuery => new TermQuery(field, text);

export function bool(clauses: ReadonlyArray<readonly [Occur, Query]>, minimumShouldMatch = 0): BooleanQuery {
  return new BooleanQuery(
    clauses.map(([occur, query]) => ({ occur, query })),
    minimumShouldMatch,
  );
}

/** The oracle queries, by the names fixtures/lucene-oracle.ts uses. */
export function oracleQueries(): Record<string, Query> {
  return {
    term_fox: term('fox'),
    term_quick: term('quick'),
    or_fox_quick: bool([['should', term('fox')], ['should', term('quick')]]),
    and_fox_quick: bool([['must', term('fox')], ['must', term('quick')]]),
    must_fox_filter_quick: bool([['must', term('fox')], ['filter', term('quick')]]),
    should_fox_lazy_not_dog: bool([['should', term('fox')], ['should', term('lazy')], ['must_not', term('dog')]]),
    msm2_fox_quick_lazy: bool([['should', term('fox')], ['should', term('quick')], ['should', term('lazy')]], 2),
    must_fox_should_quick: bool([['must', term('fox')], ['should', term('quick')]]),
    phrase_quick_brown: new PhraseQuery('body', ['quick', 'brown']),
    phrase_brown_fox: new PhraseQuery('body', ['brown', 'fox']),
    sloppy_fox_quick_2: new PhraseQuery('body', ['fox', 'quick'], { slop: 2 }),
    sloppy_brown_fox_brown_2: new PhraseQuery('body', ['brown', 'fox', 'brown'], { slop: 2 }),
    sloppy_quick_fox_lazy_3: new PhraseQuery('body', ['quick', 'fox', 'lazy'], { slop: 3 }),
    dismax_fox_quick: new DisjunctionMaxQuery([term('fox'), term('quick')], 0.3),
    dismax0_fox_quick: new DisjunctionMaxQuery([term('fox'), term('quick')], 0),
    const_fox: new BoostQuery(new ConstantScoreQuery(term('fox')), 2.5),
    boost_fox: new BoostQuery(term('fox'), 3),
    fuzzy_quack: new FuzzyQuery('body', 'quack', { maxEdits: 1 }),
    fuzzy_quikc: new FuzzyQuery('body', 'quikc', { maxEdits: 2 }),
    prefix_qu: new PrefixQuery('body', 'qu'),
    wildcard_f_x: new WildcardQuery('body', 'f?x'),
    should_boosted_fox_phrase_lazy_dog: bool([['should', new BoostQuery(term('fox'), 2)], ['should', new PhraseQuery('body', ['lazy', 'dog'])]]),
    tag_a: term('a', 'tag'),
    tag_or_body: bool([['should', term('b', 'tag')], ['should', term('brown')]]),
    filter_only: bool([['filter', term('fox')], ['filter', term('brown')]]),
    dup_should: bool([['should', term('fox')], ['should', term('fox')], ['should', term('dog')]]),
  };
}
