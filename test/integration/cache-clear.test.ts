/** `_cache/clear` answers ES's broadcast `_shards` header over the resolved indices' copies. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

test('_cache/clear: _shards over every copy, parameters checked, closed and missing indices as ES', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/a', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    await node.request('PUT', '/b', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } });
    await node.request('GET', '/_cluster/health/a,b?wait_for_status=yellow&timeout=30s');
    const all = await node.request('POST', '/_cache/clear');
    assert.equal(all.status, 200, all.text);
    // The unassigned replica of b counts in total but is not reached, as ES's broadcast counts it.
    assert.deepEqual(all.body, { _shards: { total: 4, successful: 3, failed: 0 } });
    const one = await node.request('POST', '/a/_cache/clear?query=true&fielddata=true&request=true&fields=f1,f2');
    assert.deepEqual(one.body, { _shards: { total: 2, successful: 2, failed: 0 } });
    const bad = await node.request('POST', '/a/_cache/clear?query=yes');
    assert.equal(bad.status, 400);
    const missing = await node.request('POST', '/nope/_cache/clear');
    assert.equal(missing.status, 404);
    await node.request('POST', '/a/_close');
    const closed = await node.request('POST', '/a/_cache/clear');
    assert.equal(closed.status, 400);
    assert.equal(closed.body.error.type, 'index_closed_exception');
  } finally {
    await node.stop();
  }
});

test('_cache/clear drops the shards\' stored-field caches and documents read the same afterwards', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/docs', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    for (let i = 0; i < 30; i++) await node.request('PUT', `/docs/_doc/${i}`, { body: { n: i, text: `document number ${i}` } });
    await node.request('POST', '/docs/_refresh');
    const before = await node.request('GET', '/docs/_search?size=30&sort=n');
    assert.equal(before.body.hits.hits.length, 30, before.text);
    // No flag (everything), request alone (still everything in ES), and the named caches Gannet does not have.
    for (const query of ['', '?request=true', '?query=true', '?fielddata=true&fields=text']) {
      const cleared = await node.request('POST', `/docs/_cache/clear${query}`);
      assert.equal(cleared.text, '{"_shards":{"total":2,"successful":2,"failed":0}}', query);
    }
    const after = await node.request('GET', '/docs/_search?size=30&sort=n');
    assert.deepEqual(
      after.body.hits.hits.map((hit: { _source: unknown }) => hit._source),
      before.body.hits.hits.map((hit: { _source: unknown }) => hit._source),
    );
    assert.deepEqual((await node.request('GET', '/docs/_doc/7')).body._source, { n: 7, text: 'document number 7' });
  } finally {
    await node.stop();
  }
});
