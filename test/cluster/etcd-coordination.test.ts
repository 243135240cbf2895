/**
 * What only the etcd coordinator has to prove: one master among several candidates, terms that grow across
 * leader changes, the fence that stops a deposed master, a node that re-reads the whole state after its watch
 * fell behind a compaction, the no-master block while etcd is away, and a state of 1,000 indices that etcd
 * holds although it is larger than one request may be.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterState, IndexMetadata, ShardRouting } from '../../src/cluster/index.js';
import { hasNoMasterBlock } from '../../src/cluster/index.js';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd/etcd-coordinator.js';
import { clusterPrefix, campaignKey } from '../../src/cluster/coordination/etcd/etcd-keys.js';
import { encodeIndices } from '../../src/cluster/coordination/etcd/state-codec.js';
import { createEtcdClient } from '../../src/cluster/coordination/etcd/etcd-client.js';
import { TestEtcd } from '../helpers/etcd.js';
import { etcdKind, waitUntil, type CoordinatedNode } from './coordinator-harness.js';

let etcd: TestEtcd;
before(async () => {
  etcd = await TestEtcd.start();
});
after(async () => {
  await etcd.stop();
});

function setting(key: string, value: string): (state: ClusterState) => ClusterState {
  return (state) => ({ ...state, persistentSettings: { ...state.persistentSettings, [key]: value } });
}

async function stopAll(nodes: CoordinatedNode[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.coordinator.stop().catch(() => undefined)));
}

describe('etcd coordination', () => {
  test('three candidates agree on one master and apply the same states', async () => {
    const kind = etcdKind(() => etcd);
    const nodes = await Promise.all(['a', 'b', 'c'].map((id) => kind.startNode(id)));
    try {
      await waitUntil(() => nodes.every((n) => n.clusterService.state().nodes.size === 3), 10_000, 'all three nodes in the state');
      const masters = nodes.filter((n) => n.coordinator.isMaster());
      assert.equal(masters.length, 1);
      const master = masters[0]!;
      const masterIds = new Set(nodes.map((n) => n.clusterService.state().masterNodeId));
      assert.deepEqual([...masterIds], [master.node.id]);
      const published = await master.coordinator.submitStateUpdate('x', setting('x', '1'));
      await waitUntil(() => nodes.every((n) => n.clusterService.state().version === published.version), 5000, 'every node applied the update');
      for (const node of nodes) {
        assert.equal(node.clusterService.state().stateUuid, published.stateUuid);
        assert.equal(node.clusterService.state().persistentSettings['x'], '1');
      }
      const follower = nodes.find((n) => n !== master)!;
      await assert.rejects(follower.coordinator.submitStateUpdate('y', setting('y', '1')), (err: Error & { type?: string }) => err.type === 'not_master_exception');
    } finally {
      await stopAll(nodes);
    }
  });

  test('when the master leaves, another wins with a higher term and continues from the stored state', async () => {
    const kind = etcdKind(() => etcd);
    const first = await kind.startNode('m1');
    const second = await kind.startNode('m2');
    const nodes = [first, second];
    try {
      assert.equal(first.coordinator.isMaster(), true);
      await first.coordinator.submitStateUpdate('kept', setting('kept', 'yes'));
      const before = first.clusterService.state();
      await first.coordinator.stop();
      await waitUntil(() => second.coordinator.isMaster() && second.clusterService.state().masterNodeId === 'm2', 10_000, 'm2 elected');
      const after = second.clusterService.state();
      assert.ok(after.term > before.term, `term ${after.term} > ${before.term}`);
      assert.ok(after.version > before.version);
      assert.equal(after.persistentSettings['kept'], 'yes');
      await waitUntil(() => !second.clusterService.state().nodes.has('m1'), 10_000, 'm1 removed from the nodes');
    } finally {
      await stopAll(nodes);
    }
  });

  test("a deposed master's state write is rejected by the fence", async () => {
    const kind = etcdKind(() => etcd);
    const clusterName = `fence-${Date.now()}`;
    const master = await etcdKind(() => etcd, 2, clusterName).startNode('deposed');
    void kind;
    const client = await createEtcdClient({ endpoints: [etcd.endpoint] });
    try {
      assert.equal(master.coordinator.isMaster(), true);
      const before = master.clusterService.state();
      // Take the campaign key away behind its back (what lease expiry during a long pause does).
      const namespace = client.namespace(clusterPrefix(clusterName));
      const keys = await namespace.getAll().prefix('election/').keys();
      assert.equal(keys.length, 1);
      assert.equal(keys[0], campaignKey(keys[0]!.slice('election/'.length)));
      await namespace.delete().key(keys[0]!);
      await assert.rejects(master.coordinator.submitStateUpdate('late write', setting('late', 'yes')), (err: Error & { type?: string }) => err.type === 'not_master_exception');
      assert.equal(master.coordinator.isMaster(), false, 'stepped down');
      const header = JSON.parse((await namespace.get('state/header').string())!) as { version: number; persistentSettings: Record<string, string> };
      assert.equal(header.version, before.version, 'nothing committed');
      assert.equal(header.persistentSettings['late'], undefined);
      // Its lease is still valid here (only the key was taken): a candidate again, it wins a new election, a higher term.
      const term = master.coordinator.term();
      await waitUntil(() => master.coordinator.isMaster() && master.coordinator.term() > term, 15_000, 'elected again with a higher term');
    } finally {
      client.close();
      await master.coordinator.stop();
    }
  });

  test('a node whose watch fell behind a compaction re-reads the whole state and reconciles to it', async () => {
    const kind = etcdKind(() => etcd);
    const master = await kind.startNode('cm');
    const follower = await kind.startNode('cf', ['data']);
    const client = await createEtcdClient({ endpoints: [etcd.endpoint] });
    try {
      await waitUntil(() => follower.clusterService.state().masterNodeId === 'cm', 10_000, 'follower sees the master');
      await (follower.coordinator as EtcdCoordinator).pauseStateWatchForTest();
      for (let i = 0; i < 5; i++) await master.coordinator.submitStateUpdate(`step ${i}`, setting('step', String(i)));
      const latest = master.clusterService.state();
      const revision = (await client.get('anything').exec()).header.revision;
      await client.kv.compact({ revision, physical: true });
      assert.notEqual(follower.clusterService.state().version, latest.version);
      await (follower.coordinator as EtcdCoordinator).resumeStateWatchForTest();
      await waitUntil(() => follower.clusterService.state().version === latest.version, 10_000, 'follower caught up after the compaction');
      assert.equal(follower.clusterService.state().persistentSettings['step'], '4');
      assert.ok((follower.coordinator as EtcdCoordinator).resyncCount >= 1, 'went through a full re-read');
    } finally {
      client.close();
      await stopAll([follower, master]);
    }
  });

  test('etcd down: the no-master block on every node, reads keep the last state; etcd back: the cluster resumes', async () => {
    const kind = etcdKind(() => etcd, 3);
    const master = await kind.startNode('em');
    const follower = await kind.startNode('ef', ['data']);
    try {
      await master.coordinator.submitStateUpdate('before', setting('before', 'yes'));
      await waitUntil(() => follower.clusterService.state().persistentSettings['before'] === 'yes', 5000, 'follower applied');
      await etcd.process.stop('SIGKILL');
      await waitUntil(() => hasNoMasterBlock(follower.clusterService.state()) && hasNoMasterBlock(master.clusterService.state()), 15_000, 'no-master block on both');
      assert.equal(follower.clusterService.state().persistentSettings['before'], 'yes', 'the last state is still readable');
      await etcd.restart('SIGKILL');
      await waitUntil(
        () => [master, follower].every((n) => !hasNoMasterBlock(n.clusterService.state()) && n.clusterService.state().masterNodeId !== undefined),
        30_000,
        'a master again after etcd came back',
      );
      const elected = [master, follower].find((n) => n.coordinator.isMaster());
      assert.ok(elected, 'one node is master');
      const published = await elected.coordinator.submitStateUpdate('after', setting('after', 'yes'));
      await waitUntil(() => follower.clusterService.state().version >= published.version, 10_000, 'follower applies new states');
    } finally {
      await stopAll([follower, master]);
    }
  });

  test('a master whose state write failed while etcd was away campaigns again: a master once etcd is back, well inside its lease', async () => {
    // A lease far longer than the test: only a new campaign can bring a master back (the old key stays while renewed).
    const kind = etcdKind(() => etcd, 30);
    const master = await kind.startNode('wm');
    const follower = await kind.startNode('wf', ['data']);
    try {
      await waitUntil(() => follower.clusterService.state().masterNodeId === 'wm', 10_000, 'follower sees the master');
      const term = master.coordinator.term();
      await etcd.process.stop('SIGKILL');
      await assert.rejects(master.coordinator.submitStateUpdate('during the outage', setting('during', 'yes')));
      assert.equal(master.coordinator.isMaster(), false, 'stepped down after the failed write');
      await etcd.restart('SIGKILL');
      const back = Date.now();
      await waitUntil(
        () => [master, follower].every((n) => !hasNoMasterBlock(n.clusterService.state()) && n.clusterService.state().masterNodeId === 'wm' && n.clusterService.state().term > term),
        20_000,
        `a master again after etcd came back (the master logged: ${master.logs.slice(-4).join(' | ')})`,
      );
      assert.ok(Date.now() - back < 20_000);
      const published = await master.coordinator.submitStateUpdate('after', setting('after', 'yes'));
      await waitUntil(() => follower.clusterService.state().version >= published.version, 10_000, 'follower applies new states');
    } finally {
      await stopAll([follower, master]);
    }
  });

  test('a state of 1,000 indices is stored though it is larger than one etcd request may be', async () => {
    const kind = etcdKind(() => etcd);
    const master = await kind.startNode('big');
    try {
      for (let batch = 0; batch < 10; batch++) {
        await master.coordinator.submitStateUpdate(`add 100 indices (${batch})`, (state) => {
          const indices = new Map(state.indices);
          const routing = new Map(state.routing);
          for (let i = 0; i < 100; i++) {
            const name = `logs-${String(batch * 100 + i).padStart(4, '0')}`;
            indices.set(name, bigIndexMetadata(name));
            routing.set(name, [[startedPrimary(name)]]);
          }
          return { ...state, indices, routing };
        });
      }
      const state = master.clusterService.state();
      assert.equal(state.indices.size, 1000);
      const totalBytes = [...encodeIndices(state).values()].reduce((sum, value) => sum + Buffer.byteLength(value), 0);
      assert.ok(totalBytes > 1.5 * 1024 * 1024, `the whole state (${totalBytes} bytes) is over the request cap, so only splitting makes it fit`);
      // A header-only change still commits, and a node joining now reads the whole state.
      await master.coordinator.submitStateUpdate('small change', setting('after', 'yes'));
      const reader = await kind.startNode('reader', ['data']);
      try {
        await waitUntil(() => reader.clusterService.state().version === master.clusterService.state().version, 10_000, 'reader applied the big state');
        assert.equal(reader.clusterService.state().indices.size, 1000);
        assert.deepEqual(reader.clusterService.state().indices.get('logs-0999'), state.indices.get('logs-0999'));
      } finally {
        await reader.coordinator.stop();
      }
    } finally {
      await master.coordinator.stop();
    }
  });
});

function bigIndexMetadata(name: string): IndexMetadata {
  const properties: Record<string, unknown> = {};
  for (let f = 0; f < 30; f++) properties[`field_number_${f}`] = { type: f % 2 === 0 ? 'keyword' : 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } };
  return {
    name,
    uuid: `uuid-${name}`,
    state: 'open',
    numberOfShards: 1,
    numberOfReplicas: 0,
    creationDateMillis: 1_700_000_000_000,
    settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0', 'index.uuid': `uuid-${name}`, 'index.refresh_interval': '1s' },
    mappings: { properties },
    aliases: {},
    primaryTerms: [1],
    inSyncAllocationIds: [[`alloc-${name}`]],
  };
}

function startedPrimary(index: string): ShardRouting {
  return { index, shard: 0, primary: true, state: 'STARTED', nodeId: 'big', relocatingNodeId: undefined, allocationId: `alloc-${index}`, recoverySource: undefined, unassignedInfo: undefined };
}
