/**
 * The master's store-listing cache (shard-store-fetch.ts, ES's AsyncShardFetch): one request per data node per
 * shard, "still fetching" until the last answer, one reroute then; a node back under a new ephemeral id is asked
 * again, the primary's node whenever a node joins, a shard's whole cache when a copy started; health's in-flight
 * count follows the requests. The listing requests answer through promises the test settles.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reroute } from '../../../../src/cluster/routing/allocation.js';
import { addNewIndex } from '../../../../src/cluster/metadata/create-index.js';
import { ShardStoreFetcher } from '../../../../src/cluster/routing/shard-store-fetch.js';
import type { ListShardStoreRequest, ShardStoreListing } from '../../../../src/indices/index.js';
import type { DiscoveryNode, ShardRouting } from '../../../../src/cluster/index.js';
import { clusterState, node } from '../../../helpers/cluster-state-builder.js';
import { startCopiesOneByOne as startAll } from '../../../helpers/start-copies.js';

function harness() {
  const asked: Array<{ node: string; request: ListShardStoreRequest; answer: (listing: ShardStoreListing) => void; fail: (err: Error) => void }> = [];
  let reroutes = 0;
  let inFlight = 0;
  const fetcher = new ShardStoreFetcher({
    list: (target: DiscoveryNode, request: ListShardStoreRequest) =>
      new Promise<ShardStoreListing>((resolve, reject) => asked.push({ node: target.id, request, answer: resolve, fail: reject })),
    reroute: () => void reroutes++,
    log: () => undefined,
    inFlight: (count) => void (inFlight = count),
  });
  return { fetcher, asked, reroutes: () => reroutes, inFlight: () => inFlight };
}

const LISTING: ShardStoreListing = { found: true, historyUUID: 'h', localCheckpoint: 1, maxSeqNo: 1, sizeInBytes: 1, files: [] };
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('one request per data node; still fetching until the last answer, then one reroute; failures count as no data', async () => {
  const base = clusterState({ nodes: [node('a'), node('b'), node('c')] });
  const created = addNewIndex(base, { index: 'idx', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '1' } } as never, '8.19.2', 0).state;
  const state = startAll(reroute(base, created, 0));
  const replica = state.routing.get('idx')![0]!.find((copy) => !copy.primary)!;
  const { fetcher, asked, reroutes, inFlight } = harness();
  fetcher.beginRound(state, state);

  assert.equal(fetcher.fetch(replica, state), undefined);
  assert.equal(fetcher.fetch(replica, state), undefined, 'asked once, still waiting');
  assert.deepEqual(asked.map((entry) => entry.node).sort(), ['a', 'b', 'c']);
  assert.deepEqual(asked[0]!.request, { index: 'idx', indexUuid: state.indices.get('idx')!.uuid, shard: 0 });
  assert.equal(inFlight(), 3);
  asked[0]!.answer(LISTING);
  asked[1]!.fail(new Error('no handler'));
  await settle();
  assert.equal(reroutes(), 0, 'no round before the last answer');
  asked[2]!.answer(LISTING);
  await settle();
  await settle();
  assert.equal(reroutes(), 1);
  assert.equal(inFlight(), 0);
  const listings = fetcher.fetch(replica, state)!;
  assert.equal(listings.get(asked[0]!.node), LISTING);
  assert.equal(listings.get(asked[1]!.node), undefined, 'a failed node holds nothing');
  assert.equal(asked.length, 3, 'answered from the cache');
});

test('a node back under a new ephemeral id is asked again, the primary\'s node when any node joins; a started copy drops the shard', async () => {
  const base = clusterState({ nodes: [node('a'), node('b'), node('c')] });
  const created = addNewIndex(base, { index: 'idx', settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '1' } } as never, '8.19.2', 0).state;
  const state = startAll(reroute(base, created, 0));
  const copies = state.routing.get('idx')![0]!;
  const primaryNode = copies.find((copy) => copy.primary)!.nodeId!;
  const replica = copies.find((copy) => !copy.primary)!;
  const spare = ['a', 'b', 'c'].find((id) => !copies.some((copy) => copy.nodeId === id))!;
  const { fetcher, asked } = harness();
  fetcher.beginRound(state, state);
  fetcher.fetch(replica, state);
  for (const entry of asked) entry.answer(LISTING);
  await settle();
  assert.ok(fetcher.fetch(replica, state) !== undefined);

  // The spare node restarts (a new process): it and the primary's node are asked again, the third is not.
  const restarted = { ...state, nodes: new Map([...state.nodes].map(([id, n]): [string, DiscoveryNode] => [id, id === spare ? { ...n, ephemeralId: 'again' } : n])) };
  fetcher.beginRound(state, restarted);
  const before = asked.length;
  assert.equal(fetcher.fetch(replica, restarted), undefined);
  assert.deepEqual(asked.slice(before).map((entry) => entry.node).sort(), [primaryNode, spare].sort());
  for (const entry of asked.slice(before)) entry.answer(LISTING);
  await settle();
  assert.ok(fetcher.fetch(replica, restarted) !== undefined);

  // The replica is placed and then starts: the shard's cache goes.
  const unassigned: ShardRouting = { ...replica, state: 'UNASSIGNED', nodeId: undefined, allocationId: undefined };
  const withUnassigned = { ...restarted, routing: new Map([['idx', [copies.map((copy) => (copy === replica ? unassigned : copy))]]]) };
  const initializing: ShardRouting = { ...unassigned, state: 'INITIALIZING', nodeId: spare, allocationId: 'new' };
  const withInitializing = { ...restarted, routing: new Map([['idx', [copies.map((copy) => (copy === replica ? initializing : copy))]]]) };
  const started = { ...restarted, routing: new Map([['idx', [copies.map((copy) => (copy === replica ? { ...initializing, state: 'STARTED' as const } : copy))]]]) };
  fetcher.beginRound(withUnassigned, withInitializing);
  assert.ok(fetcher.fetch(initializing, withInitializing) !== undefined, 'kept while the copy initializes');
  fetcher.beginRound(withInitializing, started);
  const beforeStart = asked.length;
  assert.equal(fetcher.fetch(initializing, started), undefined, 'asked afresh');
  assert.equal(asked.length - beforeStart, 3);
});
