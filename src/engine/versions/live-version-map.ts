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
 *
 * Safe and unsafe access (ES's append-only optimisation). Documents with auto-generated ids cannot collide
 * with anything, so while nobody looks ids up the engine does not record them (skipAppendOnly): the map is
 * then "unsafe", as it misses documents that are only in the indexing buffer. A caller that needs a lookup
 * must first make it safe: enforceSafeAccess() (from then on every operation is recorded) and a refresh that
 * moves the unrecorded documents into segments (isUnsafe turns false once that buffer is in place). Safe
 * access lasts while lookups keep coming: a map that needed it passes it on at a refresh, and the one after
 * passes it on only if it saw no operation at all (ES's Maps.shouldInheritSafeAccess).
 */
import type { VersionValue } from './version-value.js';

/** ES's default `index.gc_deletes`. */
export const DEFAULT_GC_DELETES_MILLIS = 60_000;

export class LiveVersionMap {
  private current = new Map<string, VersionValue>();
  private old = new Map<string, VersionValue>();
  private readonly tombstones = new Map<string, VersionValue>();
  /** Operations were left unrecorded in the current / old buffer. */
  private currentUnsafe = false;
  private oldUnsafe = false;
  /** A lookup happened since the current buffer was started (ES's Maps.needsSafeAccess). */
  private needsSafeAccess = false;
  /** The previous map required safe access (ES's Maps.previousMapsNeededSafeAccess). */
  private previousMapsNeededSafeAccess = false;

  get(id: string): VersionValue | undefined {
    return this.current.get(id) ?? this.old.get(id) ?? this.tombstones.get(id);
  }

  putIndex(id: string, value: VersionValue): void {
    this.current.set(id, value);
    if (this.tombstones.size > 0) this.tombstones.delete(id);
  }

  /**
   * An append-only operation (a new auto-generated id) left unrecorded, which the caller may do only while
   * safe access is not required: the map now misses an operation. A tombstone of the id, should there be
   * one, goes as it would with putIndex.
   */
  skipAppendOnly(id: string): void {
    if (this.tombstones.size > 0) this.tombstones.delete(id);
    this.currentUnsafe = true;
  }

  putDelete(id: string, value: VersionValue): void {
    this.current.set(id, value);
    this.tombstones.set(id, value);
  }

  /** Some operation in a buffer not yet in the segments is missing from the map: lookups would be wrong. */
  get isUnsafe(): boolean {
    return this.currentUnsafe || this.oldUnsafe;
  }

  /** From now on every operation is recorded (until two refreshes pass without lookups). */
  enforceSafeAccess(): void {
    this.needsSafeAccess = true;
  }

  get isSafeAccessRequired(): boolean {
    return this.needsSafeAccess || this.previousMapsNeededSafeAccess;
  }

  /** The buffer was swapped: its entries stay readable (as `old`) until its segment is in place. */
  beforeRefresh(): void {
    const sawNoOperation = this.current.size === 0 && !this.currentUnsafe;
    const inheritSafeAccess = this.needsSafeAccess || (sawNoOperation && this.previousMapsNeededSafeAccess);
    // A refresh that failed may have left entries in `old`; keep them readable rather than lose them.
    if (this.old.size > 0) for (const [id, value] of this.current) this.old.set(id, value);
    else this.old = this.current;
    this.oldUnsafe = this.oldUnsafe || this.currentUnsafe;
    this.current = new Map();
    this.currentUnsafe = false;
    this.needsSafeAccess = false;
    this.previousMapsNeededSafeAccess = inheritSafeAccess;
  }

  /** Ids changed by the swapped-out buffer's operations, with their entries (their older documents must be deleted). */
  oldEntries(): IterableIterator<[string, VersionValue]> {
    return this.old.entries();
  }

  /** The swapped-out buffer is now a segment the lookups see: drop what it covered. */
  afterRefresh(): void {
    this.old = new Map();
    this.oldUnsafe = false;
  }

  /**
   * Forgets tombstones older than `gcDeletesMillis` that are no longer needed to mask a buffered document, and
   * only those at or below `maxSeqNoToPrune` (the processed local checkpoint, as ES): on a replica a delete may
   * arrive before an older operation of its document (live replication and recovery overlap, recovery batches
   * are in flight together). The tombstone is what makes that older operation stale; forgotten too early, the
   * older index operation would bring the deleted document back on this copy only.
   */
  pruneTombstones(now: number, gcDeletesMillis: number, maxSeqNoToPrune: number): void {
    for (const [id, value] of this.tombstones) {
      if (value.seqNo > maxSeqNoToPrune) continue;
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
