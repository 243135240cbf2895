/**
 * The segments of one shard and everything tied to them: their current live docs, the files they need, the
 * Searcher last published, and the commit point on disk (Lucene's IndexWriter segment bookkeeping +
 * IndexFileDeleter + SearcherManager, for one shard).
 *
 * CONTRACT. Callers hold the engine's state lock around every method that changes state (applyFlush,
 * applyMerge, commit, publish); each of those prepares its files first (awaiting I/O) and then changes the
 * in-memory state in one synchronous step, so lookups running between awaits always see a consistent set
 * of segments and live docs. Reads (lookup, acquireSearcher, stats) need no lock.
 *
 * Files are reference counted: the current segments, the retained commits and each published Searcher hold
 * the files they need; a file nobody holds is deleted. Besides the last commit, the *safe commit* is kept (ES's
 * CombinedDeletionPolicy): the newest commit holding no operation above the global checkpoint the translog
 * persisted. A copy that restarts opens from it and replays its own translog up to that checkpoint, so its
 * primary only has to send what it missed (docs/decisions/0021-safe-commits-and-local-recovery.md). Segment names come from a counter kept in the
 * commit point, live-docs generations only grow, so a file name is never written twice.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { LiveDocs, liveDocsFileName, SegmentReaders, writeLiveDocs } from '../codec/index.js';
import { FsDirectory } from '../store/index.js';
import type { SegmentStats } from '../engine.js';
import { commitFileName, type CommitPoint, type CommitUserData } from '../commit/commit-point.js';
import { writeCommitPoint } from '../commit/commit-store.js';
import { errors } from '../../common/errors.js';
import { FileRefs } from './file-refs.js';
import type { Searcher } from '../searcher.js';
import { IdFilter, IdProbe } from './id-filter.js';
import { LoadedSegment } from './loaded-segment.js';
import { SearcherView } from './searcher-view.js';
import { segmentName } from './segment-names.js';
import type { WrittenSegment } from './segment-jobs.js';

export interface LiveDocRef {
  readonly segment: LoadedSegment;
  readonly doc: number;
}

/** A commit held for copying (peer recovery): its files stay on disk until `release()`. */
export interface CommitSnapshot {
  readonly commit: CommitPoint;
  /** The commit's files with their sizes, the commit point (`segments_N`) last. */
  readonly files: ReadonlyArray<{ readonly name: string; readonly length: number }>;
  release(): void;
}

export class ShardSegments {
  private segments: LoadedSegment[];
  private readonly refs: FileRefs;
  /** Size of every file this state knows, for the store size (files held by old searchers count too). */
  private readonly fileSizes = new Map<string, number>();
  private currentFiles: string[] = [];
  /** Commits kept on disk, oldest first: the safe commit (when older than the last) and the last commit. */
  private retained: Array<{ readonly commit: CommitPoint; readonly files: string[] }> = [];
  private searcher: SearcherView | null = null;
  /** Names of segments a running merge reads: they stay until the merge replaces them. */
  readonly merging = new Set<string>();
  /** Bumped on every change of segments or live docs; a publish is needed when it moved. */
  private stateVersion = 0;
  private publishedVersion = -1;
  private searcherGeneration = 0;
  /** Files already fsynced (a commit syncs only what is new). */
  private readonly synced = new Set<string>();
  private closed = false;

  private constructor(
    readonly indexPath: string,
    readonly directory: FsDirectory,
    segments: LoadedSegment[],
    private lastCommit: CommitPoint,
    private segmentCounter: number,
  ) {
    this.segments = segments;
    this.refs = new FileRefs((name) => this.deleteFile(name));
  }

  /** Takes over segments loaded from `commit` (all of them verified) as the committed state. */
  static create(indexPath: string, directory: FsDirectory, commit: CommitPoint, segments: LoadedSegment[], commitBytes: number): ShardSegments {
    const state = new ShardSegments(indexPath, directory, segments, commit, commit.segmentCounter);
    for (const segment of segments) {
      segment.committed = true;
      for (const file of segment.files()) state.synced.add(file);
    }
    for (const segment of segments) state.recordSizes(segment);
    state.fileSizes.set(commitFileName(commit.generation), commitBytes);
    const commitFiles = [...segments.flatMap((segment) => segment.files()), commitFileName(commit.generation)];
    state.refs.incRef(commitFiles);
    state.retained = [{ commit, files: commitFiles }];
    state.updateCurrentFiles();
    return state;
  }

