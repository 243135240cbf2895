/**
 * The cluster-mode audit's findings (issue 12: "every API in docs/compat.md works from any node"): requests that
 * answered differently through a node that is not the master, or that does not hold the shard, than on one node.
 * Each test sends its request through such a node of a three-node cluster and checks ES's answer. The audit that
 * found them runs the API test files against three nodes: `node scripts/cluster-audit.mjs` (README, Testing).
 * Nodes run in this process (in-process-cluster.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';

describe('APIs through a node that is not the master', () => {
  let cluster: InProcessCluster;
  /** A node that is neither the elected master nor, for the indices below, necessarily a holder. */
  let other: InProcessNode;
  before(async () => {
    cluster = await InProcessCluster.start(3);
    const master = (await cluster.nodes[0]!.request('GET', '/_cat/master?h=id')).text.trim();
    other = cluster.nodes.find((node) => node.nodeId !== master)!;
  });
  after(async () => {
    await cluster?.stop();
  });

  test('_aliases: a removal that finds nothing is a 404 in action_results, as on the master', async () => {
    assert.equal((await other.request('PUT', '/al1', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
    const partial = await other.request('POST', '/_aliases', {
      body: { actions: [{ add: { index: 'al1', aliases: 'a1' } }, { remove: { index: 'al1', aliases: 'not_there' } }] },
    });
    assert.equal(partial.status, 200, partial.text);
    assert.equal(partial.body.errors, true);
    assert.deepEqual(partial.body.action_results[0], { action: { type: 'add', indices: ['al1'], aliases: ['a1'] }, status: 200 });
    assert.equal(partial.body.action_results[1].status, 404, partial.text);
    assert.deepEqual(partial.body.action_results[1].error, { type: 'aliases_not_found_exception', reason: 'aliases [not_there] missing', 'resource.type': 'aliases', 'resource.id': 'not_there' });
  });

  test('_stats indexing: a replica counts the indexing and deletes it applied, as ES; a recovery counts nothing', async () => {
    assert.equal((await other.request('PUT', '/st1', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } })).status, 200);
    await cluster.waitFor(other, '/_cluster/health/st1?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    await other.request('PUT', '/st1/_doc/1', { body: { msg: 'a' } });
    await other.request('PUT', '/st1/_doc/2', { body: { msg: 'b' } });
    assert.equal((await other.request('DELETE', '/st1/_doc/2')).status, 200);
    const stats = await other.request('GET', '/st1/_stats/indexing');
    const indexing = (scope: 'primaries' | 'total') => stats.body._all[scope].indexing;
    assert.equal(indexing('primaries').index_total, 2, stats.text);
    assert.equal(indexing('primaries').delete_total, 1);
    // The replica's delete was counted as indexing: index_total 5, delete_total 1.
    assert.equal(indexing('total').index_total, 4, stats.text);
    assert.equal(indexing('total').delete_total, 2);

    // A replica added later is filled by a recovery: what it copies or replays is not indexing (ES: isRecovery).
    assert.equal((await other.request('PUT', '/st2', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
    for (let i = 0; i < 5; i++) await other.request('PUT', `/st2/_doc/${i}`, { body: { n: i } });
    assert.equal((await other.request('PUT', '/st2/_settings', { body: { index: { number_of_replicas: 1 } } })).status, 200);
    await cluster.waitFor(other, '/_cluster/health/st2?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const afterRecovery = await other.request('GET', '/st2/_stats/indexing');
    assert.equal(afterRecovery.body._all.total.indexing.index_total, 5, afterRecovery.text);
  });

  test('_rollover measures max_docs on the primaries wherever they live', async () => {
    // The write index's shards on the other nodes: measured on this node alone, the index held no documents.
    const settings = { number_of_shards: 2, number_of_replicas: 0, 'index.routing.allocation.exclude._name': other.name };
    assert.equal((await other.request('PUT', '/roll-000001', { body: { settings, aliases: { roll: { is_write_index: true } } } })).status, 200);
    await cluster.waitFor(other, '/_cluster/health/roll-000001?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const bulk = await other.request('POST', '/_bulk?refresh=true', {
      raw: '{"index":{"_index":"roll","_id":"a"}}\n{"n":1}\n{"index":{"_index":"roll","_id":"b"}}\n{"n":2}\n',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(bulk.body.errors, false, bulk.text);
    const notYet = await other.request('POST', '/roll/_rollover?dry_run=true', { body: { conditions: { max_docs: 3 } } });
    assert.deepEqual(notYet.body.conditions, { '[max_docs: 3]': false }, notYet.text);
    const rolled = await other.request('POST', '/roll/_rollover', { body: { conditions: { max_docs: 2, max_primary_shard_docs: 1 } } });
    assert.equal(rolled.status, 200, rolled.text);
    assert.deepEqual(rolled.body.conditions, { '[max_docs: 2]': true, '[max_primary_shard_docs: 1]': true }, rolled.text);
    assert.equal(rolled.body.rolled_over, true);
    assert.equal(rolled.body.new_index, 'roll-000002');
  });

  test('a realtime get of stored numbers from a copy on another node prints the numbers', async () => {
    const settings = { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.exclude._name': other.name };
    const mappings = { properties: { count: { type: 'integer', store: true }, ratio: { type: 'float', store: true }, tag: { type: 'keyword', store: true } } };
    assert.equal((await other.request('PUT', '/stored', { body: { settings, mappings } })).status, 200);
    await cluster.waitFor(other, '/_cluster/health/stored?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    await other.request('PUT', '/stored/_doc/1', { body: { count: '7', ratio: 1.1, tag: 'x' } });
    // Before a refresh the stored values come from the source parsed again: number literals (they crossed the
    // transport as {"text":"7"}).
    const got = await other.request('GET', '/stored/_doc/1?stored_fields=count,ratio,tag');
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body.fields, { count: [7], ratio: [1.1], tag: ['x'] }, got.text);
    const mget = await other.request('POST', '/stored/_mget', { body: { docs: [{ _id: '1', stored_fields: ['count'] }] } });
    assert.deepEqual(mget.body.docs[0].fields, { count: [7] }, mget.text);
  });

  test('create index: waiting for shards longer than master_timeout is shards_acknowledged false, not a 503', async () => {
    // No node has the attribute: the primary stays unassigned, and the master waits `timeout` for it.
    const settings = { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require.zone': 'nowhere' };
    const started = Date.now();
    const created = await other.request('PUT', '/unplaced?master_timeout=500ms&timeout=2s', { body: { settings } });
    assert.equal(created.status, 200, created.text);
    assert.deepEqual(created.body, { acknowledged: true, shards_acknowledged: false, index: 'unplaced' });
    assert.ok(Date.now() - started >= 1_500, 'it waited the timeout for the shards');
  });
});
