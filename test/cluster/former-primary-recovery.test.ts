/**
 * A primary whose node is killed (kill -9) comes back, after its replica was promoted, as a replica recovered by
 * *operations* from the new primary, not by copying files (issue 13: "a restarted node with unchanged shards
 * recovers without copying files"; decisions 0013 and 0021). On real node processes and a real etcd.
 *
 * The state forced here: the primary wrote and fsynced a bulk while its replica could not answer yet, so the global
 * checkpoint never moved off -1 and that -1 is what its translog persisted (a primary killed within ~100 ms of its
 * first writes, before the global checkpoint sync, is in the same state: failover.test.ts met it about one run in
 * two). Its store's only commits are empty (max_seq_no -1): safe under a checkpoint of -1. The returning copy
 * drops its own operations above the checkpoint (never acknowledged: the rollback of decision 0013) and asks the
 * new primary for everything from seqNo 0, which it still holds. Before the fix a persisted -1 counted as "no
 * checkpoint", so the copy had "no safe commit" and every file was copied.
 *
 * Then the promoted primary's translog: it keeps history only for its copies' leases, so once they retain from
 * above every operation a flush trims it all (the promotion used to give the primary's own node a lease that nothing
 * renewed, pinning the translog at the promotion's seqNo for the lease's 12 h).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readCommitStoreInfo } from '../../src/engine/index.js';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import type { HttpResult } from '../helpers/node-process.js';

const INDEX = 'comeback';
const DOCS = 50;
const NDJSON = { 'content-type': 'application/x-ndjson' };

describe('a primary killed with -9 before its global checkpoint moved', () => {
  let cluster: ClusterProcesses;

  before(async () => {
    cluster = await ClusterProcesses.start(3);
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  });

  after(async () => {
    for (const node of cluster?.nodes ?? []) node.child.kill('SIGCONT');
    await cluster?.stop();
  });

  test('comes back as a replica recovered by operations from seqNo 0, no file copied', { timeout: 180_000 }, async () => {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
    const master = cluster.nodes.find((node) => node.nodeId === state.body.master_node)!;
    // The copies live on the two other nodes, so the kill costs no election.
    const holders = cluster.nodes.filter((node) => node !== master);
    const created = await master.request('PUT', `/${INDEX}`, {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': holders.map((node) => node.nodeId).join(',') } },
    });
    assert.equal(created.status, 200, created.text);
    const green = await master.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&timeout=60s`);
    assert.equal(green.body.status, 'green', green.text);
    const routing = await master.request('GET', `/_cluster/state/routing_table,metadata/${INDEX}`);
    const copies = routing.body.routing_table.indices[INDEX].shards['0'] as Array<{ primary: boolean; node: string }>;
    const primary = holders.find((node) => node.nodeId === copies.find((copy) => copy.primary)!.node)!;
    const replica = holders.find((node) => node !== primary)!;
    const indexUuid: string = routing.body.metadata.indices[INDEX].settings.index.uuid;

    // The replica cannot answer: the primary indexes and fsyncs the bulk (its translog persists the global
    // checkpoint it knows, -1) and waits for the replica, so the checkpoint cannot move on.
    replica.child.kill('SIGSTOP');
    const bulk = Array.from({ length: DOCS }, (_, i) => `{"index":{"_index":"${INDEX}","_id":"d${i}"}}\n{"n":${i}}\n`).join('');
    const written = master.request('POST', '/_bulk?timeout=60s', { raw: bulk, headers: NDJSON });
    await cluster.waitFor(primary, '/_nodes/_local/stats/indices/indexing', (r) => {
      const nodes = Object.values(r.body?.nodes ?? {}) as Array<{ indices?: { indexing?: { index_total?: number } } }>;
      return nodes[0]?.indices?.indexing?.index_total === DOCS;
    }, 30_000);
    await primary.kill9();
    replica.child.kill('SIGCONT');

    // The state this test is about, read from the killed primary's store: only empty commits, and -1 persisted.
    const store = await readCommitStoreInfo(join(primary.dataPath, 'indices', indexUuid, '0'));
    assert.deepEqual({ maxSeqNo: store?.userData.maxSeqNo, globalCheckpoint: store?.globalCheckpoint }, { maxSeqNo: -1, globalCheckpoint: -1 }, JSON.stringify(store));

    // The bulk is routed again to the promoted replica and acknowledged there.
    const answer = await written;
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.errors, false, answer.text);
    await cluster.waitFor(master, `/_cluster/health/${INDEX}`, (r) => r.body?.active_primary_shards === 1 && r.body?.number_of_nodes === 2, 60_000);

    const returned = await cluster.restart(primary);
    const again = await master.request('GET', `/_cluster/health/${INDEX}?wait_for_status=green&timeout=90s`);
    assert.equal(again.body.status, 'green', again.text);
    const recovery = await master.request('GET', `/${INDEX}/_recovery?active_only=false`);
    const peer = recovery.body[INDEX].shards.find((shard: any) => shard.type === 'PEER' && shard.target.id === returned.nodeId);
    assert.ok(peer !== undefined, recovery.text);
    const why = [...replica.logs, ...returned.logs].filter((line) => /"(local_recovery|peer_recovery_start|peer_recovery_done)"/.test(line) && line.includes(INDEX)).join('\n');
    assert.equal(peer.stage, 'DONE', recovery.text);
    assert.equal(peer.source.id, replica.nodeId, recovery.text);
    assert.equal(peer.index.files.recovered, 0, `operations only, no file copied: ${JSON.stringify(peer.index)}\n${why}`);
    assert.equal(peer.index.size.recovered_in_bytes, 0, JSON.stringify(peer.index));
    assert.match(why, /operations-based from seqNo \[0\]/, why);

    // The returned copy holds exactly what the new primary acknowledged.
    const count = await master.request('GET', `/${INDEX}/_count?preference=_only_nodes:${returned.nodeId}`);
    assert.equal(count.body.count, DOCS, count.text);
  });

  test('the promoted primary keeps translog only for its copies\' leases: once they retain from above everything, a flush trims it all', { timeout: 120_000 }, async () => {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string', 60_000);
    const master = cluster.nodes.find((node) => node.nodeId === state.body.master_node)!;
    const routing = await master.request('GET', `/_cluster/state/routing_table/${INDEX}`);
    const copies = routing.body.routing_table.indices[INDEX].shards['0'] as Array<{ primary: boolean; node: string; state: string }>;
    const primaryId = copies.find((copy) => copy.primary)!.node;
    const replicaId = copies.find((copy) => !copy.primary)!.node;
    const terms = await master.request('GET', `/_cluster/state/metadata/${INDEX}`);
    assert.equal(terms.body.metadata.indices[INDEX].primary_terms['0'], 2, 'the first test promoted the replica (term 2)');
    const bulk = Array.from({ length: 200 }, (_, i) => `{"index":{"_index":"${INDEX}","_id":"later${i}"}}\n{"n":${i}}\n`).join('');
    const written = await master.request('POST', '/_bulk', { raw: bulk, headers: NDJSON });
    assert.equal(written.body.errors, false, written.text);
    const primaryCopy = (r: HttpResult): any => (r.body?.indices?.[INDEX]?.shards?.['0'] ?? []).find((copy: any) => copy.routing.primary && copy.routing.node === primaryId);
    // The replica's answers (the writes', then the global checkpoint sync's) move its lease above every operation.
    await cluster.waitFor(master, `/${INDEX}/_stats?level=shards`, (r) => {
      const copy = primaryCopy(r);
      const lease = copy?.retention_leases?.leases?.find((candidate: any) => candidate.id === `peer_recovery/${replicaId}`);
      return copy !== undefined && copy.seq_no.global_checkpoint === copy.seq_no.max_seq_no && lease?.retaining_seq_no === copy.seq_no.max_seq_no + 1;
    }, 60_000);
    // A flush then trims every translog generation (the primary applies its leases' minimum on its next periodic
    // pass, so flush until it shows). Before, the promotion gave the primary's own node a lease at the promotion's
    // seqNo that nothing renewed: the translog stayed pinned there for the lease's 12 h.
    let last: HttpResult | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      assert.equal((await master.request('POST', `/${INDEX}/_flush?force=true`)).status, 200);
      last = await master.request('GET', `/${INDEX}/_stats?level=shards`);
      if (primaryCopy(last)?.translog?.operations === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const copy = primaryCopy(last!);
    assert.equal(copy?.translog?.operations, 0, `translog ${JSON.stringify(copy?.translog)}, leases ${JSON.stringify(copy?.retention_leases)}`);
    assert.ok(!copy.retention_leases.leases.some((lease: any) => lease.id === `peer_recovery/${primaryId}`), JSON.stringify(copy.retention_leases));
  });
});
