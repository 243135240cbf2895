/**
 * How a shard copy on this node came to be (ES's RecoveryState): where it recovered from, the stage it is in,
 * the files it found in its store or copied, the translog operations it replayed, and a timer per stage.
 * A store recovery (EMPTY_STORE for a new index, EXISTING_STORE after a restart or an open/close) finds every
 * file already local ("reused") and copies nothing; a PEER recovery copies files from the primary (file-based)
 * or reuses its own store and replays the primary's operations (operations-based), with the bytes, files and
 * operations counted as they arrive. `_recovery` and `_cat/recovery` print it.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type RecoveryStage = 'INIT' | 'INDEX' | 'VERIFY_INDEX' | 'TRANSLOG' | 'FINALIZE' | 'DONE';
export type StoreRecoveryType = 'EMPTY_STORE' | 'EXISTING_STORE';
export type RecoveryType = StoreRecoveryType | 'PEER';

/** A node as a recovery names it (source and target), in the shape `_recovery` prints. */
export interface RecoveryNode {
  readonly id: string;
  readonly name: string;
  readonly host: string;
  readonly ip: string;
  readonly transportAddress: string;
}

/** ES's RecoveryState.Timer: wall-clock start/stop for display, a monotonic clock for the elapsed time. */
export class RecoveryTimer {
  startMillis = 0;
  stopMillis = 0;
  private startNanos = 0n;
  private elapsedMillis = -1;

  start(): void {
    this.startMillis = Date.now();
    this.startNanos = process.hrtime.bigint();
  }

  stop(): void {
    if (this.startNanos === 0n) this.start();
    this.stopMillis = Math.max(Date.now(), this.startMillis);
    this.elapsedMillis = Number((process.hrtime.bigint() - this.startNanos) / 1_000_000n);
  }

  /** Elapsed milliseconds: fixed once stopped (or snapshot), running before, 0 when never started. */
  get timeMillis(): number {
    if (this.elapsedMillis >= 0) return this.elapsedMillis;
    // A running timer can only go on on the process whose monotonic clock started it: anything else (a timer
    // rebuilt from the wire without `snapshot()`) reads as not started rather than failing on a BigInt mix.
    if (typeof this.startNanos !== 'bigint' || this.startNanos === 0n) return 0;
    return Math.max(0, Number((process.hrtime.bigint() - this.startNanos) / 1_000_000n));
  }

  /**
   * This timer with its elapsed time fixed at this moment: what another node is sent. hrtime is per process, so
   * the node that reports a running recovery says how long it has run; the stop time stays 0 (still running).
   */
  snapshot(): RecoveryTimer {
    const copy = new RecoveryTimer();
    copy.startMillis = this.startMillis;
    copy.stopMillis = this.stopMillis;
    copy.elapsedMillis = this.startNanos === 0n ? -1 : this.timeMillis;
    return copy;
  }
}

export interface RecoveredFile {
  readonly name: string;
  readonly length: number;
  /** A store recovery finds every file already on this node. */
  readonly reused: boolean;
  readonly recovered: number;
}

/** ES's RecoveryState.Translog UNKNOWN. */
export const UNKNOWN_OPERATIONS = -1;

export class ShardRecoveryState {
  stage: RecoveryStage = 'INIT';
  readonly timer = new RecoveryTimer();
  readonly indexTimer = new RecoveryTimer();
  readonly verifyIndexTimer = new RecoveryTimer();
  readonly translogTimer = new RecoveryTimer();
  files: RecoveredFile[] = [];
  translogRecovered = 0;
  translogTotal = UNKNOWN_OPERATIONS;
  translogTotalOnStart = UNKNOWN_OPERATIONS;
  /** PEER: operations the copy replayed from its own translog before asking its primary (ES's totalLocal). */
  translogLocal = 0;
  /** Time the source (and this target) spent waiting for the recovery rate limit, in ms. */
  sourceThrottleMillis = 0;
  targetThrottleMillis = 0;
  /** Where a PEER recovery comes from, and the node it recovers on. */
  sourceNode: RecoveryNode | undefined;
  targetNode: RecoveryNode | undefined;

