/**
 * The master-side index changes as pure state transitions: creating an index (settings completed, mapping
 * checked, copies placed, replicas unassigned on one node), rebuilding routing after a restart, replica count
 * and settings updates, mapping merges, shards reported started or failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addNewIndex, autoExpandedReplicas } from '../../../src/cluster/metadata/create-index.js';
import { mergeMappingInto, removeIndices, updateIndexSettings, checkWriteBlocks } from '../../../src/cluster/metadata/index-updates.js';
import { markShardFailed, markShardsStarted, restoredRouting } from '../../../src/cluster/routing/shard-allocation.js';
import { enoughShardsActive, parseActiveShardCount } from '../../../src/cluster/metadata/active-shard-count.js';
import { clusterState, node } from '../../helpers/cluster-state-builder.js';

const NOW = 1_700_000_000_000;

function created(settings: unknown = {}, mappings?: unknown) {
  return addNewIndex(clusterState({ nodes: [node('n1')] }), { index: 'logs', settings, mappings }, '8.19.2', NOW);
}

test('a new index: completed settings, primaries initializing on the data node, replicas unassigned', () => {
  const { state, metadata } = created({ number_of_shards: 3 });
  assert.equal(metadata.numberOfShards, 3);
  assert.equal(metadata.numberOfReplicas, 1);
  assert.equal(metadata.settings['index.provided_name'], 'logs');
  assert.equal(metadata.settings['index.creation_date'], String(NOW));
  assert.equal(metadata.settings['index.version.created'], '8190299');
  assert.equal(metadata.settings['index.routing.allocation.include._tier_preference'], 'data_content');
  assert.match(metadata.uuid, /^[\w-]{22}$/);
  assert.deepEqual(metadata.primaryTerms, [1, 1, 1]);
  const routing = state.routing.get('logs')!;
  assert.equal(routing.length, 3);
  for (const [primary, replica] of routing) {
    assert.equal(primary!.state, 'INITIALIZING');
    assert.equal(primary!.nodeId, 'n1');
    assert.equal(primary!.recoverySource, 'EMPTY_STORE');
    assert.equal(replica!.state, 'UNASSIGNED');
    assert.equal(replica!.unassignedInfo!.reason, 'INDEX_CREATED');
  }
});

test('creation errors: name, existing index or alias, settings, routing shards, mapping, analysis', () => {
  const { state } = created({}, undefined);
  assert.throws(() => addNewIndex(state, { index: 'logs' }, '8.19.2', NOW), /index \[logs\/[\w-]{22}\] already exists/);
  const aliased = addNewIndex(clusterState(), { index: 'a', aliases: { shared: {} } }, '8.19.2', NOW).state;
  assert.throws(() => addNewIndex(aliased, { index: 'shared' }, '8.19.2', NOW), /Invalid index name \[shared\], already exists as alias/);
  assert.throws(() => created({ number_of_shards: 3, number_of_routing_shards: 4 }), /the number of source shards \[3\] must be a factor of \[4\]/);
  assert.throws(() => created({ number_of_shards: 4, number_of_routing_shards: 2 }), /must be >= index.number_of_shards/);
  assert.throws(() => created({}, { properties: { f: { type: 'nope' } } }), (err: { type?: string }) => err.type === 'mapper_parsing_exception');
  assert.throws(() => created({ analysis: { analyzer: { a: { type: 'custom' } } } }), /Custom Analyzer \[a\] must be configured with a tokenizer/);
  assert.throws(() => created({}, { properties: { f: { type: 'text', analyzer: 'missing' } } }), /analyzer \[missing\]/);
  assert.doesNotThrow(() => created({ analysis: { analyzer: { mine: { tokenizer: 'whitespace' } } } }, { properties: { f: { type: 'text', analyzer: 'mine' } } }));
});

test('auto_expand_replicas follows the data nodes', () => {
  assert.equal(autoExpandedReplicas({ 'index.auto_expand_replicas': '0-1' }, 1), 0);
  assert.equal(autoExpandedReplicas({ 'index.auto_expand_replicas': '0-1' }, 3), 1);
  assert.equal(autoExpandedReplicas({ 'index.auto_expand_replicas': '0-all' }, 3), 2);
  assert.equal(autoExpandedReplicas({ 'index.auto_expand_replicas': '1-5' }, 1), 1);
  assert.equal(autoExpandedReplicas({ 'index.auto_expand_replicas': 'false' }, 3), undefined);
  assert.equal(created({ auto_expand_replicas: '0-1' }).metadata.numberOfReplicas, 0);
});

test('started reports move a copy to STARTED once, and put it in sync', () => {
  const { state } = created({ number_of_shards: 1, number_of_replicas: 0 });
  const primary = state.routing.get('logs')![0]![0]!;
  const started = markShardsStarted(state, [{ index: 'logs', shard: 0, allocationId: primary.allocationId! }]);
  assert.equal(started.routing.get('logs')![0]![0]!.state, 'STARTED');
  assert.deepEqual(started.indices.get('logs')!.inSyncAllocationIds, [[primary.allocationId]]);
  assert.equal(markShardsStarted(started, [{ index: 'logs', shard: 0, allocationId: primary.allocationId! }]), started, 'a repeated report changes nothing');
  assert.equal(markShardsStarted(state, [{ index: 'logs', shard: 0, allocationId: 'stale' }]), state);
  assert.ok(enoughShardsActive(started, 'logs', parseActiveShardCount('1')));
  assert.ok(!enoughShardsActive(state, 'logs', parseActiveShardCount('1')));
  const failed = markShardFailed(state, { index: 'logs', shard: 0, allocationId: primary.allocationId! }, NOW);
  const copy = failed.routing.get('logs')![0]![0]!;
  assert.equal(copy.state, 'UNASSIGNED');
  assert.equal(copy.unassignedInfo!.reason, 'ALLOCATION_FAILED');
  assert.equal(copy.unassignedInfo!.failedAllocations, 1);
});

test('after a restart, primaries recover from their store under a new primary term', () => {
  const { state } = created({ number_of_shards: 2 });
  const restored = restoredRouting({ ...state, routing: new Map() }, NOW);
  for (const [primary, replica] of restored.routing.get('logs')!) {
    assert.equal(primary!.state, 'INITIALIZING');
    assert.equal(primary!.recoverySource, 'EXISTING_STORE');
    assert.equal(replica!.state, 'UNASSIGNED');
    assert.equal(replica!.unassignedInfo!.reason, 'CLUSTER_RECOVERED');
  }
  assert.deepEqual(restored.indices.get('logs')!.primaryTerms, [2, 2]);
});

test('settings updates: dynamic only on open indices, replica count reshapes routing, null resets', () => {
  const { state } = created({ number_of_shards: 2 });
  assert.throws(() => updateIndexSettings(state, ['logs'], { 'index.number_of_shards': '3' }, false, NOW), /Can't update non dynamic settings \[\[index\.number_of_shards\]\] for open indices \[\[logs\/[\w-]{22}\]\]$/);
  const more = updateIndexSettings(state, ['logs'], { 'index.number_of_replicas': '2' }, false, NOW);
  assert.equal(more.indices.get('logs')!.numberOfReplicas, 2);
  assert.deepEqual(more.routing.get('logs')!.map((copies) => copies.length), [3, 3]);
  const none = updateIndexSettings(more, ['logs'], { 'index.number_of_replicas': '0' }, false, NOW);
  assert.deepEqual(none.routing.get('logs')!.map((copies) => copies.length), [1, 1]);
  const set = updateIndexSettings(state, ['logs'], { 'index.refresh_interval': '5s' }, false, NOW);
  assert.equal(set.indices.get('logs')!.settings['index.refresh_interval'], '5s');
  const kept = updateIndexSettings(set, ['logs'], { 'index.refresh_interval': '9s' }, true, NOW);
  assert.equal(kept.indices.get('logs')!.settings['index.refresh_interval'], '5s', 'preserve_existing keeps a value already set');
  const reset = updateIndexSettings(set, ['logs'], { 'index.refresh_interval': null }, false, NOW);
  assert.equal(reset.indices.get('logs')!.settings['index.refresh_interval'], undefined);
  const blocked = updateIndexSettings(state, ['logs'], { 'index.blocks.write': 'true' }, false, NOW);
  assert.throws(() => checkWriteBlocks(blocked.indices.get('logs')!), /index \[logs\] blocked by: \[FORBIDDEN\/8\/index write \(api\)\];/);
});

test('mapping merges add fields, refuse conflicts, and leave the state alone when nothing changes', () => {
  const { state } = created({}, { properties: { a: { type: 'keyword' } } });
  const merged = mergeMappingInto(state, ['logs'], { properties: { b: { type: 'long' } } }, false);
  assert.deepEqual(merged.indices.get('logs')!.mappings, { properties: { a: { type: 'keyword' }, b: { type: 'long' } } });
  assert.equal(mergeMappingInto(merged, ['logs'], { properties: { b: { type: 'long' } } }, false), merged);
  assert.throws(() => mergeMappingInto(merged, ['logs'], { properties: { a: { type: 'long' } } }, false), /mapper \[a\] cannot be changed from type \[keyword\] to \[long\]/);
  const removed = removeIndices(merged, ['logs']);
  assert.equal(removed.indices.has('logs'), false);
  assert.equal(removed.routing.has('logs'), false);
});
