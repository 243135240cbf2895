import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'asserts a one-node state (this node the master; three nodes: test/cluster/three-nodes)', settings: { 'cluster.name': 'state-test', 'node.name': 'state-node' } });
  await node.request('PUT', '/alpha', { body: { settings: { number_of_shards: 2, number_of_replicas: 1 }, mappings: { properties: { title: { type: 'text' } } }, aliases: { first: {} } } });
  await node.request('PUT', '/beta', { body: { settings: { number_of_replicas: 0, 'index.blocks.write': true } } });
  await node.request('GET', '/_cluster/health?wait_for_no_initializing_shards=true&timeout=60s');
});
after(async () => {
  await node.stop();
});

test('the full state: header fields first, then blocks, nodes, metadata, routing table and routing nodes', async () => {
  const res = await node.request('GET', '/_cluster/state');
  assert.equal(res.status, 200);
  const body = res.body;
  assert.deepEqual(Object.keys(body), ['cluster_name', 'cluster_uuid', 'version', 'state_uuid', 'master_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes']);
  assert.equal(body.cluster_name, 'state-test');
  assert.equal(body.master_node, node.nodeId);
  assert.equal(body.metadata.cluster_uuid, body.cluster_uuid);
  const self = body.nodes[node.nodeId];
  assert.deepEqual(Object.keys(self), ['name', 'ephemeral_id', 'transport_address', 'external_id', 'attributes', 'roles', 'version', 'min_index_version', 'max_index_version']);
  assert.equal(self.name, 'state-node');
  assert.deepEqual(body.blocks, { indices: { beta: { '8': { description: 'index write (api)', retryable: false, levels: ['write'] } } } });

  const alpha = body.metadata.indices.alpha;
  assert.equal(alpha.state, 'open');
  assert.equal(alpha.settings.index.number_of_shards, '2');
  assert.deepEqual(alpha.mappings, { _doc: { properties: { title: { type: 'text' } } } });
  assert.deepEqual(alpha.aliases, ['first']);
  assert.deepEqual(Object.keys(alpha.in_sync_allocations), ['0', '1']);
  assert.deepEqual(body.metadata.indices.beta.mappings, {});

  const shard0 = body.routing_table.indices.alpha.shards['0'];
  assert.equal(shard0.length, 2);
  const [primary, replica] = shard0;
  assert.deepEqual(Object.keys(primary), ['state', 'primary', 'node', 'relocating_node', 'shard', 'index', 'allocation_id']);
  assert.equal(primary.state, 'STARTED');
  assert.equal(primary.node, node.nodeId);
  assert.deepEqual(alpha.in_sync_allocations['0'], [primary.allocation_id.id]);
  assert.equal(replica.state, 'UNASSIGNED');
  assert.equal(replica.node, null);
  assert.equal(replica.unassigned_info.reason, 'INDEX_CREATED');
  assert.equal(replica.unassigned_info.allocation_status, 'no_attempt');

  assert.equal(body.routing_nodes.unassigned.length, 2, 'the two alpha replicas');
  assert.equal(body.routing_nodes.nodes[node.nodeId].length, 3, 'two alpha primaries and beta');
});

test('metrics pick parts; unknown metrics are ignored; cluster_name and cluster_uuid always come', async () => {
  const cerebro = await node.request('GET', '/_cluster/state/master_node,routing_table,blocks');
  assert.deepEqual(Object.keys(cerebro.body), ['cluster_name', 'cluster_uuid', 'master_node', 'blocks', 'routing_table']);
  const version = await node.request('GET', '/_cluster/state/version');
  assert.deepEqual(Object.keys(version.body), ['cluster_name', 'cluster_uuid', 'version', 'state_uuid']);
  const unknown = await node.request('GET', '/_cluster/state/nonsense');
  assert.deepEqual(Object.keys(unknown.body), ['cluster_name', 'cluster_uuid']);
  const all = await node.request('GET', '/_cluster/state/_all/beta');
  assert.deepEqual(Object.keys(all.body.metadata.indices), ['beta']);
});

test('an {indices} filter narrows metadata, routing table and blocks; missing indices are skipped', async () => {
  const res = await node.request('GET', '/_cluster/state/metadata,routing_table,blocks/al*,missing?flat_settings=true');
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body.metadata.indices), ['alpha']);
  assert.deepEqual(Object.keys(res.body.routing_table.indices), ['alpha']);
  assert.equal(res.body.metadata.indices.alpha.settings['index.number_of_shards'], '2');
  assert.deepEqual(res.body.blocks, {});
});

test('the state version moves with cluster-state changes', async () => {
  const before = (await node.request('GET', '/_cluster/state/version')).body.version;
  await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': 1000 } } });
  const after = (await node.request('GET', '/_cluster/state/version')).body.version;
  assert.ok(after > before, `${after} > ${before}`);
});
