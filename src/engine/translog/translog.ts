/**
 * The shard's write-ahead log. CONTRACT (what the engine may rely on):
 *
 * - `add(op)` appends an operation and returns its Location at once; it is buffered in memory, not yet
 *   durable. `add` never blocks on I/O.
 * - `await sync(location)` resolves only after an fsync covering that location AND a checkpoint recording it
 *   have reached the disk; from then on the operation survives `kill -9` and power loss (given a disk that
 *   honours fsync). Concurrent callers share fsyncs (group commit): at most one sync round is in flight;
 *   everyone who asks meanwhile is served by the next round, which covers everything added so far.
 *   `sync()` with no location makes everything added so far durable (and the global checkpoint).
 * - `syncBeforeAck(location)` is what the write path awaits before acknowledging: `sync(location)` under
 *   durability `request`, nothing under `async` (a background fsync runs every `syncIntervalMs`; a crash may
 *   lose up to that much, which is what `async` promises).
 * - Recovery (`Translog.open` on an existing directory, then `snapshot()`) yields exactly the operations
 *   the checkpoints cover, in file order across generations. A torn tail past a checkpoint is ignored;
 *   damage before it is a `translog_corrupted_exception` naming the file and the offset, never a silent
 *   skip. Opening always starts a fresh generation; old files are never appended to.
 * - `rollGeneration()` starts a new generation file (after making the current one durable);
 *   `trimUnreferencedGenerations(g)` deletes generations older than `g` once a commit no longer needs them
 *   (it never deletes the generation being written).
 * - An I/O error on the write path is tragic (as in ES): pending syncs are rejected with it, the translog
 *   refuses further work (`already_closed_exception` caused by it), and an fsync is never retried and
 *   assumed to have worked. The shard must be failed and recovered from its files or a peer.
 * - Operations with the same seqNo may appear more than once across generations (an operation replayed and
 *   logged again); consumers apply them in order.
 *
 * I/O is sequenced through one promise chain (`enqueue`): writes, fsyncs, checkpoint updates, rolls and
 * trims never overlap, so the files always go through the states translog-recovery.ts knows how to read.
 */
import { join } from 'node:path';
import { EsError } from '../../common/errors.js';
import { CHECKPOINT_V1_BYTES, encodeCheckpoint, type Checkpoint } from './checkpoint.js';
import { CHECKPOINT_FILE, generationCheckpointName, generationFileName, writeCheckpointFile } from './checkpoint-file.js';
import { readSeqNos } from './generation-reader.js';
import { GenerationWriter, type WriterState } from './generation-writer.js';
import { UNASSIGNED_SEQ_NO, type TranslogLocation, type TranslogOperation } from './operation.js';
import { attempt, createGenerationFile, openTranslogDirectory, type ReaderGeneration } from './translog-recovery.js';
import { translogErrors } from './translog-errors.js';
import { nodeTranslogFs, type TranslogFileHandle, type TranslogFs } from './translog-fs.js';
import { TranslogSnapshot, type SnapshotSource } from './translog-snapshot.js';

export type TranslogDurability = 'request' | 'async';

export interface TranslogOpenOptions {
  /** Required to match when opening an existing translog (the engine keeps it in its commit). */
  translogUUID?: string;
  /** Create an empty translog when the directory holds none (default false: a missing translog is an error). */
  createIfMissing?: boolean;
  /** `index.translog.durability`; default `request`. */
  durability?: TranslogDurability;
  /** `index.translog.sync_interval` in ms for `async` durability; default 5000. */
  syncIntervalMs?: number;
  /** Primary term of the generation opened now; default: the highest term in the existing files, or 1. */
  primaryTerm?: number;
  /** Buffered bytes that trigger a write to the OS without waiting for a sync; default 1 MiB (ES's default). */
  bufferSize?: number;
  /** File-system calls; tests inject counting or failing ones. */
  fs?: TranslogFs;
  /** Clock for stats; tests inject one. */
  now?: () => number;
}

