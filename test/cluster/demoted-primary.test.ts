/**
 * A demoted primary acknowledges nothing (issue 14 item 3, decision 0013): a primary that has been replaced
 * (the master promoted its replica with the primary term + 1) but has not heard of it yet, as a paused or cut-off
 * node that resumes does, still runs writes sent to it. Its replication reaches the new primary, which refuses the
 * old term; the old primary reports that copy to the master with its old term, the master answers that it is no
 * longer the primary, and it leaves primary mode and fails the write: the client gets an error, never an
 * acknowledgement. When it learns the new state its copy recovers from the new primary as a replica, and the
 * operation it applied alone is gone (rollback).
 *
 * Nodes run in this process so the old primary's view can be held back deterministically (its state watch
 * paused, as a lost watch would: its lease stays valid, so it keeps serving as if nothing happened).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd/etcd-coordinator.js';

describe('a demoted primary', () => {
  let cluster: InProcessCluster;

  before(async () => {
    cluster = await InProcessCluster.start(3);
  });

  after(async () => {
    await cluster?.stop();
  });

  function coordinatorOf(node: InProcessNode): EtcdCoordinator {
    return node.node.coordinatorForTest as EtcdCoordinator;
  }

  test('its write is refused by term, it learns it was demoted, the client gets an error, and the local operation is rolled back', async () => {
    const [first] = cluster.nodes;
    const master = (await first!.request('GET', '/_cluster/state/master_node')).body.master_node as string;
    const [a, b] = cluster.nodes.filter((node) => node.nodeId !== master);
    const created = await first!.request('PUT', '/demote', { body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${a!.nodeId},${b!.nodeId}` } } });
    assert.equal(created.status, 200, created.text);
    const green = await first!.request('GET', '/_cluster/health/demote?wait_for_status=green&timeout=60s');
    assert.equal(green.body.status, 'green', green.text);
    const kept = await a!.request('PUT', '/demote/_doc/kept?refresh=true', { body: { n: 0 } });
    assert.equal(kept.status, 201, kept.text);

    const routing = (await first!.request('GET', '/_cat/shards/demote?format=json&h=prirep,id')).body as Array<{ prirep: string; id: string }>;
    const oldPrimary = routing.find((row) => row.prirep === 'p')!.id === a!.nodeId ? a! : b!;
    const replica = oldPrimary === a ? b! : a!;
    const shard = oldPrimary.node.nodeServices.indices!.service.shard('demote', 0)!;
    const term = shard.operationPrimaryTerm;

    // The old primary stops hearing about the cluster; then the master replaces it (its copy reported failed).
    await coordinatorOf(oldPrimary).pauseStateWatchForTest();
    // The report returns once this node applied the master's answer: not before its watch resumes (else after the
    // 30 s master timeout). The promotion is read on the replica meanwhile.
    let reported: Promise<unknown> | undefined;
    try {
      reported = oldPrimary.node.nodeServices.replication!.shardFailed({
        index: 'demote',
        indexUuid: shard.indexUuid,
        shard: 0,
        allocationId: shard.allocationId,
        primaryTerm: 0,
        message: 'test: replaced while it was away',
        markAsStale: false,
      });
      const promoted = await cluster.waitFor(replica, '/_cluster/state/metadata/demote', (r) => r.body?.metadata?.indices?.demote?.primary_terms?.['0'] === term + 1, 30_000);
      assert.ok(promoted);
      const tookOver = () => replica.node.nodeServices.indices!.service.shard('demote', 0)?.isPrimaryMode === true;
      for (const deadline = Date.now() + 30_000; !tookOver() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(tookOver(), true, 'the replica took over');

      // The old primary still believes it is the primary and runs the write; it must not acknowledge it.
      const ghost = await oldPrimary.request('PUT', '/demote/_doc/ghost?timeout=2s', { body: { n: 1 } });
      assert.ok(ghost.status >= 400, `never acknowledged: ${ghost.text}`);
      assert.ok(
        oldPrimary.logs.some((line) => line.includes('primary learned it was demoted')),
        `the master told the old primary it is no longer the primary:\n${oldPrimary.logs.slice(-10).join('\n')}`,
      );
      assert.equal(shard.isPrimaryMode, false, 'the demoted copy left primary mode');
      const onNew = await replica.request('GET', `/demote/_doc/ghost?preference=_only_nodes:${replica.nodeId}`);
      assert.equal(onNew.body.found, false, onNew.text);
    } finally {
      await coordinatorOf(oldPrimary).resumeStateWatchForTest();
      await reported;
    }

    // It hears the new state: its copy recovers from the new primary, without the operation it applied alone.
    const back = await first!.request('GET', '/_cluster/health/demote?wait_for_status=green&timeout=60s');
    assert.equal(back.body.status, 'green', back.text);
    for (const node of [oldPrimary, replica]) {
      const ghost = await node.request('GET', `/demote/_doc/ghost?preference=_only_nodes:${node.nodeId}`);
      assert.equal(ghost.body.found, false, `on ${node.name}: ${ghost.text}`);
      const doc = await node.request('GET', `/demote/_doc/kept?preference=_only_nodes:${node.nodeId}`);
      assert.equal(doc.body.found, true, `on ${node.name}: ${doc.text}`);
    }
  });
});
