/**
 * Holds the node's current cluster state and tells listeners when it changes. Changes come from the
 * coordinator (embedded or etcd); readers such as the health API wait here for a state that satisfies
 * their conditions.
 */
import { EventEmitter } from 'node:events';
import type { ClusterState } from './cluster-state.js';
import { EsError } from '../common/errors.js';

export type ClusterStateListener = (state: ClusterState, previous: ClusterState) => void;

export class ClusterService {
  private current: ClusterState;
  private readonly emitter = new EventEmitter();
  /** Cluster-state updates queued on the master and not yet applied. */
  pendingTaskCount = 0;
  /** Time the oldest pending update has waited, in ms. */
  maxTaskWaitMillis = 0;
  /** Shard-store fetches under way (ES's number_of_in_flight_fetch). */
  inFlightFetches = 0;
  /** The waits under way (`waitFor`), each with its timer; `closeWaits` ends them. */
  private readonly waits = new Set<() => void>();
  private waitsClosed = false;

  constructor(initial: ClusterState) {
    this.current = initial;
    this.emitter.setMaxListeners(0);
  }

  state(): ClusterState {
    return this.current;
  }

  /** Applies a newer state; older or equal versions are ignored so states apply in order. */
  apply(next: ClusterState): boolean {
    if (next.version <= this.current.version) return false;
    const previous = this.current;
    this.current = next;
    this.emitter.emit('change', next, previous);
    return true;
  }

  /**
   * Replaces the state with a node-local view of the same version: what a node decides without the master
   * (the no-master block when it loses the master, and lifting it). Listeners are told as for a new state.
   */
  applyLocal(next: ClusterState): void {
    if (next.version < this.current.version) return;
    const previous = this.current;
    this.current = next;
    this.emitter.emit('change', next, previous);
  }

  onChange(listener: ClusterStateListener): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }

  /**
   * The node is shutting down: every wait under way fails now with node_closed_exception, and later ones at once. A wait's timer
   * (a write waiting out its `timeout` for a master, up to a minute) kept a shut-down node's process alive.
   */
  closeWaits(): void {
    this.waitsClosed = true;
    for (const closeWait of [...this.waits]) closeWait();
  }

  /**
   * Resolves with the first state for which `accept` holds, or with the latest state and `timedOut` when
   * `timeoutMillis` passes first. Rejects with the signal's reason when the signal aborts (task cancelled).
   */
  waitFor(
    accept: (state: ClusterState) => boolean,
    timeoutMillis: number,
    cancellation?: Cancellation,
  ): Promise<{ state: ClusterState; timedOut: boolean }> {
    if (cancellation !== undefined && isCancelled(cancellation)) return Promise.reject(signalOf(cancellation).reason);
    if (accept(this.current)) return Promise.resolve({ state: this.current, timedOut: false });
    // Closed (the node stops): no state will come, and a wait that ended as timed out at once let a retry loop (a
    // bulk's shard group waiting for a newer state, for up to its timeout) spin on resolved promises and starve the
    // event loop, so the node never finished its stop. ES's observers fail with NodeClosedException then too.
    if (this.waitsClosed) return Promise.reject(nodeClosed());
    if (timeoutMillis <= 0) return Promise.resolve({ state: this.current, timedOut: true });
    // Only a wait that does not end at once listens for the abort (a task makes its signal when first asked).
    const signal = cancellation === undefined ? undefined : signalOf(cancellation);
    return new Promise((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        this.waits.delete(closeWait);
        unsubscribe();
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const onAbort = () => finish(() => reject(signal!.reason));
      const timer = setTimeout(() => finish(() => resolve({ state: this.current, timedOut: true })), timeoutMillis);
      const closeWait = () => finish(() => reject(nodeClosed()));
      this.waits.add(closeWait);
      const unsubscribe = this.onChange((state) => {
        if (accept(state)) finish(() => resolve({ state, timedOut: false }));
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * What ends a wait early: a signal, or a task (anything with `isCancelled` and a `signal`), whose signal is then
 * asked for only when the wait does not end at once: most reads find the state they want (decision 0022).
 */
export type Cancellation = AbortSignal | { readonly isCancelled: boolean; readonly signal: AbortSignal };

function isCancelled(cancellation: Cancellation): boolean {
  return cancellation instanceof AbortSignal ? cancellation.aborted : cancellation.isCancelled;
}

function signalOf(cancellation: Cancellation): AbortSignal {
  return cancellation instanceof AbortSignal ? cancellation : cancellation.signal;
}

function nodeClosed(): EsError {
  return new EsError('node_closed_exception', 'node closed');
}
