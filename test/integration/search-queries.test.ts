/**
 * The query kinds of issue 4 through `_search` on a real node: term ranges on keyword fields, regexp
 * (Lucene syntax and flags), match_phrase_prefix, boosting, function_score (field_value_factor, decay,
 * filters, explain) and multi_match cross_fields (blended statistics), with hits, order and scores checked
 * against ES's formulas (BM25 written out in test/unit/search/helpers/bm25-reference.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { bm25 } from '../unit/search/helpers/bm25-reference.js';

let node: NodeProcess;
const f = Math.fround;

const DOCS: Record<string, Record<string, unknown>> = {
  '1': { title: 'quick fox', body: 'lazy dog', tag: 'apple', n: 10, day: '2024-01-10' },
  '2': { title: 'quick quick dog', body: 'fox fox', tag: 'banana', n: 20, day: '2024-01-15' },
  '3': { title: 'lazy fox jumps', body: 'fox', tag: 'cherry', n: [5, 30], day: '2024-01-20' },
  '4': { title: 'quick', body: 'fox dog', tag: 'Apple' },
  '5': { title: 'dog', body: 'cat', tag: 'date', n: 40, day: '2023-12-31' },
};

/** JSON carries a float score as its shortest digits: compare as floats. */
function equalFloat(actual: number | undefined, expected: number | undefined, message?: string): void {
  assert.ok(actual !== undefined && expected !== undefined, message);
  assert.equal(f(actual), f(expected), message);
}

