/**
 * etcd lost under a running cluster (issue 14): every node applies ES's no-master block, so writes are refused
 * with `cluster_block_exception` (after waiting their `timeout` for a master, as ES's retryable block) while
 * reads, searches and health keep answering from the last state; when etcd returns, the cluster resumes by
 * itself and writes are acknowledged again, with nothing acknowledged before lost.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import type { NodeProcess } from '../helpers/node-process.js';

const INDEX = 'steady';
const DOCS = 30;
const NO_MASTER = 'blocked by: [SERVICE_UNAVAILABLE/2/no master];';

let cluster: ClusterProcesses;
before(async () => {
  // A lease far longer than either test's pauses: the second test pauses the master and expects it to stay master
  // (with 4 s, a loaded host let its lease run out, a new master took the mapping update and the write got 201). The
  // first test needs no expiry: a node sees etcd go when its watch breaks, at once.
  cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': '20s' });
  for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  const [first] = cluster.nodes;
  assert.equal((await first!.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } })).status, 200);
  const bulk = Array.from({ length: DOCS }, (_, i) => `{"index":{"_index":"${INDEX}","_id":"${i}"}}\n{"n":${i}}\n`).join('');
  const loaded = await first!.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(loaded.body.errors, false, loaded.text);
  await cluster.waitFor(first!, `/_cluster/health/${INDEX}`, (r) => r.body?.status === 'green', 60_000);
});
after(async () => {
  await cluster?.stop();
});

/** A write of a field the mapping has: no mapping update (which would need the master itself) gets in the way. */
function write(node: NodeProcess, id: string, timeout = '1s') {
  return node.request('PUT', `/${INDEX}/_doc/${id}?timeout=${timeout}`, { body: { n: 1 } });
}

