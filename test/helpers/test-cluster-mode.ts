/**
 * Cluster mode for the API tests (issue 12's "every API works from any node"): with `GANNET_TEST_CLUSTER=3`, a
 * test's `NodeProcess.start()` starts a test etcd and three nodes on it (`cluster.coordination: etcd`, the
 * topology `gannet cluster start --nodes 3` gives: every node master-eligible and a data node) and hands the test
 * the node it talks to. That node is started last, so an earlier node is the elected master and index creation,
 * mappings and settings go to the master over the transport; indices are balanced over the three nodes, so most
 * shards a request touches live on another node.
 *
 * `GANNET_TEST_CLUSTER_TARGET=coordinating` makes the node the test talks to hold no shards (`node.roles: [master]`):
 * then every shard-level request of the test is coordinated across nodes.
 *
 * A start that cannot run this way passes `oneNode: '<reason>'` (a test that kills or restarts its node on its data
 * path, or counts nodes); a start that reuses or keeps a data path without a reason is refused, so no test runs
 * on one node in cluster mode without saying why.
 */
import { TestEtcd } from './etcd.js';
import type { NodeProcess, StartOptions } from './node-process.js';

/** How many nodes a test's node becomes (0: cluster mode is off). */
export function testClusterSize(): number {
  const configured = process.env['GANNET_TEST_CLUSTER'];
  if (configured === undefined || configured === '' || configured === '0' || configured === '1') return 0;
  const size = Number(configured);
  if (!Number.isInteger(size) || size < 2 || size > 5) throw new Error(`GANNET_TEST_CLUSTER must be a node count from 2 to 5, got [${configured}]`);
  return size;
}

/** Whether this start runs a cluster (cluster mode on and the test did not opt out). */
export function startsTestCluster(options: StartOptions): boolean {
  if (testClusterSize() === 0 || options.oneNode !== undefined) return false;
  if (options.dataPath !== undefined || options.keepData === true || options.wrapper !== undefined || options.entry !== undefined) {
    throw new Error(
      'GANNET_TEST_CLUSTER: this start reuses or keeps a data path (or runs another command); one node of a test cluster cannot be ' +
        "restarted on its own, so pass oneNode: '<why this test needs one node>'",
    );
  }
  return true;
}

/** The ids of the other nodes and the etcd behind a test's node in cluster mode, stopped with it. */
export interface TestClusterPeers {
  readonly peers: NodeProcess[];
  readonly etcd: TestEtcd;
}

/**
 * Starts etcd and `testClusterSize()` nodes with the test's settings; `startOne` is NodeProcess's own single start.
 * Returns the node the test talks to (the last one), with the others and etcd attached to be stopped with it.
 */
export async function startTestCluster(options: StartOptions, startOne: (options: StartOptions) => Promise<NodeProcess>): Promise<{ target: NodeProcess; peers: TestClusterPeers }> {
  const size = testClusterSize();
  const etcd = await TestEtcd.start();
  const settings = options.settings ?? {};
  const name = settings['node.name'] ?? 'test-node';
  const clusterSettings: Record<string, string> = {
    'cluster.name': settings['cluster.name'] ?? `test-${Math.random().toString(36).slice(2, 8)}`,
    'cluster.coordination': 'etcd',
    'cluster.etcd.endpoints': etcd.endpoint,
  };
  const peers: NodeProcess[] = [];
  const stopAll = async (): Promise<void> => {
    await Promise.all(peers.map((peer) => peer.stop().catch(() => undefined)));
    await etcd.stop();
  };
  try {
    // One after another, as ClusterProcesses starts them: several nodes starting at once on a loaded two-core host
    // can run past the start timeout. The first one is elected master.
    for (let i = 1; i < size; i++) {
      peers.push(await startOne({ ...options, settings: { ...settings, ...clusterSettings, 'node.name': `${name}-peer${i}` }, startTimeoutMillis: 60_000 }));
    }
    const targetRoles: Record<string, string> = process.env['GANNET_TEST_CLUSTER_TARGET'] === 'coordinating' ? { 'node.roles': 'master' } : {};
    const target = await startOne({ ...options, settings: { ...settings, ...clusterSettings, ...targetRoles, 'node.name': name }, startTimeoutMillis: 60_000 });
    const joined = await target.request('GET', `/_cluster/health?wait_for_nodes=${size}&timeout=60s`);
    if (joined.status !== 200 || joined.body?.number_of_nodes !== size) {
      await target.stop();
      throw new Error(`the test cluster did not form: ${joined.text}`);
    }
    return { target, peers: { peers, etcd } };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
