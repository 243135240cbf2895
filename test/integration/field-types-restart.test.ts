/**
 * ip, binary and date_nanos values survive a restart: flushed segments are read back (16-byte ip terms and
 * raw binary terms in sorted set doc values, 64-bit nanoseconds in long doc values), documents only in the
 * translog are replayed, and a force merge of old and new segments keeps every value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

const MAPPING = {
  properties: {
    ip: { type: 'ip' },
    at: { type: 'date_nanos' },
    blob: { type: 'binary', doc_values: true, store: true },
  },
};

async function check(node: NodeProcess, expectedIds: string[]): Promise<void> {
  const search = await node.request('POST', '/typed/_search', {
    body: { query: { term: { ip: '10.0.0.0/8' } }, sort: [{ at: 'asc' }], docvalue_fields: ['ip', 'blob', 'at'], _source: false },
  });
  assert.equal(search.status, 200, search.text);
  assert.deepEqual(search.body.hits.hits.map((hit: { _id: string }) => hit._id), expectedIds);
  for (const hit of search.body.hits.hits as Array<{ _id: string; fields: Record<string, unknown[]> }>) {
    const n = Number(hit._id.slice(1));
    assert.deepEqual(hit.fields['ip'], [`10.0.0.${n}`]);
    assert.deepEqual(hit.fields['blob'], [Buffer.from(`blob ${n}`).toString('base64')]);
    assert.deepEqual(hit.fields['at'], [`2020-01-01T00:00:00.00000000${n}Z`]);
  }
  // Sort values are the exact nanoseconds.
  for (const id of expectedIds) {
    const n = Number(id.slice(1));
    assert.ok(search.text.includes(`"sort":[157783680000000000${n}]`), `${id} sorts on its nanoseconds: ${search.text}`);
  }
  const stored = await node.request('POST', '/typed/_search', { body: { query: { ids: { values: ['d1'] } }, stored_fields: ['blob'] } });
  assert.deepEqual(stored.body.hits.hits[0].fields, { blob: [Buffer.from('blob 1').toString('base64')] });
  const agg = await node.request('POST', '/typed/_search', { body: { size: 0, aggs: { r: { ip_range: { field: 'ip', ranges: [{ mask: '10.0.0.0/30' }] } } } } });
  assert.equal(agg.body.aggregations.r.buckets[0].doc_count, expectedIds.filter((id) => Number(id.slice(1)) < 4).length);
}

test('flushed and translog-only documents of the three field types survive a restart and a force merge', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'types-restart' } });
  const dataPath = node.dataPath;
  try {
    assert.equal((await node.request('PUT', '/typed', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: MAPPING } })).status, 200);
    const put = (n: number) =>
      node.request('PUT', `/typed/_doc/d${n}`, { body: { ip: `10.0.0.${n}`, at: `2020-01-01T00:00:00.00000000${n}Z`, blob: Buffer.from(`blob ${n}`).toString('base64') } });
    for (const n of [1, 2, 3]) assert.equal((await put(n)).status, 201);
    assert.equal((await node.request('POST', '/typed/_flush')).status, 200);
    // Acknowledged but not flushed: only the translog holds these.
    for (const n of [4, 5]) assert.equal((await put(n)).status, 201);
    await node.request('POST', '/typed/_refresh');
    await check(node, ['d1', 'd2', 'd3', 'd4', 'd5']);
    assert.equal(await node.stop(), 0);

    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'types-restart' } });
    const health = await node.request('GET', '/_cluster/health/typed?wait_for_status=green&timeout=20s');
    assert.equal(health.body.status, 'green', health.text);
    await node.request('POST', '/typed/_refresh');
    await check(node, ['d1', 'd2', 'd3', 'd4', 'd5']);
    for (const n of [6]) assert.equal((await put(n)).status, 201);
    assert.equal((await node.request('POST', '/typed/_forcemerge?max_num_segments=1')).status, 200);
    await node.request('POST', '/typed/_refresh');
    await check(node, ['d1', 'd2', 'd3', 'd4', 'd5', 'd6']);
  } finally {
    await node.stop().catch(() => undefined);
    const { rmSync } = await import('node:fs');
    rmSync(dataPath, { recursive: true, force: true });
  }
});