async function search(body: unknown): Promise<any> {
  const res = await node.request('POST', '/q/_search', { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** `_id -> _score` of the hits, and the ids in rank order. */
async function hits(query: unknown): Promise<{ ids: string[]; scores: Map<string, number> }> {
  const body = await search({ query, size: 20 });
  const list = body.hits.hits as Array<{ _id: string; _score: number }>;
  return { ids: list.map((hit) => hit._id), scores: new Map(list.map((hit) => [hit._id, hit._score])) };
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'queries-node' } });
  const created = await node.request('PUT', '/q', {
    body: {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { properties: { title: { type: 'text' }, body: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' }, day: { type: 'date' } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  const lines = Object.entries(DOCS).flatMap(([id, doc]) => [JSON.stringify({ index: { _id: id } }), JSON.stringify(doc)]);
  const bulk = await node.request('POST', '/q/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, bulk.text);
  assert.equal(bulk.body.errors, false, bulk.text);
});

after(async () => {
  await node.stop();
});

test('range on a keyword field: byte order (uppercase sorts first), constant score', async () => {
  const { ids, scores } = await hits({ range: { tag: { gte: 'Apple', lt: 'cherry' } } });
  assert.deepEqual([...ids].sort(), ['1', '2', '4']);
  assert.ok([...scores.values()].every((score) => score === 1));
  const open = await hits({ range: { tag: { gt: 'banana' } } });
  assert.deepEqual([...open.ids].sort(), ['3', '5']);
});

test('regexp: Lucene syntax with flags and case_insensitive', async () => {
  assert.deepEqual((await hits({ regexp: { tag: 'a.*|d@' } })).ids.sort(), ['1', '5']);
  assert.deepEqual((await hits({ regexp: { tag: { value: '~(a.*)&[a-z]+', flags: 'COMPLEMENT|INTERSECTION' } } })).ids.sort(), ['2', '3', '5']);
  assert.deepEqual((await hits({ regexp: { tag: { value: 'd@', flags: 'NONE' } } })).ids, []);
  assert.deepEqual((await hits({ regexp: { tag: { value: 'APPLE', case_insensitive: true } } })).ids.sort(), ['1', '4']);
  assert.deepEqual((await hits({ query_string: { query: 'tag:/[a-c].*/' } })).ids.sort(), ['1', '2', '3']);
});

test('match_phrase_prefix: scored as the phrase of its expansion', async () => {
  const prefix = await hits({ match_phrase_prefix: { title: 'quick f' } });
  const phrase = await hits({ match_phrase: { title: 'quick fox' } });
  assert.deepEqual(prefix.ids, ['1']);
  equalFloat(prefix.scores.get('1'), phrase.scores.get('1'));
  // title: lengths 2, 3, 3, 1, 1 (sum 10); quick in 3 docs, fox in 2.
  equalFloat(prefix.scores.get('1'), bm25({ freq: 1, length: 2, docCount: 5, sumTotalTermFreq: 10, docFreqs: [3, 2], legacy: true }));
});

test('boosting: negative matches are scaled by negative_boost', async () => {
  const positive = await hits({ match: { title: 'fox' } });
  const boosted = await hits({ boosting: { positive: { match: { title: 'fox' } }, negative: { term: { tag: 'cherry' } }, negative_boost: 0.2 } });
  equalFloat(boosted.scores.get('1'), positive.scores.get('1'));
  equalFloat(boosted.scores.get('3'), f(f(positive.scores.get('3')!) * f(0.2)));
  assert.deepEqual(boosted.ids, ['1', '3']);
});

test('function_score: field_value_factor and gauss decay with filters, ES arithmetic; explain', async () => {
  const base = await hits({ match: { title: 'quick' } });
  const got = await hits({
    function_score: {
      query: { match: { title: 'quick' } },
      functions: [{ field_value_factor: { field: 'n', modifier: 'sqrt', missing: 4 } }, { filter: { term: { tag: 'banana' } }, gauss: { n: { origin: 0, scale: 20 } } }],
      score_mode: 'multiply',
    },
  });
  const gaussScale = (0.5 * 20 ** 2) / Math.log(0.5);
  equalFloat(got.scores.get('1'), f(f(base.scores.get('1')!) * Math.sqrt(10)));
  equalFloat(got.scores.get('2'), f(f(base.scores.get('2')!) * (Math.sqrt(20) * Math.exp((0.5 * 20 ** 2) / gaussScale))));
  equalFloat(got.scores.get('4'), f(f(base.scores.get('4')!) * Math.sqrt(4)));
  const explained = await search({ query: { function_score: { query: { term: { tag: 'banana' } }, weight: 3 } }, explain: true });
  const explanation = explained.hits.hits[0]._explanation;
  assert.equal(explanation.description, 'function score, product of:');
  assert.equal(explanation.value, explained.hits.hits[0]._score);
  assert.deepEqual(explanation.details[1], {
    value: 3,
    description: 'min of:',
    details: [
      { value: 3, description: 'product of:', details: [{ value: 1, description: 'constant score 1.0 - no function provided', details: [] }, { value: 3, description: 'weight', details: [] }] },
      { value: 3.4028235e38, description: 'maxBoost', details: [] },
    ],
  });
  const dates = await hits({ function_score: { linear: { day: { origin: '2024-01-15', scale: '10d' } }, boost_mode: 'replace' } });
  equalFloat(dates.scores.get('2'), 1);
  equalFloat(dates.scores.get('1'), f((20 - 5) / 20), 'linear: (scale / (1 - decay) - distance) / (scale / (1 - decay)) in days');
  const min = await hits({ function_score: { field_value_factor: { field: 'n', missing: 0 }, boost_mode: 'replace', min_score: 15 } });
  // Values n: 10, 20, 5 (the lowest of 5 and 30), missing (0), 40.
  assert.deepEqual([...min.ids].sort(), ['2', '5']);
});

test('multi_match cross_fields: blended document frequencies across fields', async () => {
  const got = await hits({ multi_match: { query: 'fox', type: 'cross_fields', fields: ['title', 'body'] } });
  // fox: title df 2, body df 3 (lengths 2, 2, 1, 2, 1: sum 8). Blended: body keeps 3, title gets 4.
  const title = (freq: number, length: number) => bm25({ freq, length, docCount: 5, sumTotalTermFreq: 10, docFreqs: [4], legacy: true });
  const body = (freq: number, length: number) => bm25({ freq, length, docCount: 5, sumTotalTermFreq: 8, docFreqs: [3], legacy: true });
  equalFloat(got.scores.get('1'), title(1, 2));
  equalFloat(got.scores.get('2'), body(2, 2));
  equalFloat(got.scores.get('3'), Math.max(title(1, 3), body(1, 1)));
  equalFloat(got.scores.get('4'), body(1, 2));
  assert.equal(got.ids.length, 4);
});
