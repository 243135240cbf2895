/**
 * `_close` and `_open` as ES 8 answers them: a closed index keeps its data and its (replicated) routing, so health
 * still counts it, refuses reads and writes with index_closed_exception, releases its engines, shows `close` in
 * `_cat/indices`, stays closed across a restart, and reopens with every document, including those that were only
 * in the translog when it was closed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

async function health(node: NodeProcess, index: string, status: string): Promise<Record<string, unknown>> {
  const res = await node.request('GET', `/_cluster/health/${index}?wait_for_status=${status}&timeout=30s`);
  assert.equal(res.body.status, status, res.text);
  return res.body;
}

function assertClosedError(res: { status: number; body: any; text: string }, index: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'index_closed_exception', res.text);
  assert.equal(res.body.error.reason, 'closed');
  assert.equal(res.body.error.index, index);
}

test('close refuses reads and writes, keeps health, releases the engine; open brings every document back', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/logs', { body: { settings: { number_of_shards: 2, number_of_replicas: 0, refresh_interval: -1 } } });
    for (let i = 0; i < 20; i++) await node.request('PUT', `/logs/_doc/${i}`, { body: { n: i } });
    await node.request('POST', '/logs/_refresh');
    // These two live only in the indexing buffer and translog when the index closes.
    await node.request('PUT', '/logs/_doc/20', { body: { n: 20 } });
    await node.request('DELETE', '/logs/_doc/3');

    const closed = await node.request('POST', '/logs/_close');
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.text, '{"acknowledged":true,"shards_acknowledged":true,"indices":{"logs":{"closed":true}}}');

    assertClosedError(await node.request('GET', '/logs/_search'), 'logs');
    assertClosedError(await node.request('GET', '/logs/_doc/1'), 'logs');
    assertClosedError(await node.request('PUT', '/logs/_doc/99', { body: { n: 99 } }), 'logs');
    assertClosedError(await node.request('GET', '/logs/_count'), 'logs');

    // Closed indices are replicated (7.2+): health counts their copies.
    const indexHealth = await health(node, 'logs', 'green');
    assert.equal(indexHealth['active_primary_shards'], 2);
    const cat = await node.request('GET', '/_cat/indices/logs?h=health,status,index&format=json');
    assert.deepEqual(cat.body, [{ health: 'green', status: 'close', index: 'logs' }]);
    const settings = await node.request('GET', '/logs/_settings?flat_settings=true');
    assert.equal(settings.body.logs.settings['index.verified_before_close'], 'true');
    // The engines are gone: this node holds no open shard any more.
    const stats = await node.request('GET', '/_nodes/_local/stats/indices/docs');
    const nodeStats = Object.values(stats.body.nodes)[0] as { indices: { docs: { count: number } } };
    assert.equal(nodeStats.indices.docs.count, 0);

    // Closing a closed index changes nothing (ES: empty indices, shards not acknowledged).
    assert.equal((await node.request('POST', '/logs/_close')).text, '{"acknowledged":true,"shards_acknowledged":false,"indices":{}}');

    const opened = await node.request('POST', '/logs/_open');
    assert.equal(opened.text, '{"acknowledged":true,"shards_acknowledged":true}');
    await health(node, 'logs', 'green');
    const count = await node.request('GET', '/logs/_count');
    assert.equal(count.body.count, 20);
    assert.equal((await node.request('GET', '/logs/_doc/20')).body.found, true);
    assert.equal((await node.request('GET', '/logs/_doc/3')).status, 404);
    assert.equal((await node.request('PUT', '/logs/_doc/21', { body: { n: 21 } })).status, 201);
    const reopenedSettings = await node.request('GET', '/logs/_settings?flat_settings=true');
    assert.equal(reopenedSettings.body.logs.settings['index.verified_before_close'], undefined);
  } finally {
    await node.stop();
  }
});

test('close: wildcards need action.destructive_requires_name=false, then answer per index; open takes wildcards', async () => {
  const node = await NodeProcess.start();
  try {
    for (const name of ['index_1', 'index_2', 'index_3']) await node.request('PUT', `/${name}`, { body: { settings: { number_of_replicas: 0 } } });
    const refused = await node.request('POST', '/index_*/_close');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.type, 'illegal_argument_exception');
    assert.equal(refused.body.error.reason, 'Wildcard expressions or all indices are not allowed');
    assert.equal((await node.request('POST', '/_close')).status, 400);

    await node.request('PUT', '/_cluster/settings', { body: { transient: { 'action.destructive_requires_name': false } } });
    const closed = await node.request('POST', '/index_*/_close?wait_for_active_shards=all');
    assert.deepEqual(closed.body, { acknowledged: true, shards_acknowledged: true, indices: { index_1: { closed: true }, index_2: { closed: true }, index_3: { closed: true } } });
    const statuses = await node.request('GET', '/_cat/indices/index_*?h=index,status&s=index&format=json&expand_wildcards=open,closed');
    assert.deepEqual(statuses.body.map((row: { status: string }) => row.status), ['close', 'close', 'close']);
    // Search over a pattern skips closed indices (they are not expanded); naming one is an error.
    const search = await node.request('GET', '/index_*/_search');
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body._shards.total, 0);

    const missing = await node.request('POST', '/nope/_open');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    const opened = await node.request('POST', '/index_*/_open?wait_for_active_shards=1');
    assert.deepEqual(opened.body, { acknowledged: true, shards_acknowledged: true });
    // Opening open indices is acknowledged (nothing to do, every shard active).
    assert.deepEqual((await node.request('POST', '/index_1/_open')).body, { acknowledged: true, shards_acknowledged: true });
    const bad = await node.request('POST', '/index_1/_close?wait_for_active_shards=x');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, 'number_format_exception');
  } finally {
    await node.stop();
  }
});

test('a closed index stays closed across a restart and reopens with every document', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'closed-restart' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/cold', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
    for (let i = 0; i < 30; i++) await node.request('PUT', `/cold/_doc/${i}`, { body: { i } });
    assert.equal((await node.request('POST', '/cold/_close')).body.acknowledged, true);
    assert.equal(await node.stop(), 0);

    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'closed-restart' } });
    await health(node, 'cold', 'green');
    const cat = await node.request('GET', '/_cat/indices/cold?h=status&format=json');
    assert.deepEqual(cat.body, [{ status: 'close' }]);
    assertClosedError(await node.request('GET', '/cold/_search'), 'cold');
    assert.equal((await node.request('POST', '/cold/_open')).body.shards_acknowledged, true);
    assert.equal((await node.request('GET', '/cold/_count')).body.count, 30);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
