import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'cluster.name': 'main-test' } });
});
after(async () => {
  await node.stop();
});

test('GET / answers with the shape the official clients check', async () => {
  const res = await node.request('GET', '/');
  assert.equal(res.status, 200);
  assert.equal(res.headers['x-elastic-product'], 'Elasticsearch');
  assert.equal(res.headers['content-type'], 'application/json');
  assert.deepEqual(Object.keys(res.body), ['name', 'cluster_name', 'cluster_uuid', 'version', 'tagline']);
  assert.equal(res.body.name, 'test-node');
  assert.equal(res.body.cluster_name, 'main-test');
  assert.match(res.body.cluster_uuid, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(res.body.tagline, 'You Know, for Search');
  assert.equal(res.body.version.number, '8.19.2');
  assert.equal(res.body.version.build_flavor, 'default');
  assert.match(res.body.version.lucene_version, /^\d+\.\d+\.\d+$/);
});

test('HEAD / is 200 with no body and the product header', async () => {
  const res = await node.request('HEAD', '/');
  assert.equal(res.status, 200);
  assert.equal(res.text, '');
  assert.equal(res.headers['x-elastic-product'], 'Elasticsearch');
});

test('a second node cannot share a running node\'s data path', async () => {
  await assert.rejects(
    NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath: node.dataPath, keepData: true }),
    /failed to obtain node locks, tried \[.*\]; maybe these locations are not writable or multiple nodes were started on the same data path\?/,
  );
});

test('the node id is a 22-character base64 UUID kept across restarts', async () => {
  const first = await NodeProcess.start({ oneNode: 'restarts the node on its data path', keepData: true });
  assert.match(first.nodeId, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(await first.stop(), 0, 'SIGTERM shuts the node down cleanly with exit code 0');
  const second = await NodeProcess.start({ oneNode: 'restarts the node on its data path', dataPath: first.dataPath });
  try {
    assert.equal(second.nodeId, first.nodeId);
    const { body } = await second.request('GET', '/');
    const firstUuid = body.cluster_uuid;
    assert.match(firstUuid, /^[A-Za-z0-9_-]{22}$/);
  } finally {
    await second.stop();
  }
});

test('compatibility.version sets the reported version', async () => {
  const other = await NodeProcess.start({ settings: { 'compatibility.version': '7.17.14' } });
  try {
    const res = await other.request('GET', '/');
    assert.equal(res.body.version.number, '7.17.14');
    assert.equal(res.body.version.minimum_wire_compatibility_version, '6.8.0');
  } finally {
    await other.stop();
  }
});
