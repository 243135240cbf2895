/**
 * `_recovery` and `_cat/recovery` on one node: a new index recovers from an EMPTY_STORE, a restarted or closed
 * one from its EXISTING_STORE (every file reused, translog operations replayed counted), with ES's shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

async function green(node: NodeProcess, index: string): Promise<void> {
  const res = await node.request('GET', `/_cluster/health/${index}?wait_for_status=green&timeout=30s`);
  assert.equal(res.body.status, 'green', res.text);
}

test('_recovery: EMPTY_STORE for a new index, EXISTING_STORE with replayed translog operations after a restart', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'recovery-node' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/test_1', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    await green(node, 'test_1');
    const fresh = await node.request('GET', '/test_1/_recovery?human');
    assert.equal(fresh.status, 200, fresh.text);
    const shards = fresh.body.test_1.shards;
    assert.deepEqual(shards.map((shard: { id: number }) => shard.id), [0, 1]);
    const first = shards[0];
    assert.deepEqual(Object.keys(first), [
      'id', 'type', 'stage', 'primary', 'start_time', 'start_time_in_millis', 'stop_time', 'stop_time_in_millis',
      'total_time', 'total_time_in_millis', 'source', 'target', 'index', 'translog', 'verify_index',
    ]);
    assert.equal(first.type, 'EMPTY_STORE');
    assert.equal(first.stage, 'DONE');
    assert.equal(first.primary, true);
    assert.match(first.start_time, /^2\d\d\d-.+/);
    assert.deepEqual(first.source, {});
    assert.equal(first.target.id, node.nodeId);
    assert.equal(first.target.name, 'recovery-node');
    assert.match(first.target.ip, /^\d+\.\d+\.\d+\.\d+$/);
    assert.deepEqual(first.index.files, { total: 0, reused: 0, recovered: 0, percent: '0.0%' });
    assert.equal(first.index.size.percent, '0.0%');
    assert.deepEqual(Object.keys(first.index.size), [
      'total', 'total_in_bytes', 'reused', 'reused_in_bytes', 'recovered', 'recovered_in_bytes', 'recovered_from_snapshot', 'recovered_from_snapshot_in_bytes', 'percent',
    ]);
    assert.equal(first.index.source_throttle_time_in_millis, 0);
    assert.deepEqual({ ...first.translog, total_time: undefined, total_time_in_millis: undefined }, {
      recovered: 0, total: 0, percent: '100.0%', total_on_start: 0, total_time: undefined, total_time_in_millis: undefined,
    });
    assert.equal(first.verify_index.check_index_time_in_millis, 0);
    // Without `human` only the raw figures are printed.
    const raw = await node.request('GET', '/test_1/_recovery');
    assert.equal(raw.body.test_1.shards[0].start_time, undefined);
    assert.equal(typeof raw.body.test_1.shards[0].start_time_in_millis, 'number');

    // Documents acknowledged but never flushed are replayed from the translog on restart.
    for (let i = 0; i < 25; i++) await node.request('PUT', `/test_1/_doc/${i}`, { body: { i } });
    await node.request('POST', '/test_1/_flush');
    for (let i = 25; i < 40; i++) await node.request('PUT', `/test_1/_doc/${i}`, { body: { i } });
    await node.kill9();
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'recovery-node' } });
    await green(node, 'test_1');
    const restarted = await node.request('GET', '/_recovery?detailed=true');
    const after = restarted.body.test_1.shards;
    assert.equal(after.length, 2);
    let replayed = 0;
    for (const shard of after) {
      assert.equal(shard.type, 'EXISTING_STORE');
      assert.equal(shard.stage, 'DONE');
      assert.deepEqual(shard.source, { bootstrap_new_history_uuid: false });
      assert.ok(shard.index.files.total > 0, JSON.stringify(shard.index));
      assert.equal(shard.index.files.reused, shard.index.files.total);
      assert.equal(shard.index.files.percent, '100.0%');
      assert.equal(shard.index.size.reused_in_bytes, shard.index.size.total_in_bytes);
      assert.ok(shard.index.size.total_in_bytes > 0);
      assert.equal(shard.index.files.details.length, shard.index.files.total);
      assert.equal(shard.index.files.details[0].reused, true);
      assert.equal(shard.translog.recovered, shard.translog.total);
      replayed += shard.translog.recovered;
    }
    assert.equal(replayed, 15);
    assert.equal((await node.request('GET', '/test_1/_count')).body.count, 40);

    // Finished recoveries are left out with active_only; a pattern matching nothing answers {}; a missing name 404s.
    assert.deepEqual((await node.request('GET', '/_recovery?active_only=true')).body, {});
    assert.deepEqual((await node.request('GET', '/v*/_recovery')).body, {});
    const missing = await node.request('GET', '/foobar/_recovery');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');

    const cat = await node.request('GET', '/_cat/recovery?h=i,s,t,ty,st,shost,thost,rep,snap,f,fr,fp,tf,b,br,bp,tb,to,tor,top');
    const lines = cat.text.trim().split('\n');
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.match(
        line,
        /^test_1\s+\d\s+(?:\d+ms|\d+(?:\.\d+)?s)\s+existing_store\s+done\s+n\/a\s+[-\w./]+\s+n\/a\s+n\/a\s+0\s+0\s+100\.0%\s+\d+\s+0b\s+0b\s+100\.0%\s+\d+(?:\.\d+)?(?:b|kb|mb)\s+\d+\s+\d+\s+100\.0%$/,
      );
    }
    const json = await node.request('GET', '/_cat/recovery/test_1?format=json&h=index,shard,type,stage,target_node&s=shard:desc');
    assert.deepEqual(json.body, [
      { index: 'test_1', shard: '1', type: 'existing_store', stage: 'done', target_node: 'recovery-node' },
      { index: 'test_1', shard: '0', type: 'existing_store', stage: 'done', target_node: 'recovery-node' },
    ]);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('_recovery of a closed index: EXISTING_STORE, nothing replayed, listed by _cat/recovery', async () => {
  const node = await NodeProcess.start();
  try {
    await node.request('PUT', '/test_2', { body: { settings: { number_of_replicas: 0 } } });
    await node.request('PUT', '/test_2/_doc/1', { body: { a: 1 } });
    assert.equal((await node.request('POST', '/test_2/_close')).body.acknowledged, true);
    await green(node, 'test_2');
    const res = await node.request('GET', '/test_2/_recovery?human');
    const shard = res.body.test_2.shards[0];
    assert.equal(shard.type, 'EXISTING_STORE');
    assert.equal(shard.stage, 'DONE');
    assert.equal(shard.translog.total, 0);
    assert.equal(shard.translog.percent, '100.0%');
    assert.ok(shard.index.files.total > 0);
    const cat = await node.request('GET', '/_cat/recovery/test_2?h=index,type,stage,to,tor,top');
    assert.match(cat.text, /^test_2\s+existing_store\s+done\s+0\s+0\s+100\.0%\n$/);
    const root = await node.request('GET', '/_cat');
    assert.ok(root.text.includes('/_cat/recovery\n/_cat/recovery/{index}\n'), root.text);
  } finally {
    await node.stop();
  }
});
