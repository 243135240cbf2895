/**
 * The query kinds added for issue 4 (term range, regexp, boosting, multi-phrase as phrase_prefix rewrites
 * to) return exactly what Lucene 8.7.0 returned on the small corpus (oracle/queries-oracle.ts, recorded by
 * oracle/QueriesOracle.java): same docs, same order, bit-identical float scores, the same explanation text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatToString, type Query } from '../../../../src/search/index.js';
import { BoostQuery } from '../../../../src/search/query/boost-query.js';
import { BoostByQuery } from '../../../../src/search/query/boosting/boost-by-query.js';
import { RegexpQuery } from '../../../../src/search/query/multiterm/regexp-query.js';
import { TermRangeQuery } from '../../../../src/search/query/multiterm/term-range-query.js';
import { MultiPhraseQuery } from '../../../../src/search/query/phrase/multi-phrase-query.js';
import { smallSearcher, term } from '../helpers/small-corpus.js';
import { ORACLE_EXPLANATIONS, ORACLE_LINES } from './oracle/queries-oracle.js';

/** Lucene's RegExp.NONE: no optional operator, `@` `~` `&` `<` `#` are literal characters. */
const NONE = 0;

function queries(): Record<string, Query> {
  return {
    range_brown_fox: new TermRangeQuery('body', { lower: 'brown', upper: 'fox', includeLower: true, includeUpper: true }),
    range_excl_brown_fox: new TermRangeQuery('body', { lower: 'brown', upper: 'fox', includeLower: false, includeUpper: false }),
    range_open_dog: new TermRangeQuery('body', { upper: 'dog', includeLower: true, includeUpper: false }),
    range_tag_b_open: new TermRangeQuery('tag', { lower: 'b', includeLower: true, includeUpper: true }),
    regexp_qu_ai_ck: new RegexpQuery('body', 'qu[ai]ck'),
    regexp_complement: new RegexpQuery('body', '~(f.*|d.*|q.*|b.*)'),
    regexp_intersection: new RegexpQuery('body', '.*o.*&.{3}'),
    regexp_anystring: new RegexpQuery('body', '@k'),
    regexp_none_literal: new RegexpQuery('body', '@k', { flags: NONE }),
    regexp_interval_tag: new RegexpQuery('tag', '<1-10>|a'),
    boosting_fox_not_dog: new BoostByQuery(term('fox'), term('dog'), 0.2),
    boosting_boosted: new BoostQuery(new BoostByQuery(term('quick'), term('brown'), 0.5), 3),
    multiphrase_quick_qu: new MultiPhraseQuery('body', [['quick'], ['quack', 'quick', 'quirk']], [0, 1]),
    multiphrase_brown_f: new MultiPhraseQuery('body', [['brown'], ['fox']], [0, 1]),
    multiphrase_sloppy_fox_qu: new MultiPhraseQuery('body', [['fox'], ['quack', 'quick', 'quirk']], [0, 1], 2),
    multiphrase_sloppy_overlap: new MultiPhraseQuery('body', [['quick'], ['quack', 'quick', 'quirk']], [0, 1], 2),
    multiphrase_brown_do: new MultiPhraseQuery('body', [['brown'], ['dog', 'dogs']], [0, 1]),
  };
}

test('hits, order and scores equal Lucene 8.7 (ES legacy BM25)', async () => {
  const searcher = await smallSearcher(true);
  const ours = Object.entries(queries()).map(([name, query]) => {
    const top = searcher.topDocs(query, 20, { trackTotalHitsUpTo: 1000 });
    return `${name} total=${top.totalHits.value} ${top.scoreDocs.map((hit) => `${hit.doc}:${floatToString(hit.score)}`).join(' ')}`.trimEnd();
  });
  assert.deepEqual(ours, ORACLE_LINES);
});

test('explanations print as Lucene prints them', async () => {
  const searcher = await smallSearcher(true);
  const all = queries();
  for (const [key, expected] of Object.entries(ORACLE_EXPLANATIONS)) {
    const [which, name] = key.split(':') as [string, string];
    const query = all[name]!;
    const hits = searcher.topDocs(query, 20).scoreDocs;
    const hit = which === 'explain' ? hits[0]! : hits[hits.length - 1]!;
    const explanation = searcher.explain(query, hit.doc);
    assert.equal(explanation.toString(), expected, key);
  }
});

test('every hit explains to its score', async () => {
  const searcher = await smallSearcher(true);
  for (const [name, query] of Object.entries(queries())) {
    for (const hit of searcher.topDocs(query, 20).scoreDocs) {
      const explanation = searcher.explain(query, hit.doc);
      assert.ok(explanation.isMatch, `${name} doc ${hit.doc}`);
      assert.equal(Math.fround(explanation.value), hit.score, `${name} doc ${hit.doc}`);
    }
  }
});
