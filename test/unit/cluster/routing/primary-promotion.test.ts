import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reroute } from '../../../../src/cluster/routing/allocation.js';
import { markShardFailed } from '../../../../src/cluster/routing/shard-allocation.js';
import { nextDelayExpiry } from '../../../../src/cluster/routing/delayed-allocation.js';
import { addNewIndex } from '../../../../src/cluster/metadata/create-index.js';
import { delayedUnassignedShards } from '../../../../src/cluster/health/index.js';
import type { ClusterState, ShardRouting } from '../../../../src/cluster/index.js';
import { clusterState, node } from '../../../helpers/cluster-state-builder.js';
import { startCopiesOneByOne as startAll } from '../../../helpers/start-copies.js';

/** One shard with `replicas` replicas on nodes a, b, c (all started), the index's delay as given. */
function settled(replicas: number, delay = '1m'): ClusterState {
  const base = clusterState({ nodes: [node('a'), node('b'), node('c')] });
  const settings = { 'index.number_of_shards': '1', 'index.number_of_replicas': String(replicas), 'index.unassigned.node_left.delayed_timeout': delay };
  const created = addNewIndex(base, { index: 'idx', settings } as never, '8.19.2', 0).state;
  return startAll(reroute(base, created, 0));
}

function without(state: ClusterState, nodeId: string): ClusterState {
  return { ...state, nodes: new Map([...state.nodes].filter(([id]) => id !== nodeId)) };
}

function copies(state: ClusterState): ShardRouting[] {
  return [...state.routing.get('idx')![0]!];
}

test('the primary\'s node leaves: an in-sync replica becomes the primary in place, with the primary term + 1', () => {
  const before = settled(1);
  const primary = copies(before).find((copy) => copy.primary)!;
  const replica = copies(before).find((copy) => !copy.primary)!;
  const term = before.indices.get('idx')!.primaryTerms[0]!;
  const after = reroute(before, without(before, primary.nodeId!), 1000);
  const promoted = copies(after).find((copy) => copy.primary)!;
  assert.equal(promoted.allocationId, replica.allocationId, 'the same copy, not a new allocation');
  assert.equal(promoted.nodeId, replica.nodeId);
  assert.equal(promoted.state, 'STARTED');
  assert.equal(after.indices.get('idx')!.primaryTerms[0], term + 1);
  // The old primary's copy waits as a delayed replica; health counts it.
  const old = copies(after).find((copy) => !copy.primary)!;
  assert.equal(old.state, 'UNASSIGNED');
  assert.equal(old.unassignedInfo?.reason, 'NODE_LEFT');
  assert.equal(old.unassignedInfo?.delayed, true);
  assert.equal(old.unassignedInfo?.lastNodeId, primary.nodeId);
  assert.equal(delayedUnassignedShards(after), 1);
});

test('a replica that is not in the in-sync set is never promoted: the primary waits for its node (red)', () => {
  const before = settled(1);
  const primary = copies(before).find((copy) => copy.primary)!;
  const replica = copies(before).find((copy) => !copy.primary)!;
  // The replica missed a write: the primary had it marked stale (out of the in-sync set), but it is still routed.
  const metadata = before.indices.get('idx')!;
  const stale: ClusterState = { ...before, indices: new Map([['idx', { ...metadata, inSyncAllocationIds: [[primary.allocationId!]] }]]) };
  const after = reroute(stale, without(stale, primary.nodeId!), 1000);
  const waiting = copies(after).find((copy) => copy.primary)!;
  assert.equal(waiting.state, 'UNASSIGNED');
  assert.equal(waiting.unassignedInfo?.lastNodeId, primary.nodeId);
  assert.equal(copies(after).find((copy) => copy.allocationId === replica.allocationId)?.primary, false);
  assert.equal(after.indices.get('idx')!.primaryTerms[0], metadata.primaryTerms[0], 'no new term without a promotion');
});

test('a primary that fails (engine failure) is replaced by an in-sync replica; its copy comes back as a replica', () => {
  const before = settled(1);
  const primary = copies(before).find((copy) => copy.primary)!;
  const failed = markShardFailed(before, { index: 'idx', shard: 0, allocationId: primary.allocationId!, message: 'engine failed' }, 1000);
  const after = reroute(before, failed, 1000);
  const now = copies(after);
  assert.equal(now.find((copy) => copy.primary)?.state, 'STARTED');
  assert.notEqual(now.find((copy) => copy.primary)?.allocationId, primary.allocationId);
  // Not a node-left: not delayed, so it is allocated again at once (to its node, which is still here).
  const back = now.find((copy) => !copy.primary)!;
  assert.equal(back.state, 'INITIALIZING');
  assert.equal(back.recoverySource, 'PEER');
});

test('a lost replica waits out index.unassigned.node_left.delayed_timeout, unless its node comes back first', () => {
  const before = settled(2, '30s');
  const replica = copies(before).find((copy) => !copy.primary)!;
  const gone = reroute(before, without(before, replica.nodeId!), 1000);
  const waiting = copies(gone).find((copy) => copy.state === 'UNASSIGNED')!;
  assert.equal(waiting.unassignedInfo?.delayed, true);
  assert.equal(nextDelayExpiry(gone), 31_000);
  // Another change before the delay ran out allocates nothing (only two nodes are left, both hold a copy anyway;
  // add a fourth node to give it somewhere to go).
  const withFourth = { ...gone, nodes: new Map([...gone.nodes, ['d', node('d')]]) };
  const early = reroute(gone, withFourth, 20_000);
  assert.equal(copies(early).filter((copy) => copy.state === 'UNASSIGNED').length, 1, 'still delayed');
  assert.equal(delayedUnassignedShards(early), 1);
  const late = reroute(early, { ...early, version: early.version + 1 }, 31_001);
  assert.equal(copies(late).find((copy) => copy.nodeId === 'd')?.state, 'INITIALIZING', 'allocated once the delay ran out');
  assert.equal(delayedUnassignedShards(late), 0);
  // Its node coming back before the delay ends gets it back at once.
  const returned = reroute(gone, { ...gone, nodes: before.nodes }, 5000);
  assert.equal(copies(returned).find((copy) => copy.nodeId === replica.nodeId)?.state, 'INITIALIZING');
});

test('a delay of 0 disables delayed allocation', () => {
  const before = settled(2, '0');
  const replica = copies(before).find((copy) => !copy.primary)!;
  const gone = reroute(before, without(before, replica.nodeId!), 1000);
  assert.equal(copies(gone).find((copy) => copy.state === 'UNASSIGNED')?.unassignedInfo?.delayed, false);
  assert.equal(nextDelayExpiry(gone), undefined);
});
