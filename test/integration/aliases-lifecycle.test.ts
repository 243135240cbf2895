/**
 * Aliases over time: definitions survive a restart (filter, routings, write flag, hidden), and the zero-downtime
 * reindex pattern works end to end (read and write through an alias, reindex into a new index with a new
 * mapping, swap the alias in one `_aliases` request, drop the old index), with searches through the alias
 * answering throughout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

test('alias definitions survive a restart', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'alias-restart' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/kept', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, aliases: { kept_plain: {} } } });
    await node.request('POST', '/_aliases', {
      body: {
        actions: [
          { add: { index: 'kept', alias: 'kept_filtered', filter: { term: { tag: 'x' } }, index_routing: 'a', search_routing: 'a,b', is_write_index: true } },
          { add: { index: 'kept', alias: 'kept_hidden', is_hidden: true } },
        ],
      },
    });
    await node.request('PUT', '/kept_filtered/_doc/1?refresh=true', { body: { tag: 'x' } });
    await node.request('PUT', '/kept/_doc/2?refresh=true', { body: { tag: 'y' } });
    const before = (await node.request('GET', '/kept/_alias')).body;
    assert.equal(await node.stop(), 0);

    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'alias-restart' } });
    const health = await node.request('GET', '/_cluster/health/kept?wait_for_status=green&timeout=20s');
    assert.equal(health.body.status, 'green', health.text);
    const after = (await node.request('GET', '/kept/_alias')).body;
    assert.deepEqual(after, before);
    assert.deepEqual(after.kept.aliases.kept_filtered, { filter: { term: { tag: 'x' } }, index_routing: 'a', search_routing: 'a,b', is_write_index: true });
    const filtered = await node.request('GET', '/kept_filtered/_search');
    assert.deepEqual(filtered.body.hits.hits.map((hit: { _id: string }) => hit._id), ['1']);
    assert.equal((await node.request('GET', '/kept_filtered/_doc/1')).body._routing, 'a');
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('reindex into a new index, then swap the alias: readers and writers never see a gap', async () => {
  const node = await NodeProcess.start({ settings: { 'node.name': 'alias-swap' } });
  try {
    await node.request('PUT', '/products_v1', {
      body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: { properties: { name: { type: 'keyword' } } }, aliases: { products: {} } },
    });
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ index: { _index: 'products', _id: String(i) } }), JSON.stringify({ name: `Product ${i}`, price: i }));
    const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.body.errors, false, bulk.text);
    assert.equal((await node.request('GET', '/products/_count')).body.count, 50);

    // The new index maps `name` as text so it becomes searchable by word.
    await node.request('PUT', '/products_v2', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { name: { type: 'text' } } } },
    });
    const reindex = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'products' }, dest: { index: 'products_v2' } } });
    assert.equal(reindex.status, 200, reindex.text);
    assert.equal(reindex.body.created, 50);

    const swap = await node.request('POST', '/_aliases', {
      body: { actions: [{ remove: { index: 'products_v1', alias: 'products' } }, { add: { index: 'products_v2', alias: 'products' } }] },
    });
    assert.equal(swap.status, 200, swap.text);
    assert.deepEqual(Object.keys((await node.request('GET', '/_alias/products')).body), ['products_v2']);
    const byWord = await node.request('POST', '/products/_search', { body: { query: { match: { name: 'product' } }, size: 0 } });
    assert.equal(byWord.body.hits.total.value, 50, 'the alias now reads the new mapping');
    const write = await node.request('PUT', '/products/_doc/new?refresh=true', { body: { name: 'Product new', price: 99 } });
    assert.equal(write.body._index, 'products_v2');

    assert.equal((await node.request('DELETE', '/products_v1')).status, 200);
    assert.equal((await node.request('GET', '/products/_count')).body.count, 51);
    const cat = await node.request('GET', '/_cat/aliases/products?h=alias,index');
    assert.equal(cat.text, 'products products_v2\n');
  } finally {
    await node.stop();
  }
});
