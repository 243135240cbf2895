/**
 * ES's thread pools on one event loop. A pool admits at most `size` pieces of work at a time; more wait in a
 * FIFO queue of `queueSize` (-1: unbounded), and work that finds the queue full is rejected at once with ES's
 * es_rejected_execution_exception (429), as EsThreadPoolExecutor's EsAbortPolicy does. "Active" here means
 * started and not finished: the work is async and yields the loop between slices, so a pool bounds how many
 * searches (or shard bulks) interleave, and what waits beyond that is visible as the queue, rejected when it
 * overflows, exactly as ES's figures read.
 *
 * Scaling pools (management, generic, refresh...) never reject in ES (their queue is unbounded) and here they
 * never hold work back either: what runs on them only holds the loop for short steps, and a request that waits
 * (a health check with `wait_for_status`) must not keep the next operator command out, as in ES where such a
 * wait holds no thread. They count their work so the figures are real.
 *
 * `stats()` gives the figures `_cat/thread_pool` and nodes stats print (ES's ThreadPoolStats.Stats).
 */
import { EsError } from './errors.js';

export type ThreadPoolType = 'fixed' | 'scaling';

/** A pool's configuration (ES's ThreadPool.Info). */
export interface ThreadPoolInfo {
  readonly name: string;
  readonly type: ThreadPoolType;
  /** Fixed: the pool size. Scaling: the minimum ("core") threads. */
  readonly core: number;
  /** Fixed: the pool size. Scaling: the maximum threads. */
  readonly max: number;
  /** -1: unbounded (scaling pools, and a few fixed ones). */
  readonly queueSize: number;
  /** Scaling pools' keep-alive (ES's `keep_alive`), in milliseconds. */
  readonly keepAliveMillis?: number;
}

/** ES's ThreadPoolStats.Stats of one pool. */
export interface ThreadPoolStats {
  readonly name: string;
  readonly type: ThreadPoolType;
  /** Threads the pool holds (ES's pool size: fixed pools keep every thread they started). */
  readonly threads: number;
  /** Work waiting for a slot. */
  readonly queue: number;
  /** Work running now. */
  readonly active: number;
  /** Work turned away because the queue was full. */
  readonly rejected: number;
  /** The most work that ever ran at once. */
  readonly largest: number;
  /** Work finished (successfully or not). */
  readonly completed: number;
  /** The pool's size: fixed size, or the scaling maximum. */
  readonly size: number;
  readonly queueSize: number;
}

interface Queued {
  readonly start: () => void;
}

/** Object identities printed in the rejection message, as Java's Object.toString prints a hash code. */
let nextIdentity = 0x1b3a9a85;

function nextIdentityHex(): string {
  nextIdentity = (Math.imul(nextIdentity, 31) + 0x5bd1e995) >>> 0;
  return nextIdentity.toString(16);
}

export class ThreadPool {
  private running = 0;
  private largestRunning = 0;
  private completedCount = 0;
  private rejectedCount = 0;
  private readonly waiting: Queued[] = [];
  private readonly identity = nextIdentityHex();

  constructor(
    readonly nodeName: string,
    readonly info: ThreadPoolInfo,
  ) {}

  get name(): string {
    return this.info.name;
  }

  /**
   * Runs `work` when the pool has room: at once, after the work queued before it, or never (a full queue
   * rejects with es_rejected_execution_exception). `what` names the work in the rejection message (ES prints
   * the Java runnable there; by default the TimedRunnable wrapper every ES executor task is).
   */
  execute<T>(work: () => Promise<T>, what?: string): Promise<T> {
    if (this.info.type === 'scaling' || this.running < this.info.max) return this.run(work);
    if (this.info.queueSize >= 0 && this.waiting.length >= this.info.queueSize) {
      this.rejectedCount++;
      return Promise.reject(this.rejection(what ?? `org.elasticsearch.common.util.concurrent.TimedRunnable@${nextIdentityHex()}`));
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ start: () => this.run(work).then(resolve, reject) });
    });
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    if (this.running > this.largestRunning) this.largestRunning = this.running;
    try {
      return await work();
    } finally {
      this.running--;
      this.completedCount++;
      // The slot passes to the oldest waiting work (FIFO, as a LinkedTransferQueue hands it over).
      if (this.info.type === 'fixed' && this.running < this.info.max) this.waiting.shift()?.start();
    }
  }

  /** EsAbortPolicy's message: the rejected work, then the executor's toString (EsThreadPoolExecutor's). */
  private rejection(what: string): EsError {
    const executor =
      `EsThreadPoolExecutor[name = ${this.nodeName}/${this.info.name}, queue capacity = ${this.info.queueSize}, ` +
      `org.elasticsearch.common.util.concurrent.EsThreadPoolExecutor@${this.identity}[Running, pool size = ${this.threads()}, ` +
      `active threads = ${this.running}, queued tasks = ${this.waiting.length}, completed tasks = ${this.completedCount}]]`;
    return new EsError('es_rejected_execution_exception', `rejected execution of ${what} on ${executor}`);
  }

  private threads(): number {
    // A fixed pool starts a thread per task until it has `size`, then keeps them; a scaling pool keeps its core
    // threads and adds up to `max` while there is work (they retire after keep_alive, which is not modelled).
    return this.info.type === 'fixed' ? Math.min(this.info.max, this.largestRunning) : Math.max(Math.min(this.info.core, this.largestRunning), Math.min(this.running, this.info.max));
  }

  stats(): ThreadPoolStats {
    // Scaling work beyond `max` runs here but would wait in ES's queue: it is reported as queued, so the figures
    // keep ES's invariants (active <= threads <= size).
    const beyondMax = Math.max(0, this.running - this.info.max);
    return {
      name: this.info.name,
      type: this.info.type,
      threads: this.threads(),
      queue: this.waiting.length + beyondMax,
      active: this.running - beyondMax,
      rejected: this.rejectedCount,
      largest: Math.min(this.info.max, this.largestRunning),
      completed: this.completedCount,
      size: this.info.max,
      queueSize: this.info.queueSize,
    };
  }
}
