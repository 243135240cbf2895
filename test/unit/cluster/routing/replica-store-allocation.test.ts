/**
 * The allocation round with the data nodes' store listings (decision 0027, ES's ReplicaShardAllocator): a replica
 * goes at once to a node whose store it can recover by operations, whatever its delay; the delay holds only while
 * no node has data; while listings are fetched it waits; a file-based recovery is called off for a no-op store.
 * The listings come from a fixed table here (the cluster test test/cluster/replica-store-allocation.test.ts runs
 * the real fetch over the transport).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reroute } from '../../../../src/cluster/routing/allocation.js';
import { addNewIndex } from '../../../../src/cluster/metadata/create-index.js';
import { explainAllocation } from '../../../../src/cluster/routing/allocation-explain.js';
import { unassignedDecisionXContent } from '../../../../src/actions/cluster/allocation-xcontent.js';
import type { ShardStoreSource } from '../../../../src/cluster/routing/shard-store-fetch.js';
import type { ShardStoreListing } from '../../../../src/indices/index.js';
import type { ClusterState, ShardRouting } from '../../../../src/cluster/index.js';
import { clusterState, node } from '../../../helpers/cluster-state-builder.js';
import { startCopiesOneByOne as startAll } from '../../../helpers/start-copies.js';

const HISTORY = 'history-1';

/** One shard, one replica, on two of nodes a, b, c, d (index filters keep it on a and b), delay 5m. */
function settled(): ClusterState {
  const base = clusterState({ nodes: [node('a'), node('b'), node('c'), node('d')] });
  const settings = { 'index.number_of_shards': '1', 'index.number_of_replicas': '1', 'index.unassigned.node_left.delayed_timeout': '5m', 'index.routing.allocation.include._id': 'a,b' };
  const created = addNewIndex(base, { index: 'idx', settings } as never, '8.19.2', 0).state;
  const started = startAll(reroute(base, created, 0));
  const metadata = started.indices.get('idx')!;
  // The filter only placed it; from now on any node may take the replica.
  const { ['index.routing.allocation.include._id']: _dropped, ...rest } = metadata.settings;
  return { ...started, indices: new Map([['idx', { ...metadata, settings: rest }]]) };
}

function copies(state: ClusterState): ShardRouting[] {
  return [...state.routing.get('idx')![0]!];
}

function without(state: ClusterState, nodeId: string): ClusterState {
  return { ...state, nodes: new Map([...state.nodes].filter(([id]) => id !== nodeId)) };
}

const EMPTY: ShardStoreListing = { found: false, sizeInBytes: 0, files: [] };

function primaryListing(globalCheckpoint: number, leases: Record<string, number>): ShardStoreListing {
  return {
    found: true,
    historyUUID: HISTORY,
    localCheckpoint: globalCheckpoint,
    maxSeqNo: globalCheckpoint,
    sizeInBytes: 100,
    files: [{ name: '_0.dat', length: 100, checksum: 'aa' }],
    primary: { historyUUID: HISTORY, globalCheckpoint, maxSeqNo: globalCheckpoint, leases: Object.entries(leases).map(([nodeId, retainingSeqNo]) => ({ id: `peer_recovery/${nodeId}`, retainingSeqNo, timestampMillis: 0 })) },
  };
}

const COPY_STORE: ShardStoreListing = { found: true, historyUUID: HISTORY, localCheckpoint: 9, maxSeqNo: 9, sizeInBytes: 100, files: [{ name: '_0.dat', length: 100, checksum: 'aa' }] };

/** Listings by node id; `pending` answers "still fetching". */
function stores(byNode: Record<string, ShardStoreListing>, pending = false): ShardStoreSource & { asked: number } {
  const source = {
    asked: 0,
    fetch(_copy: ShardRouting, state: ClusterState) {
      source.asked++;
      if (pending) return undefined;
      return new Map([...state.nodes.keys()].map((id) => [id, byNode[id] ?? EMPTY]));
    },
  };
  return source;
}

