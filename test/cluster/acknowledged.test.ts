/**
 * `acknowledged` across nodes (issue 12, ES's AckedClusterStateUpdateTask): an acked change answers once every
 * node applied the state it published, so any node reads the change right after the answer; a node that does
 * not apply it within `timeout` makes the answer `acknowledged: false` (and `shards_acknowledged: false`), and
 * the change is still committed (reroute's too). `wait_for_active_shards=all` on three nodes waits for every copy.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd/etcd-coordinator.js';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';

describe('acknowledged with three nodes', () => {
  let cluster: InProcessCluster;
  before(async () => {
    cluster = await InProcessCluster.start(3);
  });
  after(async () => {
    await cluster?.stop();
  });

  async function nonMasters(): Promise<InProcessNode[]> {
    const master = (await cluster.nodes[0]!.request('GET', '/_cluster/state/master_node')).body.master_node as string;
    return cluster.nodes.filter((node) => node.nodeId !== master);
  }

  const watchOf = (node: InProcessNode) => node.node.coordinatorForTest as EtcdCoordinator;

  /** A started replica of `index`: its shard number and node id. */
  async function replicaCopy(through: InProcessNode, index: string): Promise<{ shard: number; node: string }> {
    const routing = await through.request('GET', `/_cluster/state/routing_table/${index}`);
    for (const [shard, copies] of Object.entries(routing.body.routing_table.indices[index].shards as Record<string, any[]>)) {
      const replica = copies.find((copy) => !copy.primary && copy.state === 'STARTED');
      if (replica !== undefined) return { shard: Number(shard), node: replica.node };
    }
    throw new Error(`no started replica of [${index}]: ${routing.text}`);
  }

  test('every node has applied an acked change when the answer comes', async () => {
    const [a, b, c] = cluster.nodes;
    const created = await b!.request('PUT', '/acked?wait_for_active_shards=all', { body: { settings: { number_of_shards: 3, number_of_replicas: 1 } } });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body, { acknowledged: true, shards_acknowledged: true, index: 'acked' });
    const health = await c!.request('GET', '/_cluster/health/acked');
    assert.equal(health.body.active_shards, 6, 'all six copies were active when create answered');
    for (let i = 0; i < 5; i++) {
      const through = cluster.nodes[i % 3]!;
      const put = await through.request('PUT', '/acked/_mapping', { body: { properties: { [`f${i}`]: { type: 'keyword' } } } });
      assert.deepEqual(put.body, { acknowledged: true });
      // Read each node's own applied state, never asking the master.
      for (const node of [a!, b!, c!]) {
        const metadata = node.node.nodeServices.clusterService.state().indices.get('acked');
        assert.ok(Object.hasOwn((metadata?.mappings as { properties: object }).properties, `f${i}`), `${node.name} had applied f${i} when the put answered`);
      }
    }
    const settings = await c!.request('PUT', '/acked/_settings', { body: { index: { refresh_interval: '5s' } } });
    assert.deepEqual(settings.body, { acknowledged: true });
    for (const node of cluster.nodes) assert.equal(node.node.nodeServices.clusterService.state().indices.get('acked')?.settings['index.refresh_interval'], '5s');
    // A reroute that changes the routing answers once every node applied the state it published.
    const replica = await replicaCopy(a!, 'acked');
    const rerouted = await a!.request('POST', '/_cluster/reroute', { body: { commands: [{ cancel: { index: 'acked', shard: replica.shard, node: replica.node } }] } });
    assert.equal(rerouted.status, 200, rerouted.text);
    assert.equal(rerouted.body.acknowledged, true);
    for (const node of cluster.nodes) assert.ok(node.node.nodeServices.clusterService.state().version >= rerouted.body.state.version, `${node.name} applied the rerouted state`);
    assert.equal((await a!.request('GET', '/_cluster/health/acked?wait_for_status=green&timeout=30s')).body.status, 'green');
  });

  test('a node that does not apply in time makes the answer acknowledged: false; the change still commits', async () => {
    const [slow, other] = await nonMasters();
    await watchOf(slow!).pauseStateWatchForTest();
    try {
      const started = Date.now();
      const put = await other!.request('PUT', '/acked/_mapping?timeout=500ms', { body: { properties: { late: { type: 'long' } } } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, { acknowledged: false });
      assert.ok(Date.now() - started >= 450, 'waited for the ack timeout');
      const created = await other!.request('PUT', '/acked-late?timeout=500ms');
      assert.equal(created.status, 200, created.text);
      assert.deepEqual(created.body, { acknowledged: false, shards_acknowledged: false, index: 'acked-late' });
      const alias = await other!.request('POST', '/_aliases?timeout=300ms', { body: { actions: [{ add: { index: 'acked', alias: 'late-alias' } }] } });
      assert.deepEqual(alias.body, { acknowledged: false, errors: false });
      const clusterSettings = await other!.request('PUT', '/_cluster/settings?timeout=300ms', { body: { persistent: { 'cluster.routing.allocation.enable': 'all' } } });
      assert.equal(clusterSettings.body.acknowledged, false, clusterSettings.text);
      // Reroute publishes a state too: its `acknowledged` waits for the nodes as well (it said true at once before).
      const replica = await replicaCopy(other!, 'acked');
      const rerouted = await other!.request('POST', '/_cluster/reroute?timeout=300ms&metric=none', { body: { commands: [{ cancel: { index: 'acked', shard: replica.shard, node: replica.node } }] } });
      assert.equal(rerouted.status, 200, rerouted.text);
      assert.deepEqual(rerouted.body, { acknowledged: false });
      // Committed regardless: the nodes that follow the state see it.
      const mapping = await other!.request('GET', '/acked/_mapping');
      assert.equal(mapping.body.acked.mappings.properties.late.type, 'long');
      assert.equal((await other!.request('HEAD', '/acked-late')).status, 200);
      assert.equal(slow!.node.nodeServices.clusterService.state().indices.has('acked-late'), false, 'the paused node did not apply it');
    } finally {
      await watchOf(slow!).resumeStateWatchForTest();
    }
    await cluster.settle();
    const put = await other!.request('PUT', '/acked/_mapping', { body: { properties: { later: { type: 'long' } } } });
    assert.deepEqual(put.body, { acknowledged: true }, 'acknowledged again once the node follows');
    const deleted = await slow!.request('DELETE', '/acked-late');
    assert.deepEqual(deleted.body, { acknowledged: true });
  });

  test('close and open wait for acks, then for the copies', async () => {
    const node = cluster.nodes[2]!;
    const closed = await node.request('POST', '/acked/_close');
    assert.equal(closed.status, 200, closed.text);
    assert.deepEqual(closed.body, { acknowledged: true, shards_acknowledged: true, indices: { acked: { closed: true } } });
    const opened = await cluster.nodes[0]!.request('POST', '/acked/_open?wait_for_active_shards=all');
    assert.deepEqual(opened.body, { acknowledged: true, shards_acknowledged: true });
    for (const through of cluster.nodes) assert.equal(through.node.nodeServices.clusterService.state().indices.get('acked')?.state, 'open');
  });

  test('cluster settings put through one node govern every node: search.max_buckets and allocation enable', async () => {
    const [a, b, c] = cluster.nodes;
    const put = await a!.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': 3, 'cluster.routing.allocation.enable': 'none' } } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.acknowledged, true);
    for (const node of cluster.nodes) {
      const got = await node.request('GET', '/_cluster/settings?flat_settings=true');
      assert.deepEqual(got.body.persistent, { 'cluster.routing.allocation.enable': 'none', 'search.max_buckets': '3' }, node.name);
    }
    // No allocation while disabled: the new index's copies stay unassigned.
    const gated = await b!.request('PUT', '/gated?wait_for_active_shards=0', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
    assert.equal(gated.status, 200, gated.text);
    const waiting = await c!.request('GET', '/_cluster/health/gated?timeout=500ms&wait_for_status=green');
    // A new index's unassigned primaries are yellow, as ES's ClusterShardHealth says (never allocated yet).
    assert.equal(waiting.body.timed_out, true, waiting.text);
    assert.equal(waiting.body.unassigned_primary_shards, 3, waiting.text);
    assert.equal(waiting.body.active_shards, 0);
    const enabled = await c!.request('PUT', '/_cluster/settings', { body: { persistent: { 'cluster.routing.allocation.enable': null } } });
    assert.equal(enabled.body.acknowledged, true, enabled.text);
    const green = await b!.request('GET', '/_cluster/health/gated?timeout=30s&wait_for_status=green');
    assert.equal(green.body.status, 'green', green.text);
    // 60 distinct tags: every shard builds more buckets than the limit.
    const bulk = Array.from({ length: 60 }, (_, i) => `{"index":{"_index":"gated"}}\n{"tag":"t${i}"}\n`).join('');
    assert.equal((await a!.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } })).body.errors, false);
    // Every node, coordinating or holding shards, counts buckets against the cluster's limit.
    for (const node of cluster.nodes) {
      const search = await node.request('POST', '/gated/_search', { body: { size: 0, aggs: { tags: { terms: { field: 'tag.keyword', size: 60 } } } } });
      assert.equal(search.status, 400, `${node.name}: ${search.text}`);
      assert.match(JSON.stringify(search.body.error), /too_many_buckets_exception/);
    }
    const reset = await b!.request('PUT', '/_cluster/settings', { body: { persistent: { 'search.max_buckets': null } } });
    assert.equal(reset.body.acknowledged, true);
    for (const node of cluster.nodes) {
      const search = await node.request('POST', '/gated/_search', { body: { size: 0, aggs: { tags: { terms: { field: 'tag.keyword', size: 60 } } } } });
      assert.equal(search.body.aggregations.tags.buckets.length, 60, `${node.name}: ${search.text}`);
    }
  });
});
