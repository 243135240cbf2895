/**
 * A master paused past its lease (SIGSTOP) is replaced; when it resumes, the state write it attempts is
 * refused by etcd's fence (its campaign key is gone), it steps down, and the request it had taken in is served
 * by the new master instead. The state's term only grows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import { eventually } from '../helpers/eventually.js';
import type { NodeProcess } from '../helpers/node-process.js';

let cluster: ClusterProcesses;
before(async () => {
  cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': '2s' });
});
after(async () => {
  for (const node of cluster?.nodes ?? []) node.child.kill('SIGCONT');
  await cluster?.stop();
});

async function masterOf(node: NodeProcess): Promise<{ id: string; term: number }> {
  const state = await cluster.waitFor(node, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string');
  return { id: state.body.master_node, term: 0 };
}

test("a deposed master's state write is rejected and its request is served by the new master", async () => {
  for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3);
  const { id: oldMasterId } = await masterOf(cluster.nodes[0]!);
  const oldMaster = cluster.nodes.find((node) => node.nodeId === oldMasterId)!;
  const others = cluster.nodes.filter((node) => node !== oldMaster);
  assert.equal(others.length, 2);

  oldMaster.child.kill('SIGSTOP');
  try {
    // The request reaches the paused master's socket now and is handled only when it wakes up.
    const pending = oldMaster.request('PUT', '/written-while-paused');
    const elected = await cluster.waitFor(others[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string' && r.body.master_node !== oldMasterId, 30_000);
    const newMasterId = elected.body.master_node as string;
    oldMaster.child.kill('SIGCONT');
    const response = await pending;
    assert.equal(response.status, 200, response.text);
    for (const node of cluster.nodes) {
      const role = node === oldMaster ? 'old master' : 'other node';
      await cluster.waitFor(node, '/_cluster/state/master_node', (r) => r.body?.master_node === newMasterId, 30_000).catch((err: Error) => {
        throw new Error(`${role} ${node.nodeId} never saw new master ${newMasterId} (old ${oldMasterId}): ${err.message}\n${node.logs.slice(-15).join('\n')}`);
      });
      await cluster.waitFor(node, '/_cat/indices/written-while-paused?h=index', (r) => r.text.trim() === 'written-while-paused', 30_000);
    }
    // Waited for: the line comes on the old master's stdout pipe, the answers above on sockets, and their order
    // in this process is not the order the node wrote them in.
    await eventually(() => oldMaster.logs.some((line) => /stepping down as master/.test(line)), 'the old master logged its step-down', 30_000).catch(() => undefined);
    const logs = oldMaster.logs.join('\n');
    assert.match(logs, /stepping down as master/, 'the old master stepped down');
    assert.doesNotMatch(logs.split(/stepping down as master/)[1] ?? '', /elected as master, term/, 'and did not publish as master again before the test ended');
  } finally {
    oldMaster.child.kill('SIGCONT');
  }
});