export interface TranslogStats {
  numOps: number;
  sizeInBytes: number;
  /** Operations in generations a commit still needs (from the last trim's generation on). */
  uncommittedOps: number;
  uncommittedSize: number;
  /** Milliseconds since the oldest retained generation was last written. */
  earliestLastModifiedAge: number;
}

const DEFAULT_SYNC_INTERVAL_MS = 5000;
const DEFAULT_BUFFER_SIZE = 1024 * 1024;
const noop = (): void => undefined;

export class Translog {
  private readers: ReaderGeneration[];
  /** Rolled generations whose final checkpoint is not yet durable (at most a few, briefly). */
  private readonly frozen: GenerationWriter[] = [];
  private current: GenerationWriter;
  private minGeneration: number;
  /**
   * The oldest generation the last commit needs: operations from here on are not in the commit ("uncommitted").
   * Older generations may still be kept for history (peer recovery's retention), which is not uncommitted work.
   */
  private committedGeneration: number;
  private globalCheckpoint: number;
  private durabilityMode: TranslogDurability;
  private syncIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private ioTail: Promise<void> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | undefined;
  private tragedy: EsError | undefined;
  /**
   * translog.ckp opened for the sync rounds' in-place writes (overwriteCheckpoint); closed whenever the file is
   * replaced by a rename (writeCheckpoint), since the handle would then write to the replaced file.
   */
  private checkpointHandle: TranslogFileHandle | undefined;

  private constructor(
    private readonly dir: string,
    private readonly fs: TranslogFs,
    private readonly now: () => number,
    private readonly bufferSize: number,
    readonly translogUUID: string,
    readers: ReaderGeneration[],
    writer: GenerationWriter,
    minGeneration: number,
    globalCheckpoint: number,
    durability: TranslogDurability,
    syncIntervalMs: number,
  ) {
    this.readers = readers;
    this.current = writer;
    this.minGeneration = minGeneration;
    this.committedGeneration = minGeneration;
    this.globalCheckpoint = globalCheckpoint;
    this.durabilityMode = durability;
    this.syncIntervalMs = syncIntervalMs;
    this.restartTimer();
  }

  static async open(dir: string, options: TranslogOpenOptions = {}): Promise<Translog> {
    const fs = options.fs ?? nodeTranslogFs;
    const now = options.now ?? Date.now;
    const recovered = await openTranslogDirectory(fs, dir, options, now());
    return new Translog(
      dir,
      fs,
      now,
      options.bufferSize ?? DEFAULT_BUFFER_SIZE,
      recovered.translogUUID,
      recovered.readers,
      recovered.writer,
      recovered.minGeneration,
      recovered.globalCheckpoint,
      options.durability ?? 'request',
      options.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS,
    );
  }

  get durability(): TranslogDurability {
    return this.durabilityMode;
  }

  get currentGeneration(): number {
    return this.current.generation;
  }

  /** The oldest generation still kept. */
  get minRetainedGeneration(): number {
    return this.minGeneration;
  }

  get primaryTerm(): number {
    return this.current.header.primaryTerm;
  }

  /** The global checkpoint as last made durable in a checkpoint file. */
  get lastSyncedGlobalCheckpoint(): number {
    return this.current.durable.globalCheckpoint;
  }

  // ---- writing ----

  add(operation: TranslogOperation): TranslogLocation {
    this.ensureOpen();
    if (!Number.isSafeInteger(operation.seqNo) || operation.seqNo < 0) {
      throw translogErrors.invalidOperation(`seqNo [${operation.seqNo}] must be a non-negative integer`);
    }
    if (!Number.isSafeInteger(operation.primaryTerm) || operation.primaryTerm < 0) {
      throw translogErrors.invalidOperation(`primaryTerm [${operation.primaryTerm}] must be a non-negative integer`);
    }
    if (operation.primaryTerm > this.current.header.primaryTerm) {
      throw translogErrors.termTooNew(this.current.header.primaryTerm, operation.primaryTerm);
    }
    const writer = this.current;
    let location: TranslogLocation;
    try {
      location = writer.append(operation, this.now());
    } catch (err) {
      throw translogErrors.invalidOperation((err as Error).message);
    }
    if (writer.bufferedBytes >= this.bufferSize) this.scheduleWriteOut(writer);
    return location;
  }

