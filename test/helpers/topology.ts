/**
 * What a test may assume about the cluster behind its node, so that an API test holds on one node and in cluster
 * mode (GANNET_TEST_CLUSTER, test-cluster-mode.ts) alike, and stays exact on one node.
 */
import assert from 'node:assert/strict';
import type { NodeProcess } from './node-process.js';

/** How many nodes the test's node belongs to: 1, or the whole test cluster in cluster mode. */
export function clusterSize(node: NodeProcess): number {
  return 1 + node.peers.length;
}

/** How many of those nodes hold data (in cluster mode with GANNET_TEST_CLUSTER_TARGET=coordinating, not this one). */
export function dataNodeCount(node: NodeProcess): number {
  return node.peers.length > 0 && process.env['GANNET_TEST_CLUSTER_TARGET'] === 'coordinating' ? node.peers.length : clusterSize(node);
}

/**
 * A write's `_shards` for an index with `total` copies of the shard: on one node only the primary is ever active;
 * on a cluster a replica may still be initializing when the write lands (ES counts the copies that acknowledged
 * it, so anything from the primary alone to every copy).
 */
export function assertWriteShards(node: NodeProcess, actual: unknown, total: number): void {
  if (clusterSize(node) === 1) {
    assert.deepEqual(actual, { total, successful: 1, failed: 0 });
    return;
  }
  const shards = actual as { total: number; successful: number; failed: number };
  assert.deepEqual(Object.keys(shards), ['total', 'successful', 'failed']);
  assert.equal(shards.total, total);
  assert.equal(shards.failed, 0);
  assert.ok(shards.successful >= 1 && shards.successful <= Math.min(total, dataNodeCount(node)), `successful ${shards.successful} of ${total}`);
}
