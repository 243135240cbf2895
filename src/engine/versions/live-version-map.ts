/**
 * The latest version of every id changed since the documents in segments were last brought up to date
 * (ES's LiveVersionMap), so that versioning and real-time gets need no refresh:
 *
 *   current   operations since the indexing buffer was last swapped out
 *   old       operations of the buffer being written as a segment (kept until that segment is in place)
 *   tombstones deletes, kept for `index.gc_deletes` after they reach the segments, so that a delete followed
 *             by a re-index continues the version sequence (and external versions keep conflicting)
 *
 * Lookup order is current, old, tombstones; an id in none of them is looked up in the segments.
 */
import type { VersionValue } from './version-value.js';

/** ES's default `index.gc_deletes`. */
export const DEFAULT_GC_DELETES_MILLIS = 60_000;

export class LiveVersionMap {
  private current = new Map<string, VersionValue>();
  private old = new Map<string, VersionValue>();
  private readonly tombstones = new Map<string, VersionValue>();

  get(id: string): VersionValue | undefined {
    return this.current.get(id) ?? this.old.get(id) ?? this.tombstones.get(id);
  }

  putIndex(id: string, value: VersionValue): void {
    this.current.set(id, value);
    this.tombstones.delete(id);
  }

  putDelete(id: string, value: VersionValue): void {
    this.current.set(id, value);
    this.tombstones.set(id, value);
  }

  /** The buffer was swapped: its entries stay readable (as `old`) until its segment is in place. */
  beforeRefresh(): void {
    // A refresh that failed may have left entries in `old`; keep them readable rather than lose them.
    if (this.old.size > 0) for (const [id, value] of this.current) this.old.set(id, value);
    else this.old = this.current;
    this.current = new Map();
  }

  /** Ids changed by the swapped-out buffer's operations (their older documents must be deleted). */
  oldIds(): IterableIterator<string> {
    return this.old.keys();
  }

  /** The swapped-out buffer is now a segment the lookups see: drop what it covered. */
  afterRefresh(): void {
    this.old = new Map();
  }

  /** Forgets tombstones older than `gcDeletesMillis` that are no longer needed to mask a buffered document. */
  pruneTombstones(now: number, gcDeletesMillis: number): void {
    for (const [id, value] of this.tombstones) {
      if ((value.time ?? 0) + gcDeletesMillis < now && !this.current.has(id) && !this.old.has(id)) this.tombstones.delete(id);
    }
  }

  get size(): number {
    return this.current.size + this.old.size;
  }

  get tombstoneCount(): number {
    return this.tombstones.size;
  }
}