  /** Opens a committed segment: verifies every file against the commit's id and its live docs. */
  static async loadCommitted(directory: FsDirectory, name: string, id: Uint8Array, maxDoc: number, deletedCount: number, liveGen: number): Promise<LoadedSegment> {
    const readers = await SegmentReaders.open(directory, name, { id, liveDocsGeneration: liveGen });
    if (readers.maxDoc !== maxDoc) {
      throw errors.corruptIndex(`segment [${name}] has ${readers.maxDoc} docs but the commit point records ${maxDoc}`, directory.resourceName(name));
    }
    const deleted = readers.liveDocs?.deletedCount ?? 0;
    if (deleted !== deletedCount) {
      throw errors.corruptIndex(`segment [${name}] has ${deleted} deleted docs but the commit point records ${deletedCount}`, directory.resourceName(name));
    }
    const segment = new LoadedSegment(readers, LoadedSegment.buildIdFilter(readers), readers.liveDocs, liveGen);
    if (liveGen > 0) segment.liveBytes = (await directory.readFile(liveDocsFileName(name, liveGen))).length;
    return segment;
  }

  private recordSizes(segment: LoadedSegment): void {
    for (const file of segment.readers.info.files) this.fileSizes.set(file.name, file.length);
    if (segment.liveGen > 0) this.fileSizes.set(liveDocsFileName(segment.name, segment.liveGen), segment.liveBytes);
  }

  get list(): readonly LoadedSegment[] {
    return this.segments;
  }

  get lastCommitPoint(): CommitPoint {
    return this.lastCommit;
  }

  nextSegmentName(): string {
    return segmentName(this.segmentCounter++);
  }

  /** Opens a segment a flush or merge just wrote (not yet part of the state). */
  async openWritten(written: WrittenSegment): Promise<LoadedSegment> {
    const readers = await SegmentReaders.open(this.directory, written.info.name, { id: written.info.id });
    const segment = new LoadedSegment(readers, IdFilter.fromWords(written.idFilter), null, 0);
    this.recordSizes(segment);
    return segment;
  }

  /**
   * The live document with this id in the current segments (newest first), or null. Nothing is computed when there is no segment (a fresh index), and the id's
   * hashes once for all segments (IdProbe), not its bytes and two hashes per segment. Every write step of an id
   * that is not in the version map comes here, so does every id a buffer install touched.
   */
  lookupId(id: string): LiveDocRef | null {
    const segments = this.segments;
    if (segments.length === 0) return null;
    const probe = new IdProbe(id);
    for (let i = segments.length - 1; i >= 0; i--) {
      const segment = segments[i]!;
      const doc = segment.findLiveDocProbe(probe);
      if (doc >= 0) return { segment, doc };
    }
    return null;
  }

  /** Writes a new live docs generation for `segment` with `docs` deleted as well; returns the new state. */
  private async writeDeletes(segment: LoadedSegment, base: LiveDocs | null, docs: Iterable<number>): Promise<{ liveDocs: LiveDocs; gen: number; bytes: number } | null> {
    const current = base ?? LiveDocs.allLive(segment.maxDoc);
    const liveDocs = current.withDeleted(docs);
    if (liveDocs.deletedCount === current.deletedCount && base !== null) return null;
    if (liveDocs.deletedCount === 0) return null;
    const gen = segment.liveGen + 1;
    const { bytes } = writeLiveDocs(segment.id, gen, liveDocs);
    const name = liveDocsFileName(segment.name, gen);
    await this.directory.writeFile(name, bytes);
    this.fileSizes.set(name, bytes.length);
    return { liveDocs, gen, bytes: bytes.length };
  }

  /**
   * Installs the result of an indexing-buffer flush: the new segment (with the buffer's own superseded
   * documents deleted) and the deletes it implies for older segments.
   */
  async applyFlush(added: { segment: LoadedSegment; deletedInBuffer: readonly number[] } | null, deletes: ReadonlyMap<LoadedSegment, number[]>): Promise<void> {
    const updates: { segment: LoadedSegment; liveDocs: LiveDocs; gen: number; bytes: number }[] = [];
    for (const [segment, docs] of deletes) {
      const written = await this.writeDeletes(segment, segment.liveDocs, docs);
      if (written !== null) updates.push({ segment, ...written });
    }
    if (added !== null && added.deletedInBuffer.length > 0) {
      const written = await this.writeDeletes(added.segment, null, added.deletedInBuffer);
      if (written !== null) updates.push({ segment: added.segment, ...written });
    }
    // From here on, synchronous: the new state becomes visible all at once.
    for (const { segment, liveDocs, gen, bytes } of updates) {
      segment.liveDocs = liveDocs;
      segment.liveGen = gen;
      segment.liveBytes = bytes;
    }
    if (added !== null) this.segments.push(added.segment);
    if (added !== null || updates.length > 0) this.changed();
    // After changed(): the dropped segment's files were referenced, so releasing them deletes them.
    if (this.dropFullyDeleted()) this.changed();
  }

