import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reroute } from '../../../../src/cluster/routing/allocation.js';
import { markShardsStarted } from '../../../../src/cluster/routing/shard-allocation.js';
import { addNewIndex } from '../../../../src/cluster/metadata/create-index.js';
import { canAllocate, canRemain } from '../../../../src/cluster/routing/deciders/index.js';
import { routingAllocation } from '../../../../src/cluster/routing/routing-allocation.js';
import { decideUnassigned } from '../../../../src/cluster/routing/unassigned-decision.js';
import type { ClusterInfo, DiskUsage } from '../../../../src/cluster/routing/cluster-info.js';
import type { ClusterState } from '../../../../src/cluster/index.js';
import { clusterState, node } from '../../../helpers/cluster-state-builder.js';

const GB = 1024 ** 3;
const disk = (freeGb: number): DiskUsage => ({ path: '/data', totalBytes: 100 * GB, availableBytes: freeGb * GB });
const info = (usages: Record<string, number>): ClusterInfo => ({ diskUsages: new Map(Object.entries(usages).map(([id, free]) => [id, disk(free)])) });

function startAll(initial: ClusterState, options: { info?: ClusterInfo } = {}): ClusterState {
  let state = initial;
  for (let round = 0; round < 50; round++) {
    const pending = [...state.routing.values()].flat(2).filter((copy) => copy.state === 'INITIALIZING' || copy.state === 'RELOCATING');
    if (pending.length === 0) return state;
    const next = markShardsStarted(state, pending.map((copy) => ({ index: copy.index, shard: copy.shard, allocationId: copy.state === 'RELOCATING' ? copy.relocationId! : copy.allocationId! })));
    state = reroute(state, next, 0, options);
  }
  throw new Error('did not settle');
}

test('disk_threshold: no copy onto a node past low (a new primary may, under high); none may stay past high; ES wording', () => {
  const base = clusterState({ nodes: [node('a'), node('b')] });
  const created = addNewIndex(base, { index: 'idx', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '1' } } as never, '8.19.2', 0).state;
  const state = startAll(reroute(base, created, 0, { info: info({ a: 50, b: 50 }) }));
  const allocation = routingAllocation(state, { info: info({ a: 12, b: 5 }) });
  const [primary, replica] = state.routing.get('idx')![0]!;
  const nodeB = state.nodes.get(primary!.nodeId === 'a' ? 'b' : 'a')!;
  const remain = canRemain(primary!, state.nodes.get(primary!.nodeId!)!, allocation).decisions.find((d) => d.decider === 'disk_threshold')!;
  const pastHigh = primary!.nodeId === 'b';
  assert.equal(remain.type, pastHigh ? 'NO' : 'YES');
  const onB = canRemain(primary!.nodeId === 'b' ? primary! : replica!, state.nodes.get('b')!, allocation).decisions.find((d) => d.decider === 'disk_threshold')!;
  assert.equal(onB.type, 'NO');
  assert.match(onB.explanation, /^the shard cannot remain on this node because it is above the high watermark cluster setting \[cluster\.routing\.allocation\.disk\.watermark\.high=90%\] and there is less than the required \[10gb\] free space on node, actual free: \[5gb\], actual used: \[95%\]$/);
  // A replica is not allocated to a node past low (a: 12 GB free < 15 GB).
  const unassignedReplica = { ...replica!, state: 'UNASSIGNED' as const, nodeId: undefined, allocationId: undefined, recoverySource: 'PEER' as const };
  const low = canAllocate(unassignedReplica, state.nodes.get('a')!, allocation).decisions.find((d) => d.decider === 'disk_threshold')!;
  assert.equal(low.type, 'NO');
  assert.match(low.explanation, /^the node is above the low watermark cluster setting \[cluster\.routing\.allocation\.disk\.watermark\.low=85%\], having less than the minimum required \[15gb\] free space, actual free: \[12gb\], actual used: \[88%\]$/);
  // A new empty primary may go to a node between low and high.
  const newPrimary = { ...primary!, state: 'UNASSIGNED' as const, nodeId: undefined, allocationId: undefined, recoverySource: 'EMPTY_STORE' as const };
  assert.equal(canAllocate(newPrimary, state.nodes.get('a')!, allocation).decisions.find((d) => d.decider === 'disk_threshold')!.type, 'YES');
  assert.ok(nodeB);
});

