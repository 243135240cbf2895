/**
 * Operation permits of one shard copy (ES's IndexShardOperationPermits): every write holds a permit while it
 * runs (execution and replication alike); `blockOperations` waits until none is held, runs its step while new
 * permits wait, then lets them through. A primary relocation hands its primary context over inside such a
 * block, so no write runs across the handoff: each one ran entirely before (here) or entirely after (forwarded
 * to the new primary). A term change on a replica is made the same way.
 */
export type ReleasePermit = () => void;

export class OperationPermits {
  private active = 0;
  private blocked = false;
  private readonly waitingForPermit: Array<() => void> = [];
  private drained: (() => void) | undefined;
  private closedWith: Error | undefined;

  get activeCount(): number {
    return this.active;
  }

  /** Resolves with the release of a permit (after any block under way). */
  async acquire(): Promise<ReleasePermit> {
    if (this.closedWith !== undefined) throw this.closedWith;
    if (this.blocked) await new Promise<void>((resolve) => this.waitingForPermit.push(resolve));
    if (this.closedWith !== undefined) throw this.closedWith;
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      if (this.active === 0) this.drained?.();
    };
  }

  /**
   * Waits for every held permit to be released (up to `timeoutMillis`), runs `step` with new permits waiting,
   * then releases them. Blocks do not nest; a second one waits for the first.
   */
  async blockOperations<T>(timeoutMillis: number, step: () => Promise<T>): Promise<T> {
    while (this.blocked) await new Promise<void>((resolve) => this.waitingForPermit.push(resolve));
    this.blocked = true;
    try {
      if (this.active > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.drained = undefined;
            reject(new Error(`timed out after [${timeoutMillis}ms] waiting for [${this.active}] operations in flight`));
          }, timeoutMillis);
          this.drained = () => {
            clearTimeout(timer);
            this.drained = undefined;
            resolve();
          };
        });
      }
      return await step();
    } finally {
      this.blocked = false;
      for (const resume of this.waitingForPermit.splice(0)) resume();
    }
  }

  /** Every later acquire fails with `reason` (the shard closed). */
  close(reason: Error): void {
    this.closedWith = reason;
    for (const resume of this.waitingForPermit.splice(0)) resume();
  }
}
