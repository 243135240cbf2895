/**
 * Losing a node (issue 14): a node killed with -9, or paused (SIGSTOP) past its etcd lease, is removed from
 * the cluster state by the master; its shards become unassigned (NODE_LEFT) and every node's health,
 * `_cat/nodes`, `_cat/allocation` and `_cat/shards` say so; a write to a shard that lost its only copy fails
 * with ES's unavailable_shards_exception. The node started again (or resumed) rejoins, gets its shards back
 * from its own data path, and the cluster is green with every document.
 *
 * The index here has no replicas, so a lost primary is red until its node returns, and that is what health must
 * say (promotion of an in-sync replica is failover.test.ts). A lost replica is yellow (writes go on with the
 * primary alone) and green again through `wait_for_status` once its node is back and the copy caught up.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import type { NodeProcess } from '../helpers/node-process.js';
import { defaultRoutingNumShards, shardIdFor } from '../../src/indices/operation-routing.js';

const LEASE_TTL_SECONDS = 4;
const INDEX = 'lossy';
const DOCS = 60;

interface ShardRow {
  shard: string;
  prirep: string;
  state: string;
  node: string | null;
  'unassigned.reason': string | null;
}

describe('losing a node', () => {
  let cluster: ClusterProcesses;

  before(async () => {
    cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': `${LEASE_TTL_SECONDS}s` });
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
    const [first] = cluster.nodes;
    const created = await first!.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
    assert.equal(created.status, 200, created.text);
    const bulk = Array.from({ length: DOCS }, (_, i) => `{"index":{"_index":"${INDEX}","_id":"${i}"}}\n{"n":${i}}\n`).join('');
    const loaded = await first!.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(loaded.body.errors, false, loaded.text);
    await cluster.waitFor(first!, `/_cluster/health/${INDEX}`, (r) => r.body?.status === 'green', 60_000);
  });

  after(async () => {
    for (const node of cluster?.nodes ?? []) node.child.kill('SIGCONT');
    await cluster?.stop();
  });

  async function masterId(): Promise<string> {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
    return state.body.master_node as string;
  }

  /** A node that is not the master and holds a primary of the index, with the shards it holds. */
  async function primaryHolder(): Promise<{ victim: NodeProcess; shards: string[] }> {
    const master = await masterId();
    const response = await cluster.nodes[0]!.request('GET', `/_cat/shards/${INDEX}?format=json&h=shard,state,id`);
    const shards = response.body as Array<{ shard: string; state: string; id: string | null }>;
    assert.ok(Array.isArray(shards), response.text);
    for (const node of cluster.nodes) {
      if (node.nodeId === master) continue;
      const held = shards.filter((row) => row.id === node.nodeId).map((row) => row.shard);
      if (held.length > 0) return { victim: node, shards: held };
    }
    throw new Error(`no non-master node holds a primary: ${JSON.stringify(shards)}`);
  }

  /** What every surviving node reports once the victim is gone: red health, no row for it, its shards unassigned. */
  async function assertGone(victim: NodeProcess, lostShards: string[], observers: NodeProcess[]): Promise<void> {
    for (const observer of observers) {
      const health = await cluster.waitFor(observer, `/_cluster/health/${INDEX}`, (r) => r.body?.number_of_nodes === 2 && r.body?.status === 'red', 60_000);
      assert.equal(health.body.unassigned_shards, lostShards.length, health.text);
      assert.equal(health.body.unassigned_primary_shards, lostShards.length, health.text);
      assert.equal(health.body.active_primary_shards, 3 - lostShards.length, health.text);

      const nodes = (await observer.request('GET', '/_cat/nodes?format=json&h=id&full_id=true')).body as Array<{ id: string }>;
      assert.deepEqual(nodes.map((row) => row.id).sort(), cluster.nodes.filter((node) => node !== victim).map((node) => node.nodeId).sort());

      const allocation = (await observer.request('GET', '/_cat/allocation?format=json&h=shards,node')).body as Array<{ shards: string; node: string }>;
      assert.equal(allocation.length, 3, JSON.stringify(allocation));
      assert.deepEqual(allocation.find((row) => row.node === 'UNASSIGNED'), { shards: String(lostShards.length), node: 'UNASSIGNED' });

      const shards = (await observer.request('GET', `/_cat/shards/${INDEX}?format=json&h=shard,prirep,state,node,unassigned.reason`)).body as ShardRow[];
      const unassigned = shards.filter((row) => row.state === 'UNASSIGNED');
      assert.deepEqual(unassigned.map((row) => row.shard).sort(), [...lostShards].sort());
      for (const row of unassigned) assert.equal(row['unassigned.reason'], 'NODE_LEFT');
    }
  }

  /** Back to green with three nodes and every document, as every node reports it. */
  async function assertRecovered(): Promise<void> {
    for (const node of cluster.nodes) {
      const health = await node.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&wait_for_nodes=3&timeout=90s`);
      assert.equal(health.status, 200, health.text);
      assert.equal(health.body.status, 'green', health.text);
      assert.equal(health.body.number_of_nodes, 3);
      const count = await node.request('GET', `/${INDEX}/_count`);
      assert.equal(count.body.count, DOCS, count.text);
    }
  }

  test('a node killed with -9 is removed: its shards unassigned, health red; started again, it rejoins and the cluster is green', async () => {
    const { victim, shards } = await primaryHolder();
    const observers = cluster.nodes.filter((node) => node !== victim);
    await victim.kill9();
    await assertGone(victim, shards, observers);

    // A write to a shard whose only copy is gone waits for it (`timeout`), then fails as ES fails it.
    const lostDoc = findDocOnShard(Number(shards[0]));
    const write = await observers[0]!.request('PUT', `/${INDEX}/_doc/${lostDoc}?timeout=1s`, { body: { n: -1 } });
    assert.equal(write.status, 503, write.text);
    assert.equal(write.body.error.type, 'unavailable_shards_exception', write.text);
    // Reads of the other shards go on.
    const search = await observers[0]!.request('GET', `/${INDEX}/_search?size=0`);
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body._shards.failed + search.body._shards.successful, 3, search.text);

    await cluster.restart(victim);
    await assertRecovered();
  });

  test('a paused node (SIGSTOP) stays a member until its lease expires, then is removed; resumed, it rejoins', async () => {
    const { victim, shards } = await primaryHolder();
    const observers = cluster.nodes.filter((node) => node !== victim);
    victim.child.kill('SIGSTOP');
    try {
      // A paused process keeps its sockets: nothing proves it dead, so it stays until the lease says so.
      const early = await observers[0]!.request('GET', '/_cluster/health');
      assert.equal(early.body.number_of_nodes, 3, 'not removed at once');
      await assertGone(victim, shards, observers);
    } finally {
      victim.child.kill('SIGCONT');
    }
    await assertRecovered();
  });

  /** An id of the loaded documents that the index routes to `shard`. */
  function findDocOnShard(shard: number): string {
    const shape = { numberOfShards: 3, routingNumShards: defaultRoutingNumShards(3), routingPartitionSize: 1 };
    for (let i = 0; i < DOCS; i++) if (shardIdFor(shape, String(i), undefined) === shard) return String(i);
    throw new Error(`no id of the first ${DOCS} routes to shard ${shard}`);
  }
});

describe('losing the node of a replica', () => {
  let cluster: ClusterProcesses;
  after(async () => {
    await cluster?.stop();
  });

  test('health goes yellow while the replica is gone and green through wait_for_status when its node returns', async () => {
    cluster = await ClusterProcesses.start(2, { 'cluster.etcd.lease_ttl': `${LEASE_TTL_SECONDS}s` });
    const [first, second] = cluster.nodes;
    await cluster.waitFor(first!, '/_cluster/health', (r) => r.body?.number_of_nodes === 2, 60_000);
    // The primary on the first node (an allocation filter), then a replica, which can only go to the second.
    const created = await first!.request('PUT', '/halves', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'node-0' } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(first!, '/_cluster/health/halves', (r) => r.body?.status === 'green', 60_000);
    const widened = await first!.request('PUT', '/halves/_settings', { body: { 'index.number_of_replicas': 1, 'index.routing.allocation.require._name': null } });
    assert.equal(widened.status, 200, widened.text);
    const green = await first!.request('GET', '/_cluster/health/halves?wait_for_status=green&timeout=60s');
    assert.equal(green.body.status, 'green', green.text);

    await second!.kill9();
    const yellow = await first!.request('GET', '/_cluster/health/halves?wait_for_status=yellow&wait_for_nodes=1&timeout=60s');
    assert.equal(yellow.status, 200, yellow.text);
    assert.equal(yellow.body.status, 'yellow', yellow.text);
    assert.equal(yellow.body.unassigned_shards, 1, yellow.text);
    assert.equal(yellow.body.active_primary_shards, 1, yellow.text);
    // Writes go on with the primary alone (its in-sync replica is marked stale through the master first).
    const write = await first!.request('PUT', '/halves/_doc/1?refresh=true', { body: { n: 1 } });
    assert.equal(write.status, 201, write.text);
    assert.equal(write.body._shards.total, 2, write.text);
    assert.equal(write.body._shards.successful, 1, write.text);

    await cluster.restart(second!);
    const back = await first!.request('GET', '/_cluster/health/halves?wait_for_status=green&wait_for_nodes=2&timeout=90s');
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.status, 'green', back.text);
    const onReplica = await first!.request('GET', `/halves/_doc/1?preference=_only_nodes:${second!.nodeId}`);
    assert.equal(onReplica.body.found, true, `the returning replica caught up: ${onReplica.text}`);
  });
});
