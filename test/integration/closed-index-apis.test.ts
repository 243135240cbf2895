/**
 * The index-level APIs on a closed index as ES 8 answers them: refresh, flush, force merge, cache clear and stats
 * (BroadcastRequest's strictExpandOpenAndForbidClosed) refuse a named closed index with index_closed_exception
 * carrying the index's real uuid, skip it with `ignore_unavailable=true` or behind a wildcard, and `_cat/indices`
 * leaves a closed index's statistic cells blank.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

test('broadcast APIs and stats refuse a named closed index and skip it otherwise', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/cold', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    await node.request('PUT', '/warm', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await node.request('PUT', '/cold/_doc/1?refresh=true', { body: { n: 1 } });
    const uuid = (await node.request('GET', '/cold/_settings')).body.cold.settings.index.uuid as string;
    assert.equal((await node.request('POST', '/cold/_close')).status, 200);

    const refusals: Array<[string, string]> = [
      ['POST', '/cold/_refresh'],
      ['POST', '/cold/_flush'],
      ['POST', '/cold/_forcemerge'],
      ['POST', '/cold/_cache/clear'],
      ['GET', '/cold/_stats'],
      ['POST', '/warm,cold/_refresh'],
    ];
    for (const [method, path] of refusals) {
      const res = await node.request(method, path);
      assert.equal(res.status, 400, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.type, 'index_closed_exception', path);
      assert.equal(res.body.error.reason, 'closed');
      assert.equal(res.body.error.index, 'cold');
      assert.equal(res.body.error.index_uuid, uuid, `${path} names the closed index's uuid`);
      assert.deepEqual(res.body.error.root_cause[0].index_uuid, uuid);
    }

    // Writes check the closed state after resolving the write index: the same uuid.
    const write = await node.request('PUT', '/cold/_doc/2', { body: { n: 2 } });
    assert.equal(write.body.error.type, 'index_closed_exception', write.text);
    assert.equal(write.body.error.index_uuid, uuid);
    const bulk = await node.request('POST', '/_bulk', { raw: '{"index":{"_index":"cold","_id":"3"}}\n{"n":3}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.items[0].index.error.type, 'index_closed_exception', bulk.text);
    assert.equal(bulk.body.items[0].index.error.index_uuid, uuid);

    // ignore_unavailable skips the closed index; wildcards never expand to it.
    const skipped = await node.request('POST', '/warm,cold/_refresh?ignore_unavailable=true');
    assert.equal(skipped.text, '{"_shards":{"total":1,"successful":1,"failed":0}}');
    const all = await node.request('POST', '/_refresh');
    assert.equal(all.text, '{"_shards":{"total":1,"successful":1,"failed":0}}');
    const flushed = await node.request('POST', '/*/_flush');
    assert.equal(flushed.text, '{"_shards":{"total":1,"successful":1,"failed":0}}');
    const merged = await node.request('POST', '/cold/_forcemerge?ignore_unavailable=true');
    assert.equal(merged.text, '{"_shards":{"total":0,"successful":0,"failed":0}}');
    const stats = await node.request('GET', '/_stats/docs');
    assert.deepEqual(Object.keys(stats.body.indices), ['warm']);

    // forbid_closed_indices=false lets stats name the closed index (its copies hold no engine to report from).
    const lenient = await node.request('GET', '/cold/_stats/docs?forbid_closed_indices=false');
    assert.equal(lenient.status, 200, lenient.text);
    assert.deepEqual(Object.keys(lenient.body.indices), ['cold']);
  } finally {
    await node.stop();
  }
});

test('_cat/indices leaves the statistic cells of a closed index blank', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/cold', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await node.request('PUT', '/cold/_doc/1?refresh=true', { body: { n: 1 } });
    assert.equal((await node.request('POST', '/cold/_close')).status, 200);
    await node.request('GET', '/_cluster/health/cold?wait_for_status=green&timeout=30s');

    const columns = 'health,status,index,pri,rep,docs.count,docs.deleted,store.size,pri.store.size,dataset.size,search.query_total,segments.count,memory.total,search.throttled';
    const cat = await node.request('GET', `/_cat/indices/cold?h=${columns}&format=json&bytes=b`);
    assert.equal(cat.status, 200, cat.text);
    assert.deepEqual(cat.body, [
      {
        health: 'green',
        status: 'close',
        index: 'cold',
        pri: '1',
        rep: '0',
        'docs.count': null,
        'docs.deleted': null,
        'store.size': null,
        'pri.store.size': null,
        'dataset.size': null,
        'search.query_total': null,
        'segments.count': null,
        'memory.total': '0',
        'search.throttled': 'false',
      },
    ]);

    // In text the blank cells are padded, not zeros.
    const text = await node.request('GET', '/_cat/indices/cold?h=status,docs.count,store.size,pri');
    assert.match(text.text, /^close +1\n$/);
  } finally {
    await node.stop();
  }
});
