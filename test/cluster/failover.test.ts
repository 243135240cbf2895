/**
 * Failover (issue 14, docs/decisions/0013), on one cluster of three node processes shared by every test:
 *
 * - kill -9 of a node holding primaries: the master promotes their in-sync replicas with the primary term + 1,
 *   health is yellow (never red) with the old copies counted as delayed, writes go on; the node started again
 *   gets its copies back as replicas, recovered from the new primaries, and the cluster is green;
 * - a clean shutdown (SIGTERM) of such a node: it leaves at once and the same promotion follows;
 * - `index.unassigned.node_left.delayed_timeout`: a lost replica waits (yellow, `delayed_unassigned_shards`),
 *   then is rebuilt elsewhere once the delay (changed on the live index) has run out;
 * - a copy that missed an acknowledged write (stale) is never promoted: the shard is red until its primary's
 *   node returns, and the write survives.
 * The demoted primary (one that still believes it is the primary) is demoted-primary.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import type { NodeProcess } from '../helpers/node-process.js';

const LEASE_TTL_SECONDS = 4;

interface ShardRow {
  index: string;
  shard: string;
  prirep: string;
  state: string;
  id: string | null;
  'unassigned.reason': string | null;
}

describe('failover', () => {
  let cluster: ClusterProcesses;

  before(async () => {
    cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': `${LEASE_TTL_SECONDS}s` });
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  });

  after(async () => {
    cluster?.etcd.process.child.kill('SIGCONT');
    for (const node of cluster?.nodes ?? []) node.child.kill('SIGCONT');
    await cluster?.stop();
  });

  async function masterId(): Promise<string> {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
    return state.body.master_node as string;
  }

  async function shards(observer: NodeProcess, index: string): Promise<ShardRow[]> {
    const response = await observer.request('GET', `/_cat/shards/${index}?format=json&h=index,shard,prirep,state,id,unassigned.reason`);
    assert.equal(response.status, 200, response.text);
    return response.body as ShardRow[];
  }

  async function primaryTerms(observer: NodeProcess, index: string): Promise<Record<string, number>> {
    const response = await observer.request('GET', `/_cluster/state/metadata/${index}`);
    return response.body.metadata.indices[index].primary_terms as Record<string, number>;
  }

  async function load(node: NodeProcess, index: string, ids: readonly string[]): Promise<void> {
    const bulk = ids.map((id) => `{"index":{"_index":"${index}","_id":"${id}"}}\n{"id":"${id}"}\n`).join('');
    const loaded = await node.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(loaded.body.errors, false, loaded.text);
  }

  async function createIndex(index: string, settings: Record<string, unknown>): Promise<void> {
    const created = await cluster.nodes[0]!.request('PUT', `/${index}`, { body: { settings } });
    assert.equal(created.status, 200, created.text);
    const green = await cluster.nodes[0]!.request('GET', `/_cluster/health/${index}?wait_for_status=green&timeout=60s`);
    assert.equal(green.body.status, 'green', green.text);
  }

  async function greenWithThree(index: string): Promise<void> {
    for (const node of cluster.nodes) {
      const health = await node.request('GET', `/_cluster/health/${index}?wait_for_status=green&wait_for_nodes=3&timeout=90s`);
      assert.equal(health.body.status, 'green', health.text);
    }
  }

  test('kill -9 of a node holding primaries: in-sync replicas promoted with term + 1, yellow not red, writes go on; the node returns as a replica holder', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `d${i}`);
    await createIndex('promo', { number_of_shards: 2, number_of_replicas: 1 });
    await load(cluster.nodes[0]!, 'promo', ids);
    const master = await masterId();
    const before = await shards(cluster.nodes[0]!, 'promo');
    const victim = cluster.nodes.find((node) => node.nodeId !== master && before.some((row) => row.id === node.nodeId && row.prirep === 'p'));
    assert.ok(victim !== undefined, `a non-master node holds a primary: ${JSON.stringify(before)}`);
    const lost = before.filter((row) => row.id === victim.nodeId);
    const lostPrimaries = lost.filter((row) => row.prirep === 'p').map((row) => row.shard);
    const termsBefore = await primaryTerms(cluster.nodes[0]!, 'promo');
    const observers = cluster.nodes.filter((node) => node !== victim);

    const killedAt = Date.now();
    await victim.kill9();
    for (const observer of observers) {
      const health = await cluster.waitFor(observer, '/_cluster/health/promo', (r) => r.body?.number_of_nodes === 2 && r.body?.active_primary_shards === 2, 30_000);
      assert.equal(health.body.status, 'yellow', health.text);
      assert.equal(health.body.unassigned_primary_shards, 0, health.text);
      assert.equal(health.body.unassigned_shards, lost.length, health.text);
      assert.equal(health.body.delayed_unassigned_shards, lost.length, `the lost copies wait for their node (1m default): ${health.text}`);
    }
    console.log(`kill -9 to every primary active: ${Date.now() - killedAt} ms`);
    const termsAfter = await primaryTerms(observers[0]!, 'promo');
    for (const shard of ['0', '1']) {
      assert.equal(termsAfter[shard], lostPrimaries.includes(shard) ? termsBefore[shard]! + 1 : termsBefore[shard], `shard ${shard}: ${JSON.stringify({ termsBefore, termsAfter })}`);
    }
    const now = await shards(observers[0]!, 'promo');
    for (const shard of lostPrimaries) {
      const primary = now.find((row) => row.shard === shard && row.prirep === 'p')!;
      assert.equal(primary.state, 'STARTED');
      assert.notEqual(primary.id, victim.nodeId);
      const old = now.find((row) => row.shard === shard && row.prirep === 'r')!;
      assert.equal(old.state, 'UNASSIGNED');
      assert.equal(old['unassigned.reason'], 'NODE_LEFT');
    }
    const allocation = (await observers[0]!.request('GET', '/_cat/allocation?format=json&h=shards,node')).body as Array<{ shards: string; node: string }>;
    assert.ok(allocation.some((row) => row.node === 'UNASSIGNED'), JSON.stringify(allocation));

    // Writes to every shard are acknowledged by the promoted primaries (the old primaries' ids marked stale).
    const more = Array.from({ length: 10 }, (_, i) => `e${i}`);
    await load(observers[0]!, 'promo', more);
    const count = await observers[1]!.request('GET', '/promo/_count');
    assert.equal(count.body.count, ids.length + more.length, count.text);

    const returned = await cluster.restart(victim);
    await greenWithThree('promo');
    const after = await shards(returned, 'promo');
    for (const shard of lostPrimaries) {
      const back = after.find((row) => row.shard === shard && row.id === returned.nodeId);
      assert.equal(back?.prirep, 'r', `the old primary's node holds a replica of shard ${shard} now: ${JSON.stringify(after)}`);
    }
    // Every document of a shard the returned node holds a copy of is in that copy (`_only_local` gets answer from
    // this node's copy only; a shard it holds no copy of answers no_shard_available, as ES).
    const heldThere = new Set(after.filter((row) => row.id === returned.nodeId).map((row) => row.shard));
    const located = await returned.request('POST', '/promo/_search', { body: { size: 100, explain: true, query: { ids: { values: [...ids, ...more] } } } });
    const shardOf = new Map<string, string>(located.body.hits.hits.map((hit: any) => [hit._id, /\]\[(\d+)\]$/.exec(hit._shard)![1]!]));
    assert.equal(shardOf.size, ids.length + more.length, located.text);
    for (const id of [...ids, ...more]) {
      if (!heldThere.has(shardOf.get(id)!)) continue;
      const onReturned = await returned.request('GET', `/promo/_doc/${id}?preference=_only_local`);
      assert.equal(onReturned.body.found, true, onReturned.text);
    }
  });

  test('a clean shutdown of a node holding primaries: it leaves at once and its primaries\' replicas are promoted', async () => {
    const before = await shards(cluster.nodes[0]!, 'promo');
    // Whichever node holds a primary now (the master too: then an election comes first).
    const victim = cluster.nodes.find((node) => before.some((row) => row.id === node.nodeId && row.prirep === 'p'));
    assert.ok(victim !== undefined, `a node holds a primary: ${JSON.stringify(before)}`);
    const observer = cluster.nodes.find((node) => node !== victim)!;
    const exited = new Promise((resolve) => victim.child.once('exit', resolve));
    const stoppedAt = Date.now();
    victim.child.kill('SIGTERM');
    await exited;
    const health = await cluster.waitFor(observer, '/_cluster/health/promo', (r) => r.body?.number_of_nodes === 2 && r.body?.active_primary_shards === 2, 30_000);
    assert.equal(health.body.status, 'yellow', health.text);
    console.log(`clean shutdown to every primary active: ${Date.now() - stoppedAt} ms`);
    const count = await observer.request('GET', '/promo/_count');
    assert.equal(count.body.count, 50, count.text);
    await cluster.restart(victim);
    await greenWithThree('promo');
  });

  test('a lost replica waits out index.unassigned.node_left.delayed_timeout (yellow, delayed), then is rebuilt elsewhere', async () => {
    const master = await masterId();
    const [a, b] = cluster.nodes.filter((node) => node.nodeId !== master);
    await createIndex('delayed', { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${a!.nodeId},${b!.nodeId}`, 'index.unassigned.node_left.delayed_timeout': '1m' });
    await load(a!, 'delayed', ['x', 'y']);
    const rows = await shards(a!, 'delayed');
    const replicaNode = cluster.nodes.find((node) => node.nodeId === rows.find((row) => row.prirep === 'r')!.id)!;
    const observer = replicaNode === a ? b! : a!;
    await replicaNode.kill9();
    const yellow = await cluster.waitFor(observer, '/_cluster/health/delayed', (r) => r.body?.number_of_nodes === 2, 30_000);
    assert.equal(yellow.body.status, 'yellow', yellow.text);
    assert.equal(yellow.body.unassigned_shards, 1, yellow.text);
    // ES counts delayed copies over the whole cluster whatever indices the request names (other indices' copies
    // on the lost node wait too).
    const delayedNow = yellow.body.delayed_unassigned_shards as number;
    assert.ok(delayedNow >= 1, yellow.text);
    const waiting = (await shards(observer, 'delayed')).find((row) => row.state === 'UNASSIGNED');
    assert.equal(waiting?.['unassigned.reason'], 'NODE_LEFT');
    // Still waiting a moment later: the delay is a minute.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const still = await observer.request('GET', '/_cluster/health/delayed');
    assert.equal(still.body.delayed_unassigned_shards, delayedNow, still.text);
    assert.equal((await shards(observer, 'delayed')).filter((row) => row.state === 'UNASSIGNED').length, 1);

    // A shorter delay on the live index (and a filter that lets the third node in): rebuilt there, green.
    const changed = await observer.request('PUT', '/delayed/_settings', { body: { 'index.unassigned.node_left.delayed_timeout': '1s', 'index.routing.allocation.include._id': null } });
    assert.equal(changed.status, 200, changed.text);
    const green = await observer.request('GET', '/_cluster/health/delayed?wait_for_status=green&timeout=60s');
    assert.equal(green.body.status, 'green', green.text);
    assert.equal(green.body.delayed_unassigned_shards, delayedNow - 1, `only the other indices' copies still wait: ${green.text}`);
    const placed = await shards(observer, 'delayed');
    assert.equal(placed.filter((row) => row.state === 'STARTED').length, 2);
    assert.ok(!placed.some((row) => row.id === replicaNode.nodeId), JSON.stringify(placed));
    await cluster.restart(replicaNode);
    await greenWithThree('delayed');
  });

  test('a stale copy is never promoted: the primary\'s node lost, the shard is red until it returns, and the write acknowledged without that copy survives', async () => {
    const master = await masterId();
    const [a, b] = cluster.nodes.filter((node) => node.nodeId !== master);
    await createIndex('stale', { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${a!.nodeId},${b!.nodeId}` });
    const rows = await shards(a!, 'stale');
    let primaryNode = cluster.nodes.find((node) => node.nodeId === rows.find((row) => row.prirep === 'p')!.id)!;
    let replicaNode = primaryNode === a ? b! : a!;
    const term = (await primaryTerms(primaryNode, 'stale'))['0']!;

    await replicaNode.kill9();
    await cluster.waitFor(primaryNode, '/_cluster/health/stale', (r) => r.body?.number_of_nodes === 2, 30_000);
    // Acknowledged with the primary alone: the lost replica's id leaves the in-sync set first.
    const alone = await primaryNode.request('PUT', '/stale/_doc/alone', { body: { n: 1 } });
    assert.equal(alone.status, 201, alone.text);
    assert.equal(alone.body._shards.successful, 1, alone.text);
    const settings = await primaryNode.request('PUT', '/_cluster/settings', { body: { transient: { 'cluster.routing.allocation.enable': 'primaries' } } });
    assert.equal(settings.status, 200, settings.text);
    replicaNode = await cluster.restart(replicaNode);
    await cluster.waitFor(replicaNode, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);

    await primaryNode.kill9();
    const red = await cluster.waitFor(replicaNode, '/_cluster/health/stale', (r) => r.body?.number_of_nodes === 2, 30_000);
    assert.equal(red.body.status, 'red', `the stale copy is not promoted: ${red.text}`);
    assert.equal((await primaryTerms(replicaNode, 'stale'))['0'], term, 'no promotion, no new term');
    const write = await replicaNode.request('PUT', '/stale/_doc/later?timeout=1s', { body: { n: 2 } });
    assert.equal(write.status, 503, write.text);

    primaryNode = await cluster.restart(primaryNode);
    const restored = await primaryNode.request('PUT', '/_cluster/settings', { body: { transient: { 'cluster.routing.allocation.enable': null } } });
    assert.equal(restored.status, 200, restored.text);
    await greenWithThree('stale');
    for (const node of [primaryNode, replicaNode]) {
      const doc = await node.request('GET', `/stale/_doc/alone?preference=_only_nodes:${node.nodeId}`);
      assert.equal(doc.body.found, true, `on ${node.nodeId}: ${doc.text}`);
    }
  });
});