  /** Records the global checkpoint; it is persisted by the next sync. */
  setGlobalCheckpoint(globalCheckpoint: number): void {
    if (!Number.isSafeInteger(globalCheckpoint)) throw translogErrors.invalidOperation(`global checkpoint [${globalCheckpoint}] is not an integer`);
    this.globalCheckpoint = Math.max(this.globalCheckpoint, globalCheckpoint);
  }

  /** Changes durability (the setting is dynamic in ES). */
  setDurability(durability: TranslogDurability, syncIntervalMs = this.syncIntervalMs): void {
    this.durabilityMode = durability;
    this.syncIntervalMs = syncIntervalMs;
    if (!this.closed) this.restartTimer();
  }

  // ---- durability ----

  async sync(location?: TranslogLocation): Promise<void> {
    this.ensureOpen();
    if (location) return this.syncLocation(location);
    const waits = this.frozen.map((writer) => writer.finalized!);
    const current = this.current;
    waits.push(this.requestDurable(current, current.addedOffset, this.globalCheckpoint !== current.durable.globalCheckpoint));
    await Promise.all(waits);
  }

  async syncBeforeAck(location: TranslogLocation): Promise<void> {
    this.ensureOpen();
    if (this.durabilityMode === 'request') await this.syncLocation(location);
  }

  /** Whether a checkpoint on disk already covers `location`. */
  isSynced(location: TranslogLocation): boolean {
    const writer = this.writerOf(location.generation);
    if (writer) return !writer.frozen && writer.durable.offset >= location.offset + location.size;
    return location.generation < this.current.generation;
  }

  /** True when something added (or the global checkpoint) is not yet durable. */
  syncNeeded(): boolean {
    const current = this.current;
    return this.frozen.length > 0 || current.addedOffset > current.durable.offset || this.globalCheckpoint !== current.durable.globalCheckpoint;
  }

  private syncLocation(location: TranslogLocation): Promise<void> {
    const current = this.current;
    if (location.generation === current.generation) return this.requestDurable(current, location.offset + location.size, false);
    if (location.generation > current.generation) {
      return Promise.reject(translogErrors.invalidOperation(`location generation [${location.generation}] is ahead of the current generation [${current.generation}]`));
    }
    const frozen = this.frozen.find((writer) => writer.generation === location.generation);
    // An older generation that is no longer frozen was made durable when it was rolled.
    return frozen ? frozen.finalized! : Promise.resolve();
  }

  private writerOf(generation: number): GenerationWriter | undefined {
    if (generation === this.current.generation) return this.current;
    return this.frozen.find((writer) => writer.generation === generation);
  }

