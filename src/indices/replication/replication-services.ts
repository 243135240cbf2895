/**
 * What replication and recovery need from the rest of the node, given by the node's wiring (the indices layer
 * sits below the cluster layer, so it never reads the cluster state or calls the master itself): the transport,
 * the master's shard-failed request, a wait for the next applied cluster state (a replica that meets a field
 * its mapping does not know yet waits for the state that brings it), and the live recovery settings.
 */
import type { Logger } from 'pino';
import type { TransportNode } from '../../transport/index.js';

/** ES's ShardStateAction.FailedShardEntry. */
export interface FailedShardEntry {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly allocationId: string;
  /** The sender's primary term; 0 from a copy failing itself (the master then just drops the entry). */
  readonly primaryTerm: number;
  readonly message: string;
  readonly markAsStale: boolean;
}

export interface ReplicationServices {
  readonly localNodeId: string;
  readonly logger: Logger;
  send(node: TransportNode, action: string, body: unknown, options?: { timeoutMillis?: number; parentTaskId?: string; encodeRequest?: (body: unknown) => unknown }): Promise<unknown>;
  /**
   * `internal:cluster/shard/failure` to the master; resolves once the master published the change (or found
   * nothing to do). Rejects with `no_longer_primary_shard_exception` when the sender's term is not the shard's.
   */
  shardFailed(entry: FailedShardEntry): Promise<void>;
  /** Resolves once a newer cluster state has been applied here, or after `timeoutMillis`. */
  waitForNewerState(timeoutMillis: number): Promise<void>;
}
