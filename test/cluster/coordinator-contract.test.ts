/**
 * The Coordinator contract (src/cluster/coordination/coordinator.ts), run against both implementations:
 * the embedded single-node coordinator and the etcd one (with an etcd of the test's own).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterState } from '../../src/cluster/index.js';
import { TestEtcd } from '../helpers/etcd.js';
import { embeddedKind, etcdKind, type CoordinatorKind } from './coordinator-harness.js';

function withSetting(key: string, value: string): (state: ClusterState) => ClusterState {
  return (state) => ({ ...state, persistentSettings: { ...state.persistentSettings, [key]: value } });
}

function contract(kindName: string, makeKind: () => CoordinatorKind): void {
  describe(`coordinator contract: ${kindName}`, () => {
    let kind: CoordinatorKind;
    before(() => {
      kind = makeKind();
    });
    after(async () => {
      await kind.cleanup();
    });

    test('a started single node is the master of a state it applied, with a term', async () => {
      const { node, clusterService, coordinator } = await kind.startNode('solo');
      try {
        const state = clusterService.state();
        assert.equal(coordinator.isMaster(), true);
        assert.equal(state.masterNodeId, node.id);
        assert.ok(state.nodes.has(node.id));
        assert.ok(state.term >= 1, `term ${state.term}`);
        assert.equal(coordinator.term(), state.term);
        assert.ok(state.version >= 1);
        assert.notEqual(state.clusterUuid, '_na_');
        assert.deepEqual(state.globalBlocks, []);
      } finally {
        await coordinator.stop();
      }
    });

    test('updates publish version + 1, unchanged updates publish nothing, failed updates change nothing', async () => {
      const { clusterService, coordinator } = await kind.startNode('updates');
      try {
        const before = clusterService.state();
        const published = await coordinator.submitStateUpdate('set a', withSetting('a', '1'));
        assert.equal(published.version, before.version + 1);
        assert.notEqual(published.stateUuid, before.stateUuid);
        assert.equal(published.term, before.term);
        assert.equal(clusterService.state().version, published.version, 'applied locally when the promise resolves');
        assert.equal(clusterService.state().persistentSettings['a'], '1');

        const same = await coordinator.submitStateUpdate('noop', (state) => state);
        assert.equal(same.version, published.version);
        assert.equal(clusterService.state().version, published.version);

        await assert.rejects(
          coordinator.submitStateUpdate('boom', () => {
            throw new Error('boom');
          }),
          /boom/,
        );
        assert.equal(clusterService.state().version, published.version);
        const afterFailure = await coordinator.submitStateUpdate('set b', withSetting('b', '2'));
        assert.equal(afterFailure.version, published.version + 1);
      } finally {
        await coordinator.stop();
      }
    });

    test('concurrent updates apply one after another, each seeing the previous', async () => {
      const { clusterService, coordinator } = await kind.startNode('concurrent');
      const versions: number[] = [];
      const unsubscribe = clusterService.onChange((state) => versions.push(state.version));
      try {
        const count = 20;
        await Promise.all(
          Array.from({ length: count }, (_, i) =>
            coordinator.submitStateUpdate(`inc ${i}`, (state) => withSetting('counter', String(Number(state.persistentSettings['counter'] ?? '0') + 1))(state)),
          ),
        );
        assert.equal(clusterService.state().persistentSettings['counter'], String(count));
        for (let i = 1; i < versions.length; i++) assert.ok(versions[i]! > versions[i - 1]!, `versions in order: ${versions.join(',')}`);
      } finally {
        unsubscribe();
        await coordinator.stop();
      }
    });

    test('the state survives a restart of the node; terms never go down', async () => {
      const first = await kind.startNode('restart');
      await first.coordinator.submitStateUpdate('persist', withSetting('kept', 'yes'));
      const termBefore = first.clusterService.state().term;
      const versionBefore = first.clusterService.state().version;
      await first.coordinator.stop();
      await assert.rejects(first.coordinator.submitStateUpdate('after stop', withSetting('x', 'y')), (err: Error & { type?: string }) => err.type === 'not_master_exception');

      const second = await kind.startNode('restart');
      try {
        const state = second.clusterService.state();
        assert.equal(state.persistentSettings['kept'], 'yes');
        assert.equal(state.clusterUuid, first.clusterService.state().clusterUuid);
        assert.ok(state.term >= termBefore);
        assert.ok(state.version > versionBefore);
      } finally {
        await second.coordinator.stop();
      }
    });
  });
}

contract('embedded', embeddedKind);

let etcd: TestEtcd | undefined;
before(async () => {
  etcd = await TestEtcd.start();
});
after(async () => {
  await etcd?.stop();
});
contract('etcd', () => etcdKind(() => etcd!));
