/**
 * A FIFO mutex for async critical sections. The engine's segment state (which segments exist, their live
 * docs, the commit point) changes only inside it, so a refresh, a flush and a merge's final swap never
 * interleave their awaits.
 */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();
  private held = 0;

  /** Runs `critical` once every earlier holder has finished; its result or error is passed through. */
  run<T>(critical: () => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      this.held++;
      try {
        return await critical();
      } finally {
        this.held--;
      }
    });
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  get isHeld(): boolean {
    return this.held > 0;
  }
}
