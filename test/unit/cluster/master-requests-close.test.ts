/**
 * A stopping node's requests to the master end when it stops (MasterRequests.close): with its transport closed no
 * master can be reached, and a request kept retrying until its master_timeout (30 s by default), its timer keeping
 * the stopped node's process alive that long (seen as a node its exit watchdog had to end, three-nodes.test.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterService } from '../../../src/cluster/index.js';
import { initialClusterState } from '../../../src/cluster/coordination/embedded-coordinator.js';
import type { Coordinator } from '../../../src/cluster/coordination/coordinator.js';
import { MasterRequests } from '../../../src/cluster/master-requests.js';

const noMaster: Coordinator = {
  kind: 'etcd',
  start: async () => undefined,
  stop: async () => undefined,
  isMaster: () => false,
  term: () => 0,
  submitStateUpdate: () => Promise.reject(new Error('not the master')),
};

test('a request waiting for a master ends with node_closed_exception soon after the node closes its master requests', async () => {
  const requests = new MasterRequests(new ClusterService(initialClusterState('closing')), noMaster, undefined, 'local');
  requests.register('op', async () => 'done');
  const started = Date.now();
  const waiting = requests.run('op', {}, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  requests.close();
  await assert.rejects(waiting, (err: Error & { type?: string }) => err.type === 'node_closed_exception');
  assert.ok(Date.now() - started < 5_000, `ended ${Date.now() - started} ms after it began, not at its 30 s master timeout`);
  await assert.rejects(requests.run('op', {}, 30_000), (err: Error & { type?: string }) => err.type === 'node_closed_exception', 'a later request fails at once');
});