  /**
   * Replaces merged segments by their merge result. Deletes that reached the sources after the merge
   * started (`snapshots` are the live docs the merge read) are carried over to the merged segment.
   */
  async applyMerge(
    sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[],
    merged: LoadedSegment | null,
    docMaps: readonly Int32Array[],
  ): Promise<void> {
    for (const { segment } of sources) {
      if (!this.segments.includes(segment)) throw new Error(`merge source [${segment.name}] is no longer part of the shard`);
    }
    let update: { liveDocs: LiveDocs; gen: number; bytes: number } | null = null;
    if (merged !== null) {
      const carried: number[] = [];
      sources.forEach(({ segment, liveDocs: before }, s) => {
        const now = segment.liveDocs;
        if (now === before || now === null) return;
        const map = docMaps[s]!;
        for (let doc = 0; doc < segment.maxDoc; doc++) {
          if (!now.isLive(doc) && (before === null || before.isLive(doc))) carried.push(map[doc]!);
        }
      });
      if (carried.length > 0) update = await this.writeDeletes(merged, null, carried);
    }
    if (merged !== null && update !== null) {
      merged.liveDocs = update.liveDocs;
      merged.liveGen = update.gen;
      merged.liveBytes = update.bytes;
    }
    const removed = new Set(sources.map(({ segment }) => segment));
    const position = this.segments.findIndex((segment) => removed.has(segment));
    const next = this.segments.filter((segment) => !removed.has(segment));
    if (merged !== null) next.splice(position, 0, merged);
    this.segments = next;
    this.changed();
    if (this.dropFullyDeleted()) this.changed();
  }

  /** Segments whose every document is deleted serve nothing (Lucene drops them at once). */
  private dropFullyDeleted(): boolean {
    const merging = this.merging;
    if (!this.segments.some((segment) => segment.numDocs === 0 && !merging.has(segment.name))) return false;
    this.segments = this.segments.filter((segment) => segment.numDocs > 0 || merging.has(segment.name));
    return true;
  }

  private changed(): void {
    this.stateVersion++;
    this.updateCurrentFiles();
  }

  private updateCurrentFiles(): void {
    const files = this.segments.flatMap((segment) => segment.files());
    this.refs.incRef(files);
    this.refs.decRef(this.currentFiles);
    this.currentFiles = files;
  }

  /** True when the segments changed since the last published searcher. */
  get hasUnpublishedChanges(): boolean {
    return this.stateVersion !== this.publishedVersion;
  }

  /** Makes the current segments what new Searchers see. `refreshedSeqNo`: every op up to it is included. */
  publish(refreshedSeqNo: number): SearcherView {
    if (this.searcher !== null && !this.hasUnpublishedChanges) {
      if (refreshedSeqNo > this.searcher.refreshedSeqNo) this.searcher = this.rewrap(this.searcher, refreshedSeqNo);
      return this.searcher;
    }
    const files = [...this.currentFiles];
    this.refs.incRef(files);
    const view = new SearcherView(this.segments, ++this.searcherGeneration, files, (closed) => this.refs.decRef(closed.files), refreshedSeqNo);
    const previous = this.searcher;
    this.searcher = view;
    this.publishedVersion = this.stateVersion;
    previous?.decRef();
    return view;
  }

  /** Same segments, later checkpoint: a new view object sharing the generation (nothing visible changed). */
  private rewrap(view: SearcherView, refreshedSeqNo: number): SearcherView {
    const files = [...view.files];
    this.refs.incRef(files);
    const next = new SearcherView(this.segments, view.generation, files, (closed) => this.refs.decRef(closed.files), refreshedSeqNo);
    view.decRef();
    return next;
  }

  get published(): SearcherView | null {
    return this.searcher;
  }

  acquireSearcher(): Searcher {
    if (this.searcher === null) throw new Error('no searcher published yet');
    return this.searcher.acquire();
  }

