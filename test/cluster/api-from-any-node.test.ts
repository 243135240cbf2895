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
});
