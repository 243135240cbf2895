/**
 * Failure detection (docs/decisions/0011): a node killed with -9 leaves the cluster well inside its lease (its
 * closed connection and refused port prove it gone), a killed master is replaced as fast, and the probe that
 * decides tells a gone process (refused) from a paused one (its kernel still accepts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ClusterProcesses } from '../helpers/cluster-processes.js';
import { TransportService } from '../../src/transport/index.js';

// A lease far longer than the detection the test asserts: only the fast path can pass.
const LEASE_TTL_SECONDS = 40;
const FAST_ENOUGH_MILLIS = 20_000;

describe('failure detection', () => {
  let cluster: ClusterProcesses;
  before(async () => {
    cluster = await ClusterProcesses.start(3, { 'cluster.etcd.lease_ttl': `${LEASE_TTL_SECONDS}s` });
    for (const node of cluster.nodes) await cluster.waitFor(node, '/_cluster/health', (r) => r.body?.number_of_nodes === 3, 60_000);
  });
  after(async () => {
    await cluster?.stop();
  });

  test('a node killed with -9 leaves the cluster long before its lease expires', async () => {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node', (r) => typeof r.body?.master_node === 'string');
    const victim = cluster.nodes.find((node) => node.nodeId !== state.body.master_node)!;
    const observer = cluster.nodes.find((node) => node !== victim)!;
    const killedAt = Date.now();
    await victim.kill9();
    cluster.nodes.splice(cluster.nodes.indexOf(victim), 1);
    await cluster.waitFor(observer, '/_cluster/health', (r) => r.body?.number_of_nodes === 2, FAST_ENOUGH_MILLIS).catch((err: Error) => {
      throw new Error(`${err.message}\n${cluster.nodes.map((node) => `=== ${node.nodeId}\n${node.logs.slice(-15).join('\n')}`).join('\n')}`);
    });
    const took = Date.now() - killedAt;
    assert.ok(took < LEASE_TTL_SECONDS * 1000, `took ${took} ms`);
  });

  test('a master killed with -9 is replaced long before its lease expires', async () => {
    const state = await cluster.waitFor(cluster.nodes[0]!, '/_cluster/state/master_node,metadata?filter_path=master_node,metadata.cluster_coordination', (r) => typeof r.body?.master_node === 'string');
    const oldTerm = state.body.metadata.cluster_coordination.term as number;
    const master = cluster.nodes.find((node) => node.nodeId === state.body.master_node)!;
    const observer = cluster.nodes.find((node) => node !== master)!;
    const killedAt = Date.now();
    await master.kill9();
    cluster.nodes.splice(cluster.nodes.indexOf(master), 1);
    const elected = await cluster.waitFor(observer, '/_cluster/state/master_node,metadata?filter_path=master_node,metadata.cluster_coordination', (r) => typeof r.body?.master_node === 'string' && r.body.master_node !== master.nodeId, FAST_ENOUGH_MILLIS);
    assert.equal(elected.body.master_node, observer.nodeId);
    assert.ok(elected.body.metadata.cluster_coordination.term > oldTerm, `the new master's term ${elected.body.metadata.cluster_coordination.term} is above ${oldTerm}`);
    assert.ok(Date.now() - killedAt < LEASE_TTL_SECONDS * 1000);
    // The new master publishes the old one's departure too.
    await cluster.waitFor(observer, '/_cluster/health', (r) => r.body?.number_of_nodes === 1, FAST_ENOUGH_MILLIS);
  });
});

test('the probe says refused for a gone process and open for a paused one', async () => {
  const child = spawn(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => createInterface({ input: child.stdout! }).once('line', (line) => resolve(Number(line))));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const transport = new TransportService('127.0.0.1', [0, 0]);
  try {
    child.kill('SIGSTOP');
    assert.equal(await transport.probe(`127.0.0.1:${port}`, 2000), 'open', 'a paused process is alive');
    child.kill('SIGKILL');
    await exited;
    assert.equal(await transport.probe(`127.0.0.1:${port}`, 2000), 'refused', 'a killed process is gone');
  } finally {
    child.kill('SIGKILL');
  }
});
