/**
 * `_cluster/allocation/explain` and `_cluster/reroute` on one node, against ES's shapes and errors (issue 14 #6):
 * an unassigned replica is explained by same_shard, an assigned primary by can_remain / can_rebalance, and the
 * reroute commands refuse what the deciders refuse with ES's messages. The cluster behaviours (moves, cancels,
 * max_retries, rebalancing, disk) are in test/cluster/allocation-tools.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { assertError } from '../helpers/es-error-assertions.js';

let node: NodeProcess;

before(async () => {
  // The explanations are about the only node (same_shard NO there); the cluster cases are in test/cluster/.
  node = await NodeProcess.start({ oneNode: 'explains the allocation decisions of a one-node cluster' });
  assert.equal((await node.request('PUT', '/idx', { body: { settings: { number_of_shards: 1, number_of_replicas: 1 } } })).status, 200);
  await node.request('GET', '/_cluster/health/idx?wait_for_status=yellow&timeout=20s');
});

after(async () => {
  await node.stop();
});

test('no body and nothing unassigned: ES 8 400 naming the API page', async () => {
  const other = await NodeProcess.start();
  try {
    const res = await other.request('GET', '/_cluster/allocation/explain');
    assertError(
      res,
      400,
      'illegal_argument_exception',
      'There are no unassigned shards in this cluster. Specify an assigned shard in the request body to explain its allocation. See https://www.elastic.co/guide/en/elasticsearch/reference/8.19/cluster-allocation-explain.html for more information.',
    );
  } finally {
    await other.stop();
  }
});

test('no body: the unassigned replica, with the note, unassigned_info and same_shard NO on the only node', async () => {
  const res = await node.request('GET', '/_cluster/allocation/explain');
  assert.equal(res.status, 200, res.text);
  const body = res.body;
  assert.deepEqual(Object.keys(body), ['note', 'index', 'shard', 'primary', 'current_state', 'unassigned_info', 'can_allocate', 'allocate_explanation', 'node_allocation_decisions']);
  assert.equal(body.index, 'idx');
  assert.equal(body.shard, 0);
  assert.equal(body.primary, false);
  assert.equal(body.current_state, 'unassigned');
  assert.equal(body.unassigned_info.reason, 'INDEX_CREATED');
  assert.match(body.unassigned_info.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(body.unassigned_info.last_allocation_status, 'no_attempt');
  assert.equal(body.can_allocate, 'no');
  const [decision] = body.node_allocation_decisions;
  assert.deepEqual(Object.keys(decision), ['node_id', 'node_name', 'transport_address', 'roles', 'node_decision', 'weight_ranking', 'deciders']);
  assert.equal(decision.node_id, node.nodeId);
  assert.equal(decision.node_decision, 'no');
  assert.equal(decision.weight_ranking, 1);
  assert.equal(decision.deciders.length, 1, 'YES decisions are left out by default');
  assert.equal(decision.deciders[0].decider, 'same_shard');
  assert.equal(decision.deciders[0].decision, 'NO');
  assert.match(decision.deciders[0].explanation, /^a copy of this shard is already allocated to this node \[\[idx\]\[0\], node\[[^\]]+\], \[P\], s\[STARTED\], a\[id=[^\]]+\]\]$/);
});

test('an assigned primary: current_node, can_remain_on_current_node, can_rebalance_*; include_yes_decisions lists every decider', async () => {
  const res = await node.request('POST', '/_cluster/allocation/explain?include_yes_decisions=true', { body: { index: 'idx', shard: 0, primary: true } });
  assert.equal(res.status, 200, res.text);
  const body = res.body;
  assert.equal(body.note, undefined);
  assert.equal(body.current_state, 'started');
  assert.equal(body.current_node.id, node.nodeId);
  assert.equal(body.current_node.name, 'test-node');
  assert.equal(body.can_remain_on_current_node, 'yes');
  assert.equal(body.can_rebalance_cluster, 'no', 'a replica is unassigned: allow_rebalance indices_all_active');
  const deciders = (body.can_rebalance_cluster_decisions as Array<{ decider: string; decision: string }>).map((d) => `${d.decider}:${d.decision}`);
  assert.ok(deciders.includes('cluster_rebalance:NO'), deciders.join());
  assert.ok(deciders.includes('enable:YES'), deciders.join());
  assert.equal(body.can_rebalance_to_other_node, 'no');
  assert.equal(typeof body.rebalance_explanation, 'string');
});

test('explain requests ES refuses: half a shard, a missing index or shard, a node that holds no such copy', async () => {
  assertError(await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'idx' } }), 400, 'action_request_validation_exception', 'Validation Failed: 1: shard must be specified;2: primary must be specified;');
  assertError(await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'nope', shard: 0, primary: true } }), 404, 'index_not_found_exception', 'no such index [nope]');
  assertError(await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'idx', shard: 5, primary: true } }), 404, 'shard_not_found_exception', 'no such shard');
  assertError(await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'idx', shard: 0, primary: false, current_node: 'test-node' } }), 400, 'illegal_argument_exception', 'unable to find a replica shard assigned to node [test-node]');
  assertError(await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'idx', shard: 0, primary: true, current_node: 'elsewhere' } }), 400, 'illegal_argument_exception', 'failed to resolve [elsewhere], no matching nodes');
  const unknown = await node.request('POST', '/_cluster/allocation/explain', { body: { index: 'idx', shard: 0, primary: true, bogus: 1 } });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.type, 'x_content_parse_exception');
});

test('reroute: a command the deciders refuse fails with every decision; explain turns it into a NO explanation and changes nothing', async () => {
  const refused = await node.request('POST', '/_cluster/reroute?metric=none', { body: { commands: [{ allocate_replica: { index: 'idx', shard: 0, node: 'test-node' } }] } });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error.type, 'illegal_argument_exception');
  assert.match(refused.body.error.reason, /^\[allocate_replica\] allocation of \[idx\]\[0\] on node \{test-node\}\{[^}]+\}.* is not allowed, reason: \[YES\(shard has no previous failures\)\].*\[NO\(a copy of this shard is already allocated to this node /);
  const explained = await node.request('POST', '/_cluster/reroute?explain=true&metric=none', { body: { commands: [{ allocate_replica: { index: 'idx', shard: 0, node: 'test-node' } }] } });
  assert.equal(explained.status, 200, explained.text);
  assert.deepEqual(Object.keys(explained.body), ['acknowledged', 'explanations']);
  const [explanation] = explained.body.explanations;
  assert.equal(explanation.command, 'allocate_replica');
  assert.deepEqual(explanation.parameters, { index: 'idx', shard: 0, node: 'test-node' });
  assert.ok(explanation.decisions.some((d: { decider: string; decision: string }) => d.decider === 'same_shard' && d.decision === 'NO'));
  const health = await node.request('GET', '/_cluster/health/idx');
  assert.equal(health.body.unassigned_shards, 1);
});

test('reroute command errors as ES words them', async () => {
  const reroute = (command: unknown) => node.request('POST', '/_cluster/reroute?metric=none', { body: { commands: [command] } });
  assertError(await reroute({ allocate_empty_primary: { index: 'idx', shard: 0, node: 'test-node' } }), 400, 'illegal_argument_exception', '[allocate_empty_primary] primary [idx][0] is already assigned');
  assertError(await reroute({ allocate_stale_primary: { index: 'idx', shard: 0, node: 'test-node', accept_data_loss: true } }), 400, 'illegal_argument_exception', '[allocate_stale_primary] primary [idx][0] is already assigned');
  const cancel = await reroute({ cancel: { index: 'idx', shard: 0, node: 'test-node' } });
  assert.equal(cancel.status, 400, cancel.text);
  assert.match(cancel.body.error.reason, /^\[cancel_allocation\] can't cancel 0 on node \{test-node\}\{[^}]+\}\{[^}]+\}\{[^}]+\}\{127\.0\.0\.1:\d+\}\{[a-z]+\}, shard is primary and started$/);
  assertError(await reroute({ allocate_replica: { index: 'nope', shard: 0, node: 'test-node' } }), 404, 'index_not_found_exception', 'no such index [nope]');
  assertError(await reroute({ allocate_replica: { index: 'idx', shard: 0, node: 'nowhere' } }), 400, 'illegal_argument_exception', 'failed to resolve [nowhere], no matching nodes');
  const missing = await reroute({ move: { index: 'idx', shard: 0, from_node: 'test-node' } });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.type, 'x_content_parse_exception');
  assert.equal(missing.body.error.caused_by.reason, '[move] command missing the to_node parameter');
  const unknown = await reroute({ bogus: {} });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.caused_by.type, 'named_object_not_found_exception');
});

test('reroute with no commands answers acknowledged and the state without metadata, with ES 8 deprecation warning', async () => {
  const res = await node.request('POST', '/_cluster/reroute');
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.acknowledged, true);
  assert.deepEqual(Object.keys(res.body.state), ['cluster_uuid', 'version', 'state_uuid', 'master_node', 'blocks', 'nodes', 'routing_table', 'routing_nodes']);
  assert.match(String(res.headers['warning']), /The \[state\] field in the response to the reroute API is deprecated/);
  const none = await node.request('POST', '/_cluster/reroute?metric=none');
  assert.deepEqual(none.body, { acknowledged: true });
});
