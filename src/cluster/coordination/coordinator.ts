/**
 * How a node learns the cluster state and who is master. One interface, two implementations: `embedded`
 * (a single node that is its own master and keeps its state in its data path) and, later, `etcd`.
 */
import type { ClusterState } from '../cluster-state.js';

export interface Coordinator {
  /** Joins (or forms) the cluster; resolves once the node has applied a state with a master. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Runs a cluster-state update on the master. `update` returns the next state (or the same object for no
   * change); the coordinator assigns version and uuid, persists, and publishes.
   */
  submitStateUpdate(source: string, update: (state: ClusterState) => ClusterState): Promise<ClusterState>;
}