test('a node past the high watermark sends its copies to a node under low, and none to a node past low', () => {
  const base = clusterState({ nodes: [node('a'), node('b'), node('c')] });
  const created = addNewIndex(base, { index: 'idx', settings: { 'index.number_of_shards': '3', 'index.number_of_replicas': '0', 'index.routing.allocation.require._id': 'a' } } as never, '8.19.2', 0).state;
  let state = startAll(reroute(base, created, 0));
  const settings = state.indices.get('idx')!.settings;
  const { ['index.routing.allocation.require._id']: _dropped, ...unfiltered } = settings;
  state = { ...state, indices: new Map(state.indices).set('idx', { ...state.indices.get('idx')!, settings: unfiltered }) };
  const full = { info: info({ a: 5, b: 50, c: 12 }) };
  const moved = reroute(state, state, 1, full);
  const copies = moved.routing.get('idx')!.flat();
  // Two at a time: b takes at most node_concurrent_incoming_recoveries (2) recoveries at once.
  assert.deepEqual(copies.map((copy) => [copy.state, copy.relocatingNodeId]), [['RELOCATING', 'b'], ['RELOCATING', 'b'], ['STARTED', undefined]]);
  const settled = startAll(moved, full);
  assert.deepEqual(settled.routing.get('idx')!.flat().map((copy) => copy.nodeId), ['b', 'b', 'b']);
  // Explain's view of a new copy: the node past high and the one past low refuse, with their reasons.
  const extra = { ...settled.routing.get('idx')![0]![0]!, state: 'UNASSIGNED' as const, nodeId: undefined, allocationId: undefined, primary: false, recoverySource: 'PEER' as const };
  const decided = decideUnassigned(extra, routingAllocation(settled, full));
  const byNode = Object.fromEntries(decided.nodeDecisions.map((result) => [result.node.id, result.decisions.type]));
  assert.deepEqual(byNode, { a: 'NO', b: 'NO', c: 'NO' }, 'b holds the primary (same_shard), a and c are past low');
});

test('disk_threshold counts the copy\'s reported size: a copy that would take the node past high is refused, and copies on their way count too', () => {
  const base = clusterState({ nodes: [node('a'), node('b')] });
  const created = addNewIndex(base, { index: 'big', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '1', 'index.routing.allocation.require._id': 'a' } } as never, '8.19.2', 0).state;
  const state = startAll(reroute(base, created, 0));
  const replica = state.routing.get('big')![0]!.find((copy) => !copy.primary)!;
  assert.equal(replica.state, 'UNASSIGNED');
  // b: 20 GB free of 100 (under low: 15 GB must stay free; high: 10 GB).
  const sized = (primaryGb: number): ClusterInfo => ({ ...info({ a: 50, b: 20 }), shardSizes: new Map([['[big][0][p]', primaryGb * GB]]) });
  const onB = (clusterInfo: ClusterInfo, at = state) =>
    canAllocate(replica, at.nodes.get('b')!, routingAllocation(at, { info: clusterInfo })).decisions.find((d) => d.decider === 'disk_threshold')!;
  // 12 GB would leave 8 GB, under the 10 GB high watermark: refused, in ES's words, the replica sized as its primary.
  const refused = onB(sized(12));
  assert.equal(refused.type, 'NO');
  assert.equal(
    refused.explanation,
    'allocating the shard to this node will bring the node above the high watermark cluster setting [cluster.routing.allocation.disk.watermark.high=90%] and cause it to have less than the minimum required [10gb] of free space (free: [20gb], used: [80%], estimated shard size: [12gb])',
  );
  const fits = onB(sized(5));
  assert.equal(fits.type, 'YES');
  assert.equal(fits.explanation, 'enough disk for shard on node, free: [20gb], used: [80%], shard size: [5gb], free after allocating shard: [15gb]');
  // The same 5 GB no longer fits when a 6 GB copy is already initializing towards b (its bytes are not on b's disk yet).
  const other = addNewIndex(state, { index: 'other', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0', 'index.routing.allocation.require._id': 'b' } } as never, '8.19.2', 0).state;
  const withIncoming = reroute(state, other, 0);
  const otherCopy = withIncoming.routing.get('other')![0]![0]!;
  assert.equal(otherCopy.state, 'INITIALIZING');
  const incoming = { ...withIncoming, routing: new Map(withIncoming.routing).set('other', [[{ ...otherCopy, recoverySource: 'PEER' as const }]]) };
  const crowded: ClusterInfo = { ...info({ a: 50, b: 20 }), shardSizes: new Map([['[big][0][p]', 5 * GB], ['[other][0][p]', 6 * GB]]) };
  assert.equal(onB(crowded, incoming).type, 'NO');
  // The allocator acts on it (filter lifted): the replica stays unassigned while it is too big for b, and goes there once it fits.
  const { ['index.routing.allocation.require._id']: _dropped, ...unfiltered } = state.indices.get('big')!.settings;
  const open = { ...state, indices: new Map(state.indices).set('big', { ...state.indices.get('big')!, settings: unfiltered }) };
  assert.equal(reroute(open, open, 1, { info: sized(12) }).routing.get('big')![0]!.find((copy) => !copy.primary)!.state, 'UNASSIGNED');
  assert.equal(reroute(open, open, 1, { info: sized(5) }).routing.get('big')![0]!.find((copy) => !copy.primary)!.nodeId, 'b');
});
