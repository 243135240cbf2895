/**
 * Builds coordinators for the contract suite and the etcd tests: each "node" is a ClusterService, a
 * DiscoveryNode and a coordinator of the kind under test, in this process (no HTTP, no shards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterService, type ClusterState, type DiscoveryNode, type NodeRole } from '../../src/cluster/index.js';
import type { Coordinator } from '../../src/cluster/coordination/coordinator.js';
import { EmbeddedCoordinator, initialClusterState } from '../../src/cluster/coordination/embedded-coordinator.js';
import { EtcdCoordinator } from '../../src/cluster/coordination/etcd/etcd-coordinator.js';
import type { TestEtcd } from '../helpers/etcd.js';

export interface CoordinatedNode {
  readonly node: DiscoveryNode;
  readonly clusterService: ClusterService;
  readonly coordinator: Coordinator;
  readonly logs: string[];
}

export function testNode(id: string, roles: NodeRole[] = ['master', 'data']): DiscoveryNode {
  return {
    id,
    name: `node-${id}`,
    ephemeralId: `${id}-${Math.random().toString(36).slice(2)}`,
    host: '127.0.0.1',
    ip: '127.0.0.1',
    transportPort: 9300,
    httpPort: 9200,
    roles,
    attributes: {},
    version: '8.19.2',
  };
}

export interface CoordinatorKind {
  readonly name: 'embedded' | 'etcd';
  /**
   * Starts a node of this kind; `id` names it (restarting an id reuses its data). `onLog` sees each message the
   * coordinator logs as it logs it (a test can act at an exact step).
   */
  startNode(id: string, roles?: NodeRole[], onLog?: (message: string) => void): Promise<CoordinatedNode>;
  cleanup(): Promise<void>;
}

const identityReroute = (_previous: ClusterState, next: ClusterState): ClusterState => next;

export function embeddedKind(): CoordinatorKind {
  const root = mkdtempSync(join(tmpdir(), 'gannet-coord-'));
  return {
    name: 'embedded',
    async startNode(id, roles) {
      const node = testNode(id, roles);
      const clusterService = new ClusterService(initialClusterState('contract'));
      const coordinator = new EmbeddedCoordinator(clusterService, node, join(root, id));
      await coordinator.start();
      return { node, clusterService, coordinator, logs: [] };
    },
    async cleanup() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function etcdKind(etcd: () => TestEtcd, leaseTtlSeconds = 2, clusterName = `contract-${Math.random().toString(36).slice(2, 8)}`): CoordinatorKind {
  return {
    name: 'etcd',
    async startNode(id, roles, onLog) {
      const node = testNode(id, roles);
      const clusterService = new ClusterService(initialClusterState(clusterName));
      const logs: string[] = [];
      const coordinator = new EtcdCoordinator(clusterService, node, {
        endpoints: [etcd().endpoint],
        leaseTtlSeconds,
        joinTimeoutMillis: 15_000,
        reroute: identityReroute,
        log: (level, message, err) => {
          logs.push(`${level} ${message}${err ? `: ${(err as Error).message}` : ''}`);
          onLog?.(message);
        },
      });
      await coordinator.start();
      return { node, clusterService, coordinator, logs };
    },
    async cleanup() {},
  };
}

export async function waitUntil(condition: () => boolean, timeoutMillis: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMillis} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