  constructor(
    readonly index: string,
    readonly shard: number,
    readonly primary: boolean,
    readonly type: RecoveryType,
  ) {
    this.timer.start();
  }

  /** A copy for another node: the same figures, the timers fixed at this moment (RecoveryTimer.snapshot). */
  snapshot(): ShardRecoveryState {
    const copy = Object.assign(Object.create(ShardRecoveryState.prototype) as ShardRecoveryState, this);
    const timers = copy as unknown as Record<'timer' | 'indexTimer' | 'verifyIndexTimer' | 'translogTimer', RecoveryTimer>;
    timers.timer = this.timer.snapshot();
    timers.indexTimer = this.indexTimer.snapshot();
    timers.verifyIndexTimer = this.verifyIndexTimer.snapshot();
    timers.translogTimer = this.translogTimer.snapshot();
    copy.files = [...this.files];
    return copy;
  }

  /** PEER, INIT -> INDEX: the files the source will send (none reused) or, for an operations-based recovery, the store's own (all reused). */
  startPeerIndexStage(files: ReadonlyArray<{ name: string; length: number }>, reused: boolean): void {
    this.stage = 'INDEX';
    this.indexTimer.start();
    this.files = files.map((file) => ({ name: file.name, length: file.length, reused, recovered: 0 }));
  }

  /** PEER: the copy replayed `count` operations of its own translog up to its global checkpoint (they count as recovered). */
  recordLocalOperations(count: number): void {
    this.translogRecovered += count - this.translogLocal;
    this.translogLocal = count;
  }

  /** PEER: bytes of a file arrived. */
  addRecoveredBytes(name: string, bytes: number): void {
    const at = this.files.findIndex((file) => file.name === name);
    if (at < 0) return;
    const file = this.files[at]!;
    this.files[at] = { ...file, recovered: Math.min(file.length, file.recovered + bytes) };
  }

  /**
   * PEER: the copied files are in place (INDEX -> VERIFY_INDEX -> TRANSLOG). ES's clean_files ends the index stage
   * (`maybeCheckIndex`, then TRANSLOG): opening the engine on the files is the translog stage's, so the index
   * stage's time is the copy's. (It ended after the engine opened, whose segment checks, 0.4-0.8 s for a 150 MB
   * shard, counted as 10-18% of a throttled copy's time.) The operations to replay come with prepare_translog.
   */
  finishPeerIndexStage(): void {
    if (this.stage !== 'INDEX' && this.stage !== 'INIT') return;
    if (this.indexTimer.startMillis === 0) this.indexTimer.start();
    this.indexTimer.stop();
    this.stage = 'VERIFY_INDEX';
    this.verifyIndexTimer.start();
    this.verifyIndexTimer.stop();
    this.stage = 'TRANSLOG';
    this.translogTimer.start();
  }

  /** PEER: the engine is open on the files (an operations-based recovery's index stage ends here), `totalOperations` to replay. */
  startPeerTranslogStage(totalOperations: number): void {
    this.finishPeerIndexStage();
    this.translogTotal = this.translogLocal + totalOperations;
    this.translogTotalOnStart = this.translogLocal + totalOperations;
  }

  /** PEER: operations replayed (more may come than first counted: writes continue during recovery). */
  addRecoveredOperations(count: number, totalOperations: number): void {
    this.translogRecovered += count;
    this.translogTotal = Math.max(this.translogTotal, this.translogLocal + totalOperations, this.translogRecovered);
  }

  /** PEER, TRANSLOG -> FINALIZE. */
  startFinalizeStage(): void {
    this.translogTimer.stop();
    this.stage = 'FINALIZE';
  }

  /** PEER, FINALIZE -> DONE. */
  finishPeer(): void {
    if (this.translogTimer.stopMillis === 0) this.translogTimer.stop();
    this.stage = 'DONE';
    this.timer.stop();
  }