test('etcd down: writes refused with the no-master block on every node, reads served; etcd back: writes go on', async () => {
  // Writes a node acknowledged before it noticed that etcd was gone (they are real and must survive). A 201 there is
  // right, not a bug: the primary's view still had a master, and with etcd gone no master can change anything (every
  // state write is fenced in etcd), so the copy stays primary and in sync and the write is durable on it. ES too
  // accepts writes on a primary until its node has lost the master (its leader checks fail), and only then blocks.
  const acknowledged = new Set<string>();
  await cluster.etcd.process.stop('SIGKILL');
  try {
    for (const node of cluster.nodes) {
      // Each node notices on its own (its watch breaks, its lease cannot be renewed): poll until it refuses.
      const deadline = Date.now() + 60_000;
      const id = `during-${node.nodeId}`;
      let refused = await write(node, id);
      while (refused.status !== 503 && Date.now() < deadline) {
        assert.equal(refused.status === 201 || refused.status === 200, true, refused.text);
        acknowledged.add(id);
        await new Promise((resolve) => setTimeout(resolve, 250));
        refused = await write(node, id);
      }
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.error.type, 'cluster_block_exception', refused.text);
      assert.equal(refused.body.error.reason, NO_MASTER);

      const bulk = await node.request('POST', '/_bulk?timeout=1s', { raw: `{"index":{"_index":"${INDEX}","_id":"b"}}\n{"n":1}\n`, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(bulk.status, 503, bulk.text);
      assert.equal(bulk.body.error.type, 'cluster_block_exception', bulk.text);

      // Reads use the last state: documents on every shard, wherever they live, and searches over all shards.
      const get = await node.request('GET', `/${INDEX}/_doc/7`);
      assert.equal(get.status, 200, get.text);
      assert.equal(get.body.found, true);
      const count = await node.request('GET', `/${INDEX}/_count`);
      assert.equal(count.status, 200, count.text);
      assert.ok(count.body.count >= DOCS, count.text);
      const health = await node.request('GET', '/_cluster/health?local=true');
      assert.equal(health.status, 200, health.text);
      assert.equal(health.body.status, 'red', 'a node without a master is red (the block is a 503 global block)');
      const blocks = await node.request('GET', '/_cluster/state/blocks?local=true');
      assert.deepEqual(blocks.body.blocks?.global?.['2'], { description: 'no master', retryable: true, levels: ['write', 'metadata_write'] }, blocks.text);
    }
  } finally {
    await cluster.etcd.restart();
  }
  // A write sent while etcd is still away waits for the master (up to its timeout) and then succeeds.
  const waiting = write(cluster.nodes[1]!, 'after', '90s');
  const answered = await waiting;
  assert.ok(answered.status === 201 || answered.status === 200, answered.text);
  for (const node of cluster.nodes) {
    const health = await node.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&wait_for_nodes=3&timeout=90s`);
    assert.equal(health.body.status, 'green', health.text);
    await cluster.waitFor(node, `/${INDEX}/_doc/after`, (r) => r.body?.found === true, 30_000);
  }
  await cluster.nodes[0]!.request('POST', `/${INDEX}/_refresh`);
  const count = await cluster.nodes[0]!.request('GET', `/${INDEX}/_count`);
  assert.equal(count.body.count, DOCS + acknowledged.size + 1, 'every acknowledged document is there, and the one written after');
  for (const id of acknowledged) assert.equal((await cluster.nodes[0]!.request('GET', `/${INDEX}/_doc/${id}`)).body.found, true, id);
});

test('a write adding a field while the master does not answer fails after indices.mapping.dynamic_timeout with 503 master_not_discovered_exception', async () => {
  const [first] = cluster.nodes;
  // The previous test restarted etcd: wait until every node names the same master again before pausing it.
  const named = await cluster.waitFor(first!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
  const masterId = named.body.master_node as string;
  for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/state/master_node?local=true', (r) => r.body?.master_node === masterId, 60_000);
  const master = cluster.nodes.find((node) => node.nodeId === masterId)!;
  const writer = cluster.nodes.find((node) => node.nodeId !== masterId)!;
  // ES's MappingUpdatedAction waits `indices.mapping.dynamic_timeout` (30s by default) for the master.
  const set = await first!.request('PUT', '/_cluster/settings', { body: { persistent: { 'indices.mapping.dynamic_timeout': '1s' } } });
  assert.equal(set.status, 200, set.text);
  // The shard's primary on the writing node, so nothing but the mapping update needs another node.
  const created = await first!.request('PUT', '/mapping-wait', { body: { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.include._id': writer.nodeId } } });
  assert.equal(created.status, 200, created.text);
  await cluster.waitFor(writer, '/_cluster/health/mapping-wait', (r) => r.body?.status === 'green', 60_000);
  await cluster.waitFor(writer, '/_cluster/settings', (r) => r.body?.persistent?.indices?.mapping?.dynamic_timeout === '1s', 30_000);
  // The premise: the node paused is the master (a master change since it was read would make the write succeed).
  const namedBefore = (await writer.request('GET', '/_cluster/state/master_node?local=true')).body;
  assert.equal(namedBefore.master_node, masterId, JSON.stringify(namedBefore));
  master.child.kill('SIGSTOP');
  try {
    const started = Date.now();
    // Both at once, so the master stays paused well inside its lease.
    const [answer, bulk] = await Promise.all([
      writer.request('PUT', '/mapping-wait/_doc/1', { body: { a_new_field: 'x' } }),
      writer.request('POST', '/_bulk', { raw: '{"index":{"_index":"mapping-wait","_id":"2"}}\n{"another_field":1}\n', headers: { 'content-type': 'application/x-ndjson' } }),
    ]);
    const waited = Date.now() - started;
    // The paused node must have stayed master for the whole wait. Were it replaced (its lease expired), a new master
    // would take the mapping update and the write would rightly succeed: say so instead of a bare "201".
    const namedAfter = (await writer.request('GET', '/_cluster/state/master_node?local=true')).body;
    const masterLines = writer.logs.filter((line) => /"(no_master|master_known|coordination)"/.test(line)).slice(-5);
    assert.equal(answer.status, 503, `${answer.text}\nafter ${waited} ms the writer names master [${namedAfter.master_node}] (paused: [${masterId}]); its lines: ${masterLines.join(' | ')}`);
    assert.equal(answer.body.error.type, 'master_not_discovered_exception', answer.text);
    // The lease (20s) has not run out: the master was still named, and the wait was the setting's, not 30s.
    assert.ok(waited >= 900 && waited < 20_000, `waited ${waited} ms`);
    // In a bulk only the item that needed the mapping fails, with the same error (ES's failOnMappingUpdate).
    assert.equal(bulk.status, 200, bulk.text);
    assert.equal(bulk.body.items[0].index.status, 503, bulk.text);
    assert.equal(bulk.body.items[0].index.error.type, 'master_not_discovered_exception', bulk.text);
  } finally {
    master.child.kill('SIGCONT');
  }
});