test('a delayed replica goes at once to a node whose store it can recover by operations; with no data anywhere it waits', () => {
  const before = settled();
  const primary = copies(before).find((copy) => copy.primary)!;
  const replica = copies(before).find((copy) => !copy.primary)!;
  const holder = ['c', 'd'].find((id) => id !== primary.nodeId && id !== replica.nodeId)!;
  const listings = { [primary.nodeId!]: primaryListing(9, { [holder]: 10 }), [holder]: COPY_STORE };

  const gone = reroute(before, without(before, replica.nodeId!), 1000, { shardStores: stores(listings) });
  const placed = copies(gone).find((copy) => !copy.primary)!;
  assert.equal(placed.state, 'INITIALIZING', 'not delayed: a node holds data it can reuse');
  assert.equal(placed.nodeId, holder);

  // Nobody holds data: the 5m delay holds, as before.
  const waiting = reroute(before, without(before, replica.nodeId!), 1000, { shardStores: stores({ [primary.nodeId!]: primaryListing(9, {}) }) });
  const unassigned = copies(waiting).find((copy) => !copy.primary)!;
  assert.equal(unassigned.state, 'UNASSIGNED');
  assert.equal(unassigned.unassignedInfo?.delayed, true);
  assert.equal(unassigned.unassignedInfo?.lastAllocationStatus, 'DELAYED_ALLOCATION');

  // Explain names the store of every node that has one, and the target.
  const explained = explainAllocation(waiting, { index: 'idx', shard: 0, primary: false, includeYesDecisions: false }, { shardStores: stores(listings), now: 2000 });
  assert.equal(explained.unassigned?.outcome, 'yes');
  assert.equal(explained.unassigned?.targetNode?.id, holder);
  const holderResult = explained.unassigned?.nodeDecisions.find((result) => result.node.id === holder);
  assert.deepEqual(holderResult?.store, { found: true, matchingBytes: 100 });
  // Printed as ES's NodeAllocationResult.ShardStoreInfo for a replica.
  const printed = unassignedDecisionXContent(explained.unassigned!, true, true) as { node_allocation_decisions: Array<{ node_id: string; store?: unknown; weight_ranking?: number }> };
  const holderJson = printed.node_allocation_decisions.find((entry) => entry.node_id === holder)!;
  assert.deepEqual(holderJson.store, { matching_size: '100b', matching_size_in_bytes: 100 });
  assert.equal(holderJson.weight_ranking, undefined, 'a decision by store carries no weights, as in ES');
});

test('while the listings are fetched the replica waits (awaiting_info, fetching_shard_data)', () => {
  const before = settled();
  const replica = copies(before).find((copy) => !copy.primary)!;
  const source = stores({}, true);
  const gone = reroute(before, without(before, replica.nodeId!), 1000, { shardStores: source });
  const waiting = copies(gone).find((copy) => !copy.primary)!;
  assert.equal(waiting.state, 'UNASSIGNED');
  assert.equal(waiting.unassignedInfo?.lastAllocationStatus, 'FETCHING_SHARD_DATA');
  assert.ok(source.asked > 0);
  const explained = explainAllocation(gone, { index: 'idx', shard: 0, primary: false, includeYesDecisions: false }, { shardStores: source, now: 2000 });
  assert.equal(explained.unassigned?.outcome, 'awaiting_info');
  assert.equal((unassignedDecisionXContent(explained.unassigned!, false, false) as { can_allocate: string }).can_allocate, 'awaiting_info');
});

test('a file-based recovery under way is called off when a node with a no-op store is back; not for one that needs operations', () => {
  const before = settled();
  const primary = copies(before).find((copy) => copy.primary)!;
  const replica = copies(before).find((copy) => !copy.primary)!;
  const lost = replica.nodeId!;
  const noData = stores({ [primary.nodeId!]: primaryListing(9, { [lost]: 10 }) });
  // The replica's node is away; with a delay of 0 its copy is rebuilt elsewhere by copying files.
  const metadata = before.indices.get('idx')!;
  const noDelay = { ...before, indices: new Map([['idx', { ...metadata, settings: { ...metadata.settings, 'index.unassigned.node_left.delayed_timeout': '0' } }]]) };
  const rebuilding = reroute(noDelay, without(noDelay, lost), 1000, { shardStores: noData });
  const elsewhere = copies(rebuilding).find((copy) => !copy.primary)!;
  assert.equal(elsewhere.state, 'INITIALIZING');
  assert.notEqual(elsewhere.nodeId, lost);

  // It comes back holding everything the primary has (its lease retains from above the global checkpoint).
  const back = { ...rebuilding, nodes: new Map([...rebuilding.nodes, [lost, node(lost)]]) };
  const noop = stores({ [primary.nodeId!]: primaryListing(9, { [lost]: 10, [elsewhere.nodeId!]: 0 }), [lost]: COPY_STORE });
  const moved = copies(reroute(rebuilding, back, 2000, { shardStores: noop })).find((copy) => !copy.primary)!;
  assert.equal(moved.nodeId, lost, 'the rebuild was called off and the copy went back to its store');
  assert.equal(moved.state, 'INITIALIZING');
  assert.equal(moved.unassignedInfo?.reason, 'REALLOCATED_REPLICA');

  // Writes went on while it was away: its recovery would replay operations, which ES does not cancel a rebuild for.
  const behind = stores({ [primary.nodeId!]: primaryListing(50, { [lost]: 10, [elsewhere.nodeId!]: 0 }), [lost]: COPY_STORE });
  const kept = copies(reroute(rebuilding, back, 2000, { shardStores: behind })).find((copy) => !copy.primary)!;
  assert.equal(kept.nodeId, elsewhere.nodeId);
  assert.equal(kept.allocationId, elsewhere.allocationId);
});
