/**
 * `max_concurrent_shard_requests`: at most `limit` shard requests of one search in flight per node; the others
 * wait, first come first served, for one of that node's to end (ES's AbstractSearchAsyncAction throttles its
 * first phase per node the same way, with a semaphore and a queue per node).
 */
export class PerNodeLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly limit: number) {}

  async run<T>(nodeId: string, work: () => Promise<T>): Promise<T> {
    const busy = this.running.get(nodeId) ?? 0;
    if (busy >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(nodeId) ?? [];
        queue.push(resolve);
        this.waiting.set(nodeId, queue);
      });
    } else {
      this.running.set(nodeId, busy + 1);
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, or is given back.
      const next = this.waiting.get(nodeId)?.shift();
      if (next !== undefined) next();
      else this.running.set(nodeId, (this.running.get(nodeId) ?? 1) - 1);
    }
  }

  /** Requests in flight on the node now (for tests). */
  inFlight(nodeId: string): number {
    return this.running.get(nodeId) ?? 0;
  }
}