  private requestDurable(writer: GenerationWriter, end: number, force: boolean): Promise<void> {
    if (!force && writer.durable.offset >= end) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      writer.waiters.push({ end, resolve, reject });
      this.scheduleRound(writer);
    });
  }

  /** Group commit: one round in flight per writer; waiters arriving meanwhile are served by the next one. */
  private scheduleRound(writer: GenerationWriter): void {
    if (writer.roundScheduled) return;
    writer.roundScheduled = true;
    this.enqueue(() => this.syncRound(writer)).then(
      () => {
        writer.roundScheduled = false;
        writer.settleWaiters();
        // A closed writer cannot make more durable; anyone still waiting would wait forever.
        if (writer.closed) writer.rejectWaiters(translogErrors.alreadyClosed(this.tragedy));
        else if (writer.waiters.length > 0) this.scheduleRound(writer);
      },
      () => {
        writer.roundScheduled = false; // fail() has rejected the waiters
      },
    );
  }

  private scheduleWriteOut(writer: GenerationWriter): void {
    if (writer.writeOutScheduled) return;
    writer.writeOutScheduled = true;
    this.enqueue(async () => {
      writer.writeOutScheduled = false;
      if (writer.handle && !writer.closed) await this.writeOut(writer);
    }).catch(noop);
  }

  /** Hands every buffered record of `writer` to the OS (one write, or one per large source); returns the state the file is then in. */
  private async writeOut(writer: GenerationWriter): Promise<WriterState> {
    const { pieces, position, state } = writer.takePending();
    let at = position;
    for (const piece of pieces) {
      await attempt('write', writer.path, () => writer.handle!.write(piece, at));
      at += piece.length;
      // Only whole pieces count as written; a failure in between is tragic (the translog closes) either way.
      writer.writtenOffset = at;
    }
    return state;
  }

  /** Write out, fsync the data, then (and only then) write the checkpoint that makes it recoverable. */
  private async syncRound(writer: GenerationWriter): Promise<void> {
    if (writer.closed) return;
    const state = await this.writeOut(writer);
    const durable = writer.durable;
    if (
      state.offset === durable.offset &&
      this.globalCheckpoint === durable.globalCheckpoint &&
      this.minGeneration === durable.minTranslogGeneration
    ) {
      return;
    }
    if (state.offset > durable.offset) await attempt('fsync', writer.path, () => writer.handle!.datasync());
    const checkpoint: Checkpoint = {
      offset: state.offset,
      numOps: state.numOps,
      generation: writer.generation,
      minSeqNo: state.minSeqNo,
      maxSeqNo: state.maxSeqNo,
      globalCheckpoint: this.globalCheckpoint,
      minTranslogGeneration: this.minGeneration,
      trimmedAboveSeqNo: UNASSIGNED_SEQ_NO,
    };
    await this.overwriteCheckpoint(checkpoint);
    writer.durable = checkpoint;
  }

  /**
   * A sync round's checkpoint, written over translog.ckp in place and fdatasynced, as ES's TranslogWriter.syncUpTo
   * writes it (Checkpoint.write into the open channel, force(false)): the file already exists with its final size
   * and its directory entry was made durable when it was created (writeCheckpoint), so neither changes now; and
   * the checkpoint (76 bytes, in the file's first sector) is written in one write smaller than a disk sector,
   * which a power loss leaves old or new, never torn (ES relies on the same: its checkpoints must stay under 512
   * bytes "for atomic writes"). What makes the sync's acknowledgement true is unchanged: the generation's data
   * was fdatasynced first, then this fdatasync made the checkpoint covering it durable.
   * The write to a temp file, its fsync, the rename and the directory fsync that writeCheckpoint pays instead
   * cost ~1.2 ms of CPU and ~4 ms of latency per round on this host (vs ~0.2 ms and ~0.3 ms), on every copy of a
   * shard, for every bulk request.
   */
  private async overwriteCheckpoint(checkpoint: Checkpoint): Promise<void> {
    const path = join(this.dir, CHECKPOINT_FILE);
    const bytes = encodeCheckpoint(checkpoint);
    if (bytes.length !== CHECKPOINT_V1_BYTES) throw translogErrors.invalidOperation(`a checkpoint of ${bytes.length} bytes cannot be written in place`);
    await attempt('write checkpoint', path, async () => {
      this.checkpointHandle ??= await this.fs.open(path, 'overwrite');
      await this.checkpointHandle.write(bytes, 0);
      await this.checkpointHandle.datasync();
    });
  }

  /**
   * A checkpoint file replaced atomically (temp file, fsync, rename, directory fsync): a generation's frozen copy,
   * and translog.ckp when it starts a new generation or records a trim (rare: once per roll or commit).
   */
  private async writeCheckpoint(name: string, checkpoint: Checkpoint): Promise<void> {
    const path = join(this.dir, name);
    if (name === CHECKPOINT_FILE) await this.closeCheckpointHandle();
    return attempt('write checkpoint', path, () => writeCheckpointFile(this.fs, this.dir, name, checkpoint));
  }

  private async closeCheckpointHandle(): Promise<void> {
    const handle = this.checkpointHandle;
    if (handle === undefined) return;
    this.checkpointHandle = undefined;
    await attempt('close', join(this.dir, CHECKPOINT_FILE), () => handle.close());
  }

  // ---- generations ----

  /** Starts a new generation; resolves when the old one is durable and the new one is on disk. */
  async rollGeneration(options: { primaryTerm?: number } = {}): Promise<void> {
    this.ensureOpen();
    const old = this.current;
    const primaryTerm = options.primaryTerm ?? old.header.primaryTerm;
    if (!Number.isSafeInteger(primaryTerm) || primaryTerm < old.header.primaryTerm) {
      throw translogErrors.invalidOperation(`primary term [${primaryTerm}] is below the current term [${old.header.primaryTerm}]`);
    }
    const next = new GenerationWriter(
      join(this.dir, generationFileName(old.generation + 1)),
      { translogUUID: this.translogUUID, primaryTerm, generation: old.generation + 1 },
      this.globalCheckpoint,
      this.minGeneration,
      this.now(),
    );
    // Swapped synchronously so adds from now on go to the new generation while the old one is finished.
    old.frozen = true;
    this.frozen.push(old);
    this.current = next;
    old.finalized = this.enqueue(async () => {
      await this.syncRound(old);
      await this.writeCheckpoint(generationCheckpointName(old.generation), old.durable);
      await attempt('close', old.path, () => old.handle!.close());
      old.closed = true;
      await createGenerationFile(this.fs, this.dir, next);
      next.durable = { ...next.durable, globalCheckpoint: this.globalCheckpoint, minTranslogGeneration: this.minGeneration };
      await this.writeCheckpoint(CHECKPOINT_FILE, next.durable);
      this.frozen.splice(this.frozen.indexOf(old), 1);
      this.readers.push({
        generation: old.generation,
        path: old.path,
        checkpoint: old.durable,
        formatVersion: old.header.formatVersion,
        headerLength: old.headerBytes.length,
        primaryTerm: old.header.primaryTerm,
        lastModifiedMs: old.lastModifiedMs,
      });
      old.settleWaiters();
    });
    await old.finalized;
  }

  /** Records the oldest generation the last commit needs (stats count the operations from there as uncommitted). */
  markCommitted(generation: number): void {
    this.committedGeneration = Math.max(this.committedGeneration, Math.min(generation, this.current.generation));
  }

  /**
   * The oldest generation holding an operation with a seqNo >= `seqNo` (the current generation when none does):
   * keeping every generation from there keeps the history peer recovery may replay from `seqNo`.
   */
  minGenerationHoldingSeqNo(seqNo: number): number {
    for (const reader of [...this.readers].sort((a, b) => a.generation - b.generation)) {
      if (reader.checkpoint.numOps > 0 && reader.checkpoint.maxSeqNo >= seqNo) return reader.generation;
    }
    for (const writer of this.frozen) if (writer.numOps > 0) return writer.generation;
    return this.current.generation;
  }

  /**
   * Deletes generations older than `minRequiredGeneration` (clamped to the generation being written). The
   * checkpoint records the new minimum first, so a crash mid-way leaves only files the next open deletes.
   */
  async trimUnreferencedGenerations(minRequiredGeneration: number): Promise<void> {
    this.ensureOpen();
    if (!Number.isSafeInteger(minRequiredGeneration)) throw translogErrors.invalidOperation(`generation [${minRequiredGeneration}] is not an integer`);
    const failures: string[] = [];
    await this.enqueue(async () => {
      // The writer that owns translog.ckp right now: the oldest one not yet finished.
      const owner = this.frozen[0] ?? this.current;
      const target = Math.min(minRequiredGeneration, owner.generation);
      if (target <= this.minGeneration) return;
      this.minGeneration = target;
      const checkpoint = { ...owner.durable, minTranslogGeneration: target };
      await this.writeCheckpoint(CHECKPOINT_FILE, checkpoint);
      owner.durable = checkpoint;
      const doomed = this.readers.filter((reader) => reader.generation < target);
      this.readers = this.readers.filter((reader) => reader.generation >= target);
      for (const reader of doomed) {
        for (const path of [reader.path, join(this.dir, generationCheckpointName(reader.generation))]) {
          // Not tragic: the checkpoint already disowns these files and the next open deletes leftovers.
          await this.fs.unlink(path).catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'ENOENT') failures.push(`${path}: ${err.message}`);
          });
        }
      }
      await this.fs.fsyncDirectory(this.dir).catch((err: Error) => failures.push(`${this.dir}: ${err.message}`));
    });
    if (failures.length > 0) {
      throw new EsError('translog_exception', `failed to delete unreferenced translog files (${failures.join('; ')}); they will be deleted on the next open`);
    }
  }

  // ---- reading ----

  /**
   * The operations with seqNo >= fromSeqNo, in file order across generations, exactly as of this call:
   * everything added before it is included (written to the OS first, not necessarily fsynced), nothing after.
   */
  snapshot(fromSeqNo = 0): TranslogSnapshot {
    this.ensureOpen();
    // The extent of each generation being written, fixed now: later adds are not part of this snapshot.
    const bounds = new Map<number, number>();
    for (const writer of [...this.frozen, this.current]) bounds.set(writer.generation, writer.addedOffset);
    // Not tragic if the files cannot be opened for reading; the write-out inside is (see capture).
    const sources = this.enqueue(() => this.captureSnapshotSources(fromSeqNo, bounds), false);
    return new TranslogSnapshot(sources, fromSeqNo);
  }

  /**
   * Calls `visit` with the seqNo of every operation `snapshot(fromSeqNo)` would yield, in the same order, reading
   * only each record's seqNo (generation-reader.ts readSeqNos): for counting history without reading it.
   */
  async forEachSeqNo(fromSeqNo: number, visit: (seqNo: number) => void): Promise<void> {
    this.ensureOpen();
    const bounds = new Map<number, number>();
    for (const writer of [...this.frozen, this.current]) bounds.set(writer.generation, writer.addedOffset);
    const sources = await this.enqueue(() => this.captureSnapshotSources(fromSeqNo, bounds), false);
    try {
      for (const source of sources) {
        for await (const seqNo of readSeqNos(source)) {
          if (seqNo < fromSeqNo) continue;
          if (source.trimmedAboveSeqNo !== UNASSIGNED_SEQ_NO && seqNo > source.trimmedAboveSeqNo) continue;
          visit(seqNo);
        }
      }
    } finally {
      await Promise.all(sources.map((source) => source.handle.close().catch(noop)));
    }
  }

  private async captureSnapshotSources(fromSeqNo: number, bounds: ReadonlyMap<number, number>): Promise<SnapshotSource[]> {
    const lastGeneration = Math.max(...bounds.keys());
    const extents: { path: string; formatVersion: number; start: number; end: number; trimmedAboveSeqNo: number }[] = [];
    for (const reader of this.readers) {
      if (reader.generation > lastGeneration || reader.checkpoint.numOps === 0 || reader.checkpoint.maxSeqNo < fromSeqNo) continue;
      extents.push({
        path: reader.path,
        formatVersion: reader.formatVersion,
        start: reader.headerLength,
        end: Math.min(reader.checkpoint.offset, bounds.get(reader.generation) ?? Infinity),
        trimmedAboveSeqNo: reader.checkpoint.trimmedAboveSeqNo,
      });
    }
    for (const writer of [...this.frozen, this.current]) {
      const bound = bounds.get(writer.generation);
      if (bound === undefined || !writer.handle || writer.closed) continue;
      let state: WriterState;
      try {
        state = await this.writeOut(writer);
      } catch (err) {
        throw this.fail(err);
      }
      if (state.numOps > 0 && state.maxSeqNo >= fromSeqNo) {
        extents.push({ path: writer.path, formatVersion: writer.header.formatVersion, start: writer.headerBytes.length, end: bound, trimmedAboveSeqNo: UNASSIGNED_SEQ_NO });
      }
    }
    const sources: SnapshotSource[] = [];
    try {
      for (const extent of extents) {
        const handle = await attempt('open for reading', extent.path, () => this.fs.open(extent.path, 'read'));
        sources.push({ ...extent, handle });
      }
    } catch (err) {
      await Promise.all(sources.map((source) => source.handle.close().catch(noop)));
      throw err;
    }
    return sources;
  }

  stats(): TranslogStats {
    const generations = [
      ...this.readers.map((reader) => ({
        generation: reader.generation,
        numOps: reader.checkpoint.numOps,
        size: reader.checkpoint.offset,
        lastModifiedMs: reader.lastModifiedMs,
      })),
      ...[...this.frozen, this.current].map((writer) => ({
        generation: writer.generation,
        numOps: writer.numOps,
        size: writer.addedOffset,
        lastModifiedMs: writer.lastModifiedMs,
      })),
    ];
    const uncommitted = generations.filter((generation) => generation.generation >= Math.max(this.minGeneration, this.committedGeneration));
    const sum = (list: typeof generations, key: 'numOps' | 'size'): number => list.reduce((total, g) => total + g[key], 0);
    const oldest = Math.min(...generations.map((generation) => generation.lastModifiedMs));
    return {
      numOps: sum(generations, 'numOps'),
      sizeInBytes: sum(generations, 'size'),
      uncommittedOps: sum(uncommitted, 'numOps'),
      uncommittedSize: sum(uncommitted, 'size'),
      earliestLastModifiedAge: Math.max(0, Math.round(this.now() - oldest)),
    };
  }

  // ---- lifecycle ----

  /** Makes everything added durable and releases the files. Idempotent. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    this.stopTimer();
    this.closing = (async () => {
      if (this.tragedy) {
        await this.releaseHandles();
        return;
      }
      await this.enqueue(async () => {
        const writer = this.current;
        await this.syncRound(writer);
        writer.settleWaiters();
        await attempt('close', writer.path, () => writer.handle!.close());
        writer.closed = true;
        await this.closeCheckpointHandle();
      });
      this.current.rejectWaiters(translogErrors.alreadyClosed(undefined));
    })();
    return this.closing;
  }

  private ensureOpen(): void {
    if (this.tragedy) throw translogErrors.alreadyClosed(this.tragedy);
    if (this.closed) throw translogErrors.alreadyClosed(undefined);
  }

  /** Runs `step` after every earlier I/O step; a failure is tragic unless the step says otherwise. */
  private enqueue<T>(step: () => Promise<T>, tragicOnError = true): Promise<T> {
    const run = this.ioTail.then(async () => {
      if (this.tragedy) throw translogErrors.alreadyClosed(this.tragedy);
      try {
        return await step();
      } catch (err) {
        throw tragicOnError ? this.fail(err) : err;
      }
    });
    this.ioTail = run.then(noop, noop);
    return run;
  }

  private fail(err: unknown): EsError {
    if (this.tragedy) return this.tragedy;
    const tragedy = err instanceof EsError ? err : translogErrors.ioFailure('write', this.dir, err);
    this.tragedy = tragedy;
    this.stopTimer();
    for (const writer of [...this.frozen, this.current]) writer.rejectWaiters(tragedy);
    void this.releaseHandles();
    return tragedy;
  }

  private async releaseHandles(): Promise<void> {
    for (const writer of [...this.frozen, this.current]) {
      if (writer.handle && !writer.closed) {
        writer.closed = true;
        await writer.handle.close().catch(noop);
      }
    }
    const checkpointHandle = this.checkpointHandle;
    this.checkpointHandle = undefined;
    await checkpointHandle?.close().catch(noop);
  }

  private restartTimer(): void {
    this.stopTimer();
    if (this.durabilityMode !== 'async') return;
    this.timer = setInterval(() => {
      if (!this.closed && !this.tragedy && this.syncNeeded()) this.sync().catch(noop);
    }, this.syncIntervalMs);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