  /** INIT -> INDEX: the store's files are listed (all reused). */
  startIndexStage(shardPath: string): void {
    this.stage = 'INDEX';
    this.indexTimer.start();
    this.files = this.type === 'EXISTING_STORE' ? listStoreFiles(join(shardPath, 'index')) : [];
  }

  /** INDEX -> VERIFY_INDEX -> TRANSLOG: Gannet verifies segment checksums while opening, inside the engine. */
  startTranslogStage(): void {
    this.indexTimer.stop();
    this.stage = 'VERIFY_INDEX';
    this.verifyIndexTimer.start();
    this.verifyIndexTimer.stop();
    this.stage = 'TRANSLOG';
    this.translogTimer.start();
  }

  /** TRANSLOG -> FINALIZE -> DONE, with the operations the engine replayed. */
  finish(replayedOperations: number, keepFiles?: ReadonlySet<string>): void {
    this.translogRecovered = replayedOperations;
    this.translogTotal = replayedOperations;
    this.translogTotalOnStart = replayedOperations;
    if (keepFiles !== undefined) this.files = this.files.filter((file) => keepFiles.has(file.name));
    this.translogTimer.stop();
    this.stage = 'FINALIZE';
    this.stage = 'DONE';
    this.timer.stop();
  }

  get totalFileCount(): number {
    return this.files.length;
  }

  get reusedFileCount(): number {
    return this.files.filter((file) => file.reused).length;
  }

  /** Files to copy (none is, in a store recovery). */
  get filesToRecover(): number {
    return this.files.filter((file) => !file.reused).length;
  }

  get recoveredFileCount(): number {
    return this.files.filter((file) => !file.reused && file.recovered === file.length).length;
  }

  get totalBytes(): number {
    return this.files.reduce((sum, file) => sum + file.length, 0);
  }

  get reusedBytes(): number {
    return this.files.reduce((sum, file) => sum + (file.reused ? file.length : 0), 0);
  }

  get recoveredBytes(): number {
    return this.files.reduce((sum, file) => sum + file.recovered, 0);
  }

  get bytesToRecover(): number {
    return this.files.reduce((sum, file) => sum + (file.reused ? 0 : file.length), 0);
  }

  /** ES's Index.recoveredFilesPercent: 0 while no file is known, 100 when nothing is left to copy. */
  get recoveredFilesPercent(): number {
    const toRecover = this.filesToRecover;
    if (toRecover === 0 && this.files.length === 0) return 0;
    if (toRecover === this.recoveredFileCount) return 100;
    return (100 * this.recoveredFileCount) / toRecover;
  }

  get recoveredBytesPercent(): number {
    const toRecover = this.bytesToRecover;
    if (toRecover === 0 && this.files.length === 0) return 0;
    const recovered = this.files.reduce((sum, file) => sum + (file.reused ? 0 : file.recovered), 0);
    if (toRecover === recovered) return 100;
    return (100 * recovered) / toRecover;
  }

  /** ES's Translog.recoveredPercent: -1 when the total is unknown, 100 for nothing to replay. */
  get translogPercent(): number {
    if (this.translogTotal === UNKNOWN_OPERATIONS) return -1;
    if (this.translogTotal === 0) return 100;
    return (this.translogRecovered * 100) / this.translogTotal;
  }
}

function listStoreFiles(directory: string): RecoveredFile[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const files: RecoveredFile[] = [];
  for (const name of names.sort()) {
    try {
      const stats = statSync(join(directory, name));
      if (stats.isFile()) files.push({ name, length: stats.size, reused: true, recovered: 0 });
    } catch {
      // Removed while listing (an unreferenced leftover the engine deletes): not part of the store.
    }
  }
  return files;
}

/** ES's `String.format("%1.1f%%", percent)`. */
export function percentText(percent: number): string {
  return `${percent.toFixed(1)}%`;
}
