/**
 * Delayed allocation of replicas whose node left (ES's UnassignedInfo delay + DelayedAllocationService): a node
 * that drops out for a moment (a restart, a network blip) should find its copies waiting for it, not rebuilt
 * elsewhere at the cost of copying every file. So a replica unassigned because its node left is `delayed` for the
 * index's `index.unassigned.node_left.delayed_timeout` (default 1m, dynamic, per index):
 *
 * - while delayed it is not allocated anywhere, unless its node comes back (then it recovers there at once);
 * - health counts it in `delayed_unassigned_shards`, and it makes the index yellow, never red;
 * - once the delay has run out the allocation round clears the mark (`expireDelays`) and places it like any
 *   unassigned replica; the master keeps one timer for the earliest expiry (`DelayedAllocationScheduler`), so the
 *   round runs then even when nothing else changes.
 * A timeout of 0 disables the delay. Primaries are never delayed (a lost primary is promoted or waits for its data).
 */
import { parseTimeValueMillis } from '../../common/time-value.js';
import type { ClusterState, IndexMetadata, ShardRouting, UnassignedInfo } from '../cluster-state.js';

export const NODE_LEFT_DELAYED_TIMEOUT = 'index.unassigned.node_left.delayed_timeout';

/** The index's delay for replicas whose node left, in milliseconds (the setting was validated when it was set). */
export function nodeLeftDelayMillis(metadata: IndexMetadata): number {
  try {
    return parseTimeValueMillis(metadata.settings[NODE_LEFT_DELAYED_TIMEOUT] ?? '1m', NODE_LEFT_DELAYED_TIMEOUT);
  } catch {
    return 60_000;
  }
}

/** The unassigned info of a replica whose node left: delayed when the index asks for a delay. */
export function delayedReplicaInfo(info: UnassignedInfo, metadata: IndexMetadata, now: number): UnassignedInfo {
  const delayed = nodeLeftDelayMillis(metadata) > 0;
  return { ...info, reason: 'NODE_LEFT', atMillis: info.atMillis ?? now, delayed, lastAllocationStatus: delayed ? 'DELAYED_ALLOCATION' : info.lastAllocationStatus };
}

/** Whether a delayed copy must still wait: its delay has not run out and its node is not back. */
export function stillDelayed(state: ClusterState, metadata: IndexMetadata, copy: ShardRouting, now: number): boolean {
  const info = copy.unassignedInfo;
  if (copy.state !== 'UNASSIGNED' || info?.delayed !== true) return false;
  if (info.lastNodeId !== undefined && state.nodes.has(info.lastNodeId)) return false;
  return now < info.atMillis + nodeLeftDelayMillis(metadata);
}

/** Clears the delay mark of every copy whose delay ran out (ES's removeDelayMarkers). */
export function expireDelays(state: ClusterState, now: number): ClusterState {
  let routing: Map<string, ReadonlyArray<ReadonlyArray<ShardRouting>>> | undefined;
  for (const [index, shards] of state.routing) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    let changed = false;
    const next = shards.map((copies) =>
      copies.map((copy): ShardRouting => {
        if (copy.state !== 'UNASSIGNED' || copy.unassignedInfo?.delayed !== true) return copy;
        if (now < copy.unassignedInfo.atMillis + nodeLeftDelayMillis(metadata)) return copy;
        changed = true;
        return { ...copy, unassignedInfo: { ...copy.unassignedInfo, delayed: false, lastAllocationStatus: 'NO_ATTEMPT' } };
      }),
    );
    if (changed) (routing ??= new Map(state.routing)).set(index, next);
  }
  return routing === undefined ? state : { ...state, routing };
}

/** When the earliest delay of the state runs out (epoch millis), if any copy is delayed. */
export function nextDelayExpiry(state: ClusterState): number | undefined {
  let earliest: number | undefined;
  for (const [index, shards] of state.routing) {
    const metadata = state.indices.get(index);
    if (metadata === undefined) continue;
    for (const copies of shards) {
      for (const copy of copies) {
        if (copy.state !== 'UNASSIGNED' || copy.unassignedInfo?.delayed !== true) continue;
        const expiry = copy.unassignedInfo.atMillis + nodeLeftDelayMillis(metadata);
        if (earliest === undefined || expiry < earliest) earliest = expiry;
      }
    }
  }
  return earliest;
}

export interface DelayedAllocationOptions {
  readonly localNodeId: string;
  /** Applied states, newest first call wins (the cluster service's onChange). */
  readonly onChange: (listener: (state: ClusterState) => void) => () => void;
  /** Runs a state update on the master (the allocation round follows a changed state). */
  readonly submit: (source: string, update: (state: ClusterState) => ClusterState) => Promise<unknown>;
  readonly log: (message: string, err?: unknown) => void;
}

/**
 * ES's DelayedAllocationService: on the elected master, one timer for the earliest delay of the applied state;
 * when it fires, a state update clears the marks that ran out, and the allocation round that follows places
 * those copies.
 */
export class DelayedAllocationScheduler {
  private timer: NodeJS.Timeout | undefined;
  private scheduledFor: number | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: DelayedAllocationOptions) {}

  start(): void {
    this.unsubscribe = this.options.onChange((state) => this.follow(state));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.cancel();
  }

  private lastState: ClusterState | undefined;
  private stopped = false;

  private follow(state: ClusterState): void {
    this.lastState = state;
    const expiry = state.masterNodeId === this.options.localNodeId ? nextDelayExpiry(state) : undefined;
    if (expiry === this.scheduledFor) return;
    this.cancel();
    if (expiry === undefined) return;
    this.scheduledFor = expiry;
    // A little after the expiry, so the round's clock is past it.
    this.timer = setTimeout(() => this.fire(), Math.max(0, expiry - Date.now()) + 50);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    this.scheduledFor = undefined;
    this.options.submit('delayed-allocation-expired', (state) => expireDelays(state, Date.now())).catch((err) => {
      this.options.log('delayed allocation round failed; trying again', err);
      // No new state may come to reschedule it (a master that lost its mastership has a successor that does).
      const retry = setTimeout(() => !this.stopped && this.lastState !== undefined && this.follow(this.lastState), 1000);
      retry.unref();
    });
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.scheduledFor = undefined;
  }
}
