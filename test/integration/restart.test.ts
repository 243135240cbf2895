/**
 * A node stopped (or killed) and started again on the same data path keeps its indices — settings, mappings,
 * aliases — and every acknowledged document with its version; primaries come back from their own store with a
 * new primary term, and the operational commands see the shards and their files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

async function waitForStatus(node: NodeProcess, index: string, status: string): Promise<void> {
  const res = await node.request('GET', `/_cluster/health/${index}?wait_for_status=${status}&timeout=20s`);
  assert.equal(res.body.status, status, res.text);
}

test('stop and start: indices, mappings, settings, aliases and documents survive', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'restart-node' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/keep', {
      body: { settings: { number_of_shards: 3, number_of_replicas: 0, refresh_interval: '2s' }, mappings: { properties: { title: { type: 'text' } } }, aliases: { keep_alias: {} } },
    });
    for (let i = 0; i < 30; i++) await node.request('PUT', `/keep/_doc/${i}`, { body: { title: `doc ${i}`, n: i } });
    await node.request('PUT', '/keep/_doc/5', { body: { title: 'doc 5 again' } });
    await node.request('DELETE', '/keep/_doc/6');
    await node.request('PUT', '/yellow-one/_doc/1', { body: { a: 1 } });
    const before = await node.request('GET', '/keep/_doc/5');
    assert.equal(await node.stop(), 0);

    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'restart-node' } });
    await waitForStatus(node, 'keep', 'green');
    await waitForStatus(node, 'yellow-one', 'yellow');
    const after = await node.request('GET', '/keep/_doc/5');
    assert.equal(after.body._version, 2);
    assert.equal(after.body._seq_no, before.body._seq_no);
    assert.deepEqual(after.body._source, { title: 'doc 5 again' });
    assert.equal((await node.request('GET', '/keep/_doc/6')).status, 404);
    for (let i = 0; i < 30; i++) if (i !== 6) assert.equal((await node.request('GET', `/keep/_doc/${i}`)).body.found, true, `doc ${i}`);
    const settings = await node.request('GET', '/keep/_settings?flat_settings=true');
    assert.equal(settings.body.keep.settings['index.refresh_interval'], '2s');
    assert.equal(settings.body.keep.settings['index.number_of_shards'], '3');
    assert.deepEqual((await node.request('GET', '/keep/_mapping')).body.keep.mappings.properties.title, { type: 'text' });
    assert.deepEqual((await node.request('GET', '/keep')).body.keep.aliases, { keep_alias: {} });
    assert.equal((await node.request('GET', '/keep_alias/_doc/1')).body.found, true);
    // The restarted primaries run under a new term, and writes carry on from the old sequence numbers.
    const write = await node.request('PUT', '/keep/_doc/5', { body: { title: 'third' } });
    assert.equal(write.body._primary_term, 2);
    assert.equal(write.body._version, 3);
    assert.ok(write.body._seq_no > before.body._seq_no);
    // The operational commands see the shards and their files.
    const allocation = await node.request('GET', '/_cat/allocation?format=json&bytes=b');
    const row = allocation.body.find((entry: Record<string, string>) => entry['node'] === 'restart-node');
    assert.equal(row.shards, '4');
    assert.ok(Number(row['disk.indices']) > 0);
    const unassigned = allocation.body.find((entry: Record<string, string>) => entry['node'] === 'UNASSIGNED');
    assert.equal(unassigned.shards, '1');
    const nodes = await node.request('GET', '/_cat/nodes?h=name,indexing.index_total,get.total,segments.count&format=json');
    assert.ok(Number(nodes.body[0]['get.total']) >= 30);
    assert.ok(Number(nodes.body[0]['indexing.index_total']) >= 1);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('kill -9 right after acknowledgements: every acknowledged document is there after restart', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'killed-node' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/k', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
    const acked = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      const res = await node.request('PUT', `/k/_doc/${i % 20}`, { body: { i } });
      if (res.status < 300) acked.set(String(i % 20), res.body._version);
    }
    await node.kill9();
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'killed-node' } });
    await waitForStatus(node, 'k', 'green');
    for (const [id, version] of acked) {
      const res = await node.request('GET', `/k/_doc/${id}`);
      assert.equal(res.body.found, true, id);
      assert.equal(res.body._version, version, id);
    }
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});

test('a deleted index stays deleted after a restart, its files gone', async () => {
  let node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true, settings: { 'node.name': 'delete-node' } });
  const dataPath = node.dataPath;
  try {
    await node.request('PUT', '/temp', { body: { settings: { number_of_replicas: 0 } } });
    await node.request('PUT', '/temp/_doc/1', { body: { a: 1 } });
    const uuid = (await node.request('GET', '/temp/_settings')).body.temp.settings.index.uuid;
    await node.request('DELETE', '/temp');
    await node.stop();
    node = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath, keepData: true, settings: { 'node.name': 'delete-node' } });
    assert.equal((await node.request('HEAD', '/temp')).status, 404);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(`${dataPath}/indices/${uuid}`), false);
  } finally {
    await node.stop();
    rmSync(dataPath, { recursive: true, force: true });
  }
});
