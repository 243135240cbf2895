/**
 * ES's search-idle shards (docs/decisions/0025): a shard copy whose searcher nobody acquired for
 * `index.search.idle.after` (30 s) is search-idle, and while it is, a scheduled refresh of an index without an
 * explicit `index.refresh_interval` is skipped and remembered as pending. The next search (or non-realtime get)
 * refreshes first, so it sees every write acknowledged before it arrived.
 *
 * This is the clock and the pending mark of one copy (ES's IndexShard.lastSearcherAccess and
 * pendingRefreshLocation); IndexShard decides when to skip and when to refresh. Where ES keeps the translog location
 * of the last skipped write, this keeps a count of skips: a refresh clears what was skipped before it started.
 */
export class SearchIdleState {
  /** performance.now() of the last searcher access (a shard starts as just accessed, as in ES). */
  private lastSearcherAccess = performance.now();
  /** How many scheduled refreshes were skipped. */
  private skipped = 0;
  /** `skipped` as it was when the last completed refresh started: every skip up to it is now visible. */
  private coveredSkips = 0;

  markSearcherAccessed(): void {
    this.lastSearcherAccess = performance.now();
  }

  /** Milliseconds since a searcher was last acquired (ES's `search_idle_time`). */
  idleMillis(): number {
    return Math.max(0, Math.floor(performance.now() - this.lastSearcherAccess));
  }

  /** ES's isSearchIdle: no searcher access for at least `idleAfterMillis` (0 makes every shard idle at once). */
  isSearchIdle(idleAfterMillis: number): boolean {
    return performance.now() - this.lastSearcherAccess >= idleAfterMillis;
  }

  /** Whether a scheduled refresh was skipped and no refresh has run since. */
  get hasRefreshPending(): boolean {
    return this.coveredSkips < this.skipped;
  }

  /** A scheduled refresh was skipped: what it would have made visible waits for the next refresh. */
  setRefreshPending(): void {
    this.skipped++;
  }

  /** Called as a refresh starts; pass the answer to `refreshed` once it completed. */
  beforeRefresh(): number {
    return this.skipped;
  }

  refreshed(skipsBeforeIt: number): void {
    if (skipsBeforeIt > this.coveredSkips) this.coveredSkips = skipsBeforeIt;
  }

  /** The skips so far: a search waits until `isVisible` says a refresh covered them. */
  pendingMark(): number {
    return this.skipped;
  }

  isVisible(mark: number): boolean {
    return this.coveredSkips >= mark;
  }
}
