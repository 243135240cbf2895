/**
 * Aggregations end to end through `_search` on a three-shard index: terms with metric sub-aggregations,
 * date_histogram with empty buckets, the metrics family and a filtered query, each checked against brute
 * force over the indexed documents; typed_keys; aggregation errors.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

interface Doc {
  readonly category: string;
  readonly price?: number;
  readonly qty: number;
  readonly ts: string;
}

const DAY = 86_400_000;
const START = Date.UTC(2024, 2, 1);

/** A deterministic pseudo-random corpus (an LCG, so the test is the same on every run). */
function corpus(): Record<string, Doc> {
  let seed = 12345;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const categories = ['books', 'music', 'tools', 'garden', 'toys', 'food'];
  const docs: Record<string, Doc> = {};
  for (let i = 0; i < 240; i++) {
    // Day 4 stays empty, so the histogram must fill in an empty bucket.
    let day = Math.floor(next() * 9);
    if (day === 4) day = 5;
    const millis = START + day * DAY + Math.floor(next() * DAY);
    docs[`d${i}`] = {
      category: categories[Math.floor(next() * next() * categories.length)]!,
      ...(i % 9 !== 0 && { price: Math.round(next() * 10000) / 100 }),
      qty: Math.floor(next() * 50),
      ts: new Date(millis).toISOString(),
    };
  }
  return docs;
}

const DOCS = corpus();
const ALL = Object.values(DOCS);

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'aggs-node' } });
  const created = await node.request('PUT', '/shop', {
    body: {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: { properties: { category: { type: 'keyword' }, price: { type: 'double' }, qty: { type: 'long' }, ts: { type: 'date' } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  const lines = Object.entries(DOCS).flatMap(([id, doc]) => [JSON.stringify({ index: { _id: id } }), JSON.stringify(doc)]);
  const bulk = await node.request('POST', '/shop/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false);
});
after(async () => {
  await node.stop();
});

function close(actual: number, expected: number, message: string): void {
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${message}: ${actual} vs ${expected}`);
}

async function aggs(body: unknown, path = '/shop/_search'): Promise<any> {
  const res = await node.request('POST', path, { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

test('terms with avg/sum sub-aggregations equal brute force over every document', async () => {
  const body = await aggs({ size: 0, aggs: { cats: { terms: { field: 'category', size: 4 }, aggs: { avg_price: { avg: { field: 'price' } }, units: { sum: { field: 'qty' } } } } } });
  assert.deepEqual(body.hits.total, { value: 240, relation: 'eq' });
  const counts = new Map<string, Doc[]>();
  for (const doc of ALL) counts.set(doc.category, [...(counts.get(doc.category) ?? []), doc]);
  const expected = [...counts].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const buckets = body.aggregations.cats.buckets;
  assert.equal(buckets.length, 4);
  assert.equal(body.aggregations.cats.doc_count_error_upper_bound, 0);
  assert.equal(body.aggregations.cats.sum_other_doc_count, expected.slice(4).reduce((sum, [, docs]) => sum + docs.length, 0));
  for (const [i, bucket] of buckets.entries()) {
    const [key, docs] = expected[i]!;
    assert.equal(bucket.key, key);
    assert.equal(bucket.doc_count, docs.length);
    const prices = docs.flatMap((doc) => (doc.price === undefined ? [] : [doc.price]));
    close(bucket.avg_price.value, prices.reduce((a, b) => a + b, 0) / prices.length, `avg ${key}`);
    close(bucket.units.value, docs.reduce((a, doc) => a + doc.qty, 0), `sum ${key}`);
  }
});

test('date_histogram by day: every day from first to last, empty ones included, counts and keys', async () => {
  const body = await aggs({ size: 0, aggs: { per_day: { date_histogram: { field: 'ts', calendar_interval: 'day' }, aggs: { q: { max: { field: 'qty' } } } } } });
  const byDay = new Map<number, Doc[]>();
  for (const doc of ALL) {
    const day = Math.floor(Date.parse(doc.ts) / DAY) * DAY;
    byDay.set(day, [...(byDay.get(day) ?? []), doc]);
  }
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const buckets = body.aggregations.per_day.buckets;
  assert.equal(buckets.length, (days[days.length - 1]! - days[0]!) / DAY + 1);
  for (const [i, bucket] of buckets.entries()) {
    const key = days[0]! + i * DAY;
    assert.equal(bucket.key, key);
    assert.equal(bucket.key_as_string, new Date(key).toISOString());
    const docs = byDay.get(key) ?? [];
    assert.equal(bucket.doc_count, docs.length);
    if (docs.length === 0) assert.equal(bucket.q.value, null);
    else assert.equal(bucket.q.value, Math.max(...docs.map((doc) => doc.qty)));
  }
  assert.ok(buckets.some((bucket: any) => bucket.doc_count === 0), 'an empty day is listed');
});

test('metrics over a filtered query: min, max, sum, avg, value_count, stats', async () => {
  const body = await aggs({
    size: 0,
    query: { bool: { filter: [{ range: { qty: { gte: 10, lt: 40 } } }, { terms: { category: ['books', 'music', 'toys'] } }] } },
    aggs: {
      min: { min: { field: 'price' } },
      max: { max: { field: 'price' } },
      sum: { sum: { field: 'price' } },
      avg: { avg: { field: 'price' } },
      count: { value_count: { field: 'price' } },
      stats: { stats: { field: 'qty' } },
    },
  });
  const docs = ALL.filter((doc) => doc.qty >= 10 && doc.qty < 40 && ['books', 'music', 'toys'].includes(doc.category));
  const prices = docs.flatMap((doc) => (doc.price === undefined ? [] : [doc.price]));
  assert.equal(body.hits.total.value, docs.length);
  const a = body.aggregations;
  close(a.min.value, Math.min(...prices), 'min');
  close(a.max.value, Math.max(...prices), 'max');
  close(a.sum.value, prices.reduce((x, y) => x + y, 0), 'sum');
  close(a.avg.value, prices.reduce((x, y) => x + y, 0) / prices.length, 'avg');
  assert.equal(a.count.value, prices.length);
  const qtys = docs.map((doc) => doc.qty);
  assert.equal(a.stats.count, qtys.length);
  assert.equal(a.stats.min, Math.min(...qtys));
  assert.equal(a.stats.max, Math.max(...qtys));
  close(a.stats.sum, qtys.reduce((x, y) => x + y, 0), 'stats.sum');
  close(a.stats.avg, qtys.reduce((x, y) => x + y, 0) / qtys.length, 'stats.avg');
});

test('typed_keys prefixes names with the aggregation type; aggregation errors are ES 400s', async () => {
  const typed = await aggs({ size: 0, aggs: { c: { terms: { field: 'category' } }, m: { max: { field: 'qty' } } } }, '/shop/_search?typed_keys');
  assert.deepEqual(Object.keys(typed.aggregations).sort(), ['max#m', 'sterms#c']);
  const text = await node.request('POST', '/shop/_search', { body: { size: 0, aggs: { bad: { sum: { field: 'category' } } } } });
  assert.equal(text.status, 400, text.text);
  assert.equal(text.body.error.type, 'search_phase_execution_exception');
  const buckets = await node.request('POST', '/shop/_search', { body: { size: 0, aggs: { h: { histogram: { field: 'qty', interval: 0 } } } } });
  assert.equal(buckets.status, 400, buckets.text);
});
