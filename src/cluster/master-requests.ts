/**
 * Master-side operations as requests (ES's TransportMasterNodeAction): a named operation with serializable
 * arguments runs on the elected master. On the master itself it runs in-process; from any other node it goes
 * over the transport as `internal:cluster/master/<name>`. The caller waits for a master up to `master_timeout`
 * (ES's 503 master_not_discovered_exception after it), retries on the next master when the one it reached
 * stepped down or went away, and returns only once this node has applied the state the master published, so
 * the caller's next read sees its change.
 */
import { EsError, errors, toEsError } from '../common/errors.js';
import type { TransportService } from '../transport/index.js';
import type { ClusterService } from './cluster-service.js';
import { hasNoMasterBlock, type ClusterState } from './cluster-state.js';
import type { Coordinator } from './coordination/coordinator.js';
import { transportNode } from './transport-nodes.js';

export const MASTER_ACTION_PREFIX = 'internal:cluster/master/';

/** ES's default master_timeout. */
export const DEFAULT_MASTER_TIMEOUT_MILLIS = 30_000;

export type MasterOperation = (args: unknown) => Promise<unknown>;

/**
 * How an operation's result crosses the socket when it holds more than plain data (an EsError in a value, say):
 * the master encodes it, the node that asked decodes it. On the master itself the result is used as it is.
 */
export interface MasterResultCodec {
  encode(result: unknown): unknown;
  decode(wire: unknown): unknown;
}

interface MasterReply {
  readonly result: unknown;
  /** The state version the master had applied when the operation finished. */
  readonly version: number;
}

/** Failures after which the request is worth sending again to the next master. */
function retryable(err: EsError): boolean {
  return ['not_master_exception', 'node_not_connected_exception', 'node_disconnected_exception', 'connect_transport_exception', 'failed_to_commit_cluster_state_exception', 'node_closed_exception'].includes(err.type);
}

export class MasterRequests {
  private readonly operations = new Map<string, MasterOperation>();
  private readonly codecs = new Map<string, MasterResultCodec>();
  private closed = false;

  constructor(
    private readonly clusterService: ClusterService,
    private readonly coordinator: Coordinator,
    private readonly transport: TransportService | undefined,
    private readonly localNodeId: string,
  ) {}

  /**
   * The node is stopping: a request under way ends at its next try (within a second) with node_closed_exception.
   * Once this node's transport is closed no master can be reached; a request kept retrying until its master_timeout
   * (30 s by default), and its timer kept the stopped node's process alive that long.
   */
  close(): void {
    this.closed = true;
  }

  /** Registers the operation that runs when this node is master (and its transport handler). */
  register(name: string, operation: MasterOperation, codec?: MasterResultCodec): void {
    this.operations.set(name, operation);
    if (codec !== undefined) this.codecs.set(name, codec);
    this.transport?.registerHandler(`${MASTER_ACTION_PREFIX}${name}`, async (args) => {
      if (!this.coordinator.isMaster()) throw errors.notMaster(`node [${this.localNodeId}] is not the elected master`);
      const result = await operation(args);
      return { result: codec === undefined ? result : codec.encode(result), version: this.clusterService.state().version } satisfies MasterReply;
    });
  }

  /** Runs `name` on the master; see the file comment for waiting and retries. */
  /**
   * `operationMillis`: how long the operation itself may take on the master (a create index waits for acks and
   * shards up to its `timeout`, an acked change for every node up to its ack timeout). The request to the master
   * is given what is left of master_timeout plus that: bounded by master_timeout alone, an operation that ran
   * longer answered 503 master_not_discovered_exception from every node but the master.
   */
  async run<T>(name: string, args: unknown, masterTimeoutMillis = DEFAULT_MASTER_TIMEOUT_MILLIS, signal?: AbortSignal, operationMillis = 0): Promise<T> {
    const operation = this.operations.get(name);
    if (operation === undefined) throw new Error(`no master operation [${name}]`);
    const deadline = Date.now() + masterTimeoutMillis;
    for (;;) {
      if (this.closed) throw new EsError('node_closed_exception', 'node closed');
      if (this.coordinator.isMaster()) {
        try {
          return (await operation(args)) as T;
        } catch (err) {
          const error = toEsError(err);
          if (!retryable(error) || Date.now() >= deadline) throw err;
          await this.waitForMaster(deadline, signal, this.clusterService.state());
          continue;
        }
      }
      const state = this.clusterService.state();
      const master = state.masterNodeId === undefined || hasNoMasterBlock(state) ? undefined : state.nodes.get(state.masterNodeId);
      if (master === undefined || this.transport === undefined || master.id === this.localNodeId) {
        await this.waitForMaster(deadline, signal, state);
        continue;
      }
      try {
        const reply = (await this.transport.sendRequest(transportNode(master), `${MASTER_ACTION_PREFIX}${name}`, args, { timeoutMillis: Math.max(1, deadline - Date.now()) + operationMillis })) as MasterReply;
        // Come back only once this node applied what the master published (bounded: a slow node answers anyway).
        await this.clusterService.waitFor((applied) => applied.version >= reply.version, Math.max(0, deadline - Date.now()), signal);
        const codec = this.codecs.get(name);
        return (codec === undefined ? reply.result : codec.decode(reply.result)) as T;
      } catch (err) {
        const error = toEsError(err);
        if (error.type === 'receive_timeout_transport_exception') throw errors.masterNotDiscovered();
        if (!retryable(error)) throw error;
        await this.waitForMaster(deadline, signal, state);
      }
    }
  }

  /** Waits for a state that names a different (or a first) master, or throws master_not_discovered at the deadline. */
  private async waitForMaster(deadline: number, signal: AbortSignal | undefined, seen: ClusterState): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw errors.masterNotDiscovered();
    const { timedOut } = await this.clusterService.waitFor(
      (state) => state !== seen && state.masterNodeId !== undefined && !hasNoMasterBlock(state),
      Math.min(remaining, 1000),
      signal,
    );
    // Poll at most once a second while nothing changes (a master that stays put but refused us).
    if (timedOut && Date.now() >= deadline) throw errors.masterNotDiscovered();
  }
}
