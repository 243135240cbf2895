/**
 * How a node learns the cluster state and who is master. One interface, two implementations that pass one
 * contract suite (test/cluster/coordinator-contract.test.ts): `embedded` (a single node that is its own master
 * and keeps its state in its data path, the default) and `etcd` (docs/decisions/0006-coordination-on-etcd.md).
 *
 * The contract:
 * - `start()` resolves once the node has applied a state (with a master, for the embedded one and for an etcd
 *   cluster whose master is up); `stop()` releases what the node holds (its lease, its candidacy).
 * - `submitStateUpdate` runs on the elected master only. Updates run one at a time in submission order; each
 *   gets the state the previous one produced. An update that returns its input unchanged publishes nothing; one
 *   that throws rejects its caller and leaves the state as it was. A published state has version + 1, a new
 *   uuid and the master's term, and the promise resolves once this node has applied it.
 * - On a node that is not (or no longer) master it rejects with ES's `not_master_exception`-like error
 *   (`notMaster`), so a caller can retry with the next master. A deposed master's write never commits.
 * - Terms only grow; a node never applies a state of a lower term than one it applied.
 */
import type { ClusterState } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';

export type CoordinationKind = 'embedded' | 'etcd';

export interface Coordinator {
  readonly kind: CoordinationKind;
  start(): Promise<void>;
  /**
   * The node begins to shut down: from now on it never registers again. Its shutdown stops the transport before
   * the coordinator, and the others, finding its transport closed, revoke its liveness meanwhile; a node that
   * registered again then came back as a member nothing can reach, was given shards, and left again (a replica
   * given to it then waited out `index.unassigned.node_left.delayed_timeout` for a node that was gone for good).
   */
  prepareToStop?(): void;
  stop(): Promise<void>;
  /** Whether this node is the elected master and may submit state updates. */
  isMaster(): boolean;
  /** The highest master term this node has seen (0 before any). */
  term(): number;
  /**
   * Runs a cluster-state update on the master. `update` returns the next state (or the same object for no
   * change); the coordinator assigns version, uuid and term, persists, and publishes.
   */
  submitStateUpdate(source: string, update: (state: ClusterState) => ClusterState): Promise<ClusterState>;
  /**
   * A node proven gone (its process no longer listens: cluster/node-connections.ts) leaves now, as if its
   * liveness had expired. Only that incarnation (ephemeral id) is removed; one that already came back stays.
   */
  removeGoneNode?(node: DiscoveryNode): Promise<void>;
}