  /** Fsyncs every file the current segments need and writes a commit point naming them. */
  async commit(userData: CommitUserData): Promise<CommitPoint> {
    const segments = [...this.segments];
    const files = segments.flatMap((segment) => segment.files());
    const unsynced = files.filter((file) => !this.synced.has(file));
    if (unsynced.length > 0) await this.directory.sync(unsynced);
    for (const file of unsynced) this.synced.add(file);
    const commit: CommitPoint = {
      generation: this.lastCommit.generation + 1,
      segmentCounter: this.segmentCounter,
      segments: segments.map((segment) => ({
        name: segment.name,
        id: segment.id,
        maxDoc: segment.maxDoc,
        deletedCount: segment.deletedCount,
        liveGen: segment.liveGen,
      })),
      userData,
    };
    const written = await writeCommitPoint(this.indexPath, commit);
    const commitFiles = [...files, written.name];
    this.refs.incRef(commitFiles);
    // Older commits tied to another translog (a recovery started a new one) can no longer be replayed from.
    for (const old of this.retained.filter((kept) => kept.commit.userData.translogUUID !== userData.translogUUID)) this.refs.decRef(old.files);
    this.retained = this.retained.filter((kept) => kept.commit.userData.translogUUID === userData.translogUUID);
    this.retained.push({ commit, files: commitFiles });
    this.lastCommit = commit;
    this.fileSizes.set(written.name, written.bytes);
    for (const segment of this.segments) segment.committed = commit.segments.some((s) => s.name === segment.name);
    return commit;
  }

  /**
   * Keeps the last commit and the newest commit whose operations are all at or below `persistedGlobalCheckpoint`
   * (the safe commit); releases the others. With no safe commit (no global checkpoint known yet, or a standalone
   * engine) only the last is kept: a restart of such a copy copies files anyway, and keeping an old commit for a
   * checkpoint that may never come would pin its files and translog forever. Called after each commit.
   */
  releaseUnsafeOlderCommits(persistedGlobalCheckpoint: number): void {
    const last = this.retained.length - 1;
    let safe = last;
    for (let i = last; i >= 0; i--) {
      if (this.retained[i]!.commit.userData.maxSeqNo <= persistedGlobalCheckpoint) {
        safe = i;
        break;
      }
    }
    const kept = this.retained.filter((_, i) => i === safe || i === last);
    for (const [i, old] of this.retained.entries()) if (i !== safe && i !== last) this.refs.decRef(old.files);
    this.retained = kept;
  }

  /** The oldest commit kept: the safe commit, or the last commit when that is safe itself. */
  get oldestRetainedCommit(): CommitPoint {
    return this.retained[0]!.commit;
  }

  /** Generations of the commits kept on disk, oldest first. */
  get retainedCommitGenerations(): number[] {
    return this.retained.map((kept) => kept.commit.generation);
  }

  /** Holds the last commit's files (see CommitSnapshot). */
  acquireLastCommit(): CommitSnapshot {
    const held = [...this.retained[this.retained.length - 1]!.files];
    this.refs.incRef(held);
    let released = false;
    const commitName = commitFileName(this.lastCommit.generation);
    const files = held.filter((name) => name !== commitName).concat(held.includes(commitName) ? [commitName] : []);
    return {
      commit: this.lastCommit,
      files: files.map((name) => ({ name, length: this.fileSizes.get(name) ?? 0 })),
      release: () => {
        if (released) return;
        released = true;
        this.refs.decRef(held);
      },
    };
  }

  /** Whether the segments differ from the last commit. */
  get changedSinceCommit(): boolean {
    const committed = this.lastCommit.segments;
    if (committed.length !== this.segments.length) return true;
    return this.segments.some((segment, i) => committed[i]!.name !== segment.name || committed[i]!.liveGen !== segment.liveGen);
  }

  /** Bytes of every file still held: current segments, the retained commits and files old searchers keep. */
  storeSizeInBytes(): number {
    let bytes = 0;
    for (const [name, size] of this.fileSizes) if (this.refs.isReferenced(name)) bytes += size;
    return bytes;
  }

  segmentStats(): SegmentStats[] {
    const searchable = new Set(this.searcher?.segments.map((view) => view.readers) ?? []);
    return this.segments.map((segment) => ({
      name: segment.name,
      generation: parseInt(segment.name.slice(1), 36),
      numDocs: segment.numDocs,
      deletedDocs: segment.deletedCount,
      sizeInBytes: segment.sizeInBytes + segment.liveBytes,
      committed: segment.committed,
      searchable: searchable.has(segment.readers),
      version: segment.readers.info.codecVersion,
      compound: false,
    }));
  }

  private deleteFile(name: string): void {
    this.synced.delete(name);
    this.fileSizes.delete(name);
    // Best effort: a file that cannot be deleted now is unreferenced garbage the next open removes.
    unlink(join(this.indexPath, name)).catch(() => undefined);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.searcher?.decRef();
    this.searcher = null;
  }
}
