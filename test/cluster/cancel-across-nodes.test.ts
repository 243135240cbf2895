/**
 * `POST _tasks/_cancel?nodes=...` across a three-node cluster (issue 12): the cancel fans out to exactly the nodes
 * its selectors name (ids, names, `_local`, `_master`, `_all`, `master:true`, `data:true`, `attr:value`,
 * wildcards), asked through any node, and cancels the matching tasks there; `POST _tasks/{id}/_cancel` reaches the
 * task's own node. The tasks are waiting `_cluster/health` requests, one started through each node.
 * Nodes run in this process (in-process-cluster.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessCluster, type InProcessNode } from '../helpers/in-process-cluster.js';
import type { HttpResult } from '../helpers/node-process.js';

const HEALTH = 'cluster:monitor/health';

describe('cancel by node selectors through every node', () => {
  let cluster: InProcessCluster;
  before(async () => {
    cluster = await InProcessCluster.start(2);
    await cluster.addNode({ 'node.attr.zone': 'blue', 'node.name': 'special-2' });
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3);
  });
  after(async () => {
    await cluster?.stop();
  });

  /** One waiting health request through each node; resolves once all three are registered tasks. */
  async function waitingHealthOnEveryNode(): Promise<Map<string, Promise<HttpResult>>> {
    const pending = new Map(cluster.nodes.map((node) => [node.nodeId, node.request('GET', '/_cluster/health?wait_for_nodes=9&timeout=60s')] as const));
    await cluster.waitFor(cluster.nodes[0]!, `/_tasks?actions=${HEALTH}`, (r) => Object.keys(r.body?.nodes ?? {}).length === 3);
    return pending;
  }

  async function masterId(): Promise<string> {
    return (await cluster.nodes[0]!.request('GET', '/_cluster/state/master_node')).body.master_node as string;
  }

  const byName = (name: string): InProcessNode => cluster.nodes.find((node) => node.node.nodeServices.localNode.name === name)!;

  test('each selector cancels the tasks of exactly its nodes', async () => {
    const master = await masterId();
    const [n0, n1, special] = [byName('node-0'), byName('node-1'), byName('special-2')];
    const cases: Array<{ selector: string; through: InProcessNode; expected: string[] }> = [
      { selector: n1.nodeId, through: n0, expected: [n1.nodeId] },
      { selector: 'node-0', through: special, expected: [n0.nodeId] },
      { selector: '_local', through: special, expected: [special.nodeId] },
      { selector: '_master', through: n1, expected: [master] },
      { selector: 'zone:blue', through: n0, expected: [special.nodeId] },
      { selector: 'node-*', through: special, expected: [n0.nodeId, n1.nodeId] },
      { selector: 'data:true,master:true', through: n1, expected: [n0.nodeId, n1.nodeId, special.nodeId] },
      { selector: '_all', through: n0, expected: [n0.nodeId, n1.nodeId, special.nodeId] },
    ];
    for (const { selector, through, expected } of cases) {
      const pending = await waitingHealthOnEveryNode();
      const cancelled = await through.request('POST', `/_tasks/_cancel?actions=${HEALTH}&nodes=${encodeURIComponent(selector)}`);
      assert.equal(cancelled.status, 200, `${selector}: ${cancelled.text}`);
      assert.deepEqual(Object.keys(cancelled.body.nodes ?? {}).sort(), [...expected].sort(), `${selector} through ${through.name}: ${cancelled.text}`);
      for (const entry of Object.values(cancelled.body.nodes) as Array<{ tasks: Record<string, { action: string; cancelled?: boolean }> }>) {
        const actions = Object.values(entry.tasks).map((task) => task.action);
        assert.deepEqual(actions, [HEALTH], selector);
      }
      // The cancelled requests end now; the others still wait.
      for (const nodeId of expected) {
        const answer = await pending.get(nodeId)!;
        assert.notEqual(answer.status, 200, `the health request on ${nodeId} was cancelled (${selector}): ${answer.text}`);
      }
      const still = cluster.nodes.filter((node) => !expected.includes(node.nodeId)).map((node) => node.nodeId);
      const listed = await through.request('GET', `/_tasks?actions=${HEALTH}`);
      assert.deepEqual(Object.keys(listed.body.nodes ?? {}).sort(), still.sort(), `${selector}: ${listed.text}`);
      if (still.length > 0) {
        const rest = await through.request('POST', `/_tasks/_cancel?actions=${HEALTH}`);
        assert.deepEqual(Object.keys(rest.body.nodes).sort(), still.sort());
      }
      await Promise.all(pending.values());
    }
  });

  test('cancelling a task by id through another node reaches its node', async () => {
    const pending = await waitingHealthOnEveryNode();
    const target = byName('special-2');
    const listed = await target.request('GET', `/_tasks?actions=${HEALTH}&nodes=_local`);
    const taskId = Object.keys(listed.body.nodes[target.nodeId].tasks)[0]!;
    const cancelled = await byName('node-0').request('POST', `/_tasks/${taskId}/_cancel`);
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(Object.keys(cancelled.body.nodes), [target.nodeId], cancelled.text);
    assert.notEqual((await pending.get(target.nodeId)!).status, 200);
    await byName('node-1').request('POST', `/_tasks/_cancel?actions=${HEALTH}`);
    await Promise.all(pending.values());
  });
});
