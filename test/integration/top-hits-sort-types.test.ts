/**
 * top_hits sorted on an ip field and on a date_nanos field, over HTTP against a real node with two shards (so the
 * shards' hits are merged by their sort values), answering as ES 8.19 does and as Gannet's own search sort does:
 * ip by address bytes with the address as the sort value, date_nanos by exact nanoseconds printed as that long.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'top-hits-sort-node' } });
  const created = await node.request('PUT', '/events', {
    body: {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { ip: { type: 'ip' }, at: { type: 'date_nanos' }, raw: { type: 'binary', doc_values: true } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  // Every time falls in the same millisecond: only nanoseconds tell them apart.
  const docs = [
    { ip: '10.0.0.2', at: '2024-01-01T00:00:00.000000003Z' },
    { ip: '9.0.0.1', at: '2024-01-01T00:00:00.000000001Z' },
    { ip: '::1', at: '2024-01-01T00:00:00.000000002Z' },
    { ip: '192.168.0.1', at: '2024-01-01T00:00:00.000000009Z' },
    { ip: ['172.16.0.1', '8.8.8.8'], at: ['2024-01-01T00:00:00.000000005Z', '2024-01-01T00:00:00.000000008Z'] },
  ];
  for (const [i, doc] of docs.entries()) {
    const res = await node.request('PUT', `/events/_doc/${i + 1}`, { body: doc });
    assert.equal(res.status, 201, res.text);
  }
  await node.request('POST', '/events/_refresh');
});
after(async () => {
  await node.stop();
});

async function topHits(sort: unknown, size = 5): Promise<{ text: string; hits: Array<{ _id: string; sort: unknown[] }> }> {
  const res = await node.request('POST', '/events/_search', { body: { size: 0, aggs: { top: { top_hits: { sort, size, _source: false } } } } });
  assert.equal(res.status, 200, res.text);
  return { text: res.text, hits: res.body.aggregations.top.hits.hits };
}

test('top_hits sorts an ip field by its address bytes and prints the address (multi-valued: min ascending, max descending)', async () => {
  const asc = await topHits([{ ip: 'asc' }]);
  assert.deepEqual(asc.hits.map((h) => [h._id, ...h.sort]), [['3', '::1'], ['5', '8.8.8.8'], ['2', '9.0.0.1'], ['1', '10.0.0.2'], ['4', '192.168.0.1']]);
  const desc = await topHits([{ ip: { order: 'desc' } }], 3);
  assert.deepEqual(desc.hits.map((h) => [h._id, ...h.sort]), [['4', '192.168.0.1'], ['5', '172.16.0.1'], ['1', '10.0.0.2']]);
  // The same order as the search's own ip sort.
  const search = await node.request('POST', '/events/_search', { body: { sort: [{ ip: 'asc' }], _source: false } });
  assert.deepEqual(search.body.hits.hits.map((h: { _id: string }) => h._id), asc.hits.map((h) => h._id));
});

test('top_hits sorts a date_nanos field at nanosecond resolution and prints the exact long', async () => {
  const asc = await topHits([{ at: 'asc' }]);
  assert.deepEqual(asc.hits.map((h) => h._id), ['2', '3', '1', '5', '4']);
  // Beyond 2^53: read from the text, not the parsed JSON.
  const printed = [...asc.text.matchAll(/"sort":\[(\d+)\]/g)].map((m) => m[1]);
  assert.deepEqual(printed, ['1704067200000000001', '1704067200000000002', '1704067200000000003', '1704067200000000005', '1704067200000000009']);
  const desc = await topHits([{ at: 'desc' }], 2);
  assert.deepEqual(desc.hits.map((h) => h._id), ['4', '5']);
  assert.deepEqual([...desc.text.matchAll(/"sort":\[(\d+)\]/g)].map((m) => m[1]), ['1704067200000000009', '1704067200000000008']);
});

test('a binary field still cannot sort top_hits', async () => {
  const res = await node.request('POST', '/events/_search', { body: { size: 0, aggs: { top: { top_hits: { sort: [{ raw: 'asc' }] } } } } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.root_cause[0].reason, 'Field [raw] of type [binary] is not supported for aggregation [top_hits]');
});
