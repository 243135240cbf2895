/**
 * The in-memory side of one generation being written: records appended by `add` wait in a buffer until a
 * write-out hands them to the OS in one write call, and a sync makes them durable. Three offsets only ever
 * grow, in this order: durable (covered by a checkpoint on disk) <= written (handed to the OS) <= added.
 * This class does no I/O; translog.ts sequences the I/O and calls `takePending` / `markDurable`.
 *
 * Records are encoded straight into one growing write buffer (ES's ReleasableBytesStreamOutput): no buffer
 * per record, and a write-out hands over a view of it instead of concatenating records. Bytes handed over are
 * never written again: appends continue after them, and a full buffer is replaced, not reused.
 */
import { emptyCheckpoint, type Checkpoint } from './checkpoint.js';
import { encodeHeader, headerLength, type TranslogHeader } from './translog-header.js';
import { NO_OPS_PERFORMED } from './operation.js';
import type { TranslogLocation, TranslogOperation } from './operation.js';
import { encodeLargeIndexOperation, encodeOperationInto, type RecordTarget } from './operation-codec.js';
import { LARGE_SOURCE_BYTES } from './source-checksums.js';
import type { TranslogFileHandle } from './translog-fs.js';

/** Counters that a checkpoint records, as of some offset. */
export interface WriterState {
  readonly offset: number;
  readonly numOps: number;
  readonly minSeqNo: number;
  readonly maxSeqNo: number;
}

export interface SyncWaiter {
  readonly end: number;
  resolve(): void;
  reject(err: Error): void;
}

/** The write buffer's first size; it doubles up to MAX_WRITE_BUFFER, past which a fresh one is started. */
const INITIAL_WRITE_BUFFER = 64 * 1024;
const MAX_WRITE_BUFFER = 4 * 1024 * 1024;

export class GenerationWriter implements RecordTarget {
  readonly header: TranslogHeader;
  readonly headerBytes: Buffer;
  /** Opened when the generation's file is created (in the I/O sequence, possibly after ops were added). */
  handle: TranslogFileHandle | undefined;
  /** Set once rolled: no more adds; `finalized` settles when its last checkpoint is durable. */
  frozen = false;
  finalized: Promise<void> | undefined;
  closed = false;

  durable: Checkpoint;
  writtenOffset: number;
  /** Full write buffers not yet handed over, then the open one: bytes [openStart, openUsed) are pending. */
  private full: Buffer[] = [];
  private fullBytes = 0;
  bytes: Buffer = Buffer.alloc(0);
  private openStart = 0;
  private openUsed = 0;
  private offset: number;
  private numOpsAdded = 0;
  private minSeqNo = NO_OPS_PERFORMED;
  private maxSeqNo = NO_OPS_PERFORMED;
  lastModifiedMs: number;

  /** Group-commit bookkeeping, owned by translog.ts. */
  readonly waiters: SyncWaiter[] = [];
  roundScheduled = false;
  writeOutScheduled = false;

  constructor(
    readonly path: string,
    header: Omit<TranslogHeader, 'formatVersion'>,
    globalCheckpoint: number,
    minTranslogGeneration: number,
    nowMs: number,
  ) {
    this.headerBytes = encodeHeader(header);
    this.header = { ...header, formatVersion: this.headerBytes.readUInt16BE(4) };
    const start = headerLength(header.translogUUID);
    this.writtenOffset = start;
    this.durable = emptyCheckpoint(start, header.generation, globalCheckpoint, minTranslogGeneration);
    this.offset = start;
    this.lastModifiedMs = nowMs;
  }

  get generation(): number {
    return this.header.generation;
  }

  get addedOffset(): number {
    return this.offset;
  }

  get numOps(): number {
    return this.numOpsAdded;
  }

  get bufferedBytes(): number {
    return this.fullBytes + this.openUsed - this.openStart;
  }

  /** RecordTarget: room for one record at the end of the open write buffer (a new buffer when it is full). */
  reserve(recordLength: number): number {
    if (this.openUsed + recordLength <= this.bytes.length) return this.openUsed;
    this.closeOpenBuffer();
    let capacity = Math.min(Math.max(INITIAL_WRITE_BUFFER, this.bytes.length * 2), MAX_WRITE_BUFFER);
    if (capacity < recordLength) capacity = recordLength;
    // Not from Node's shared pool: the buffer lives until its bytes are written out.
    this.bytes = Buffer.allocUnsafeSlow(capacity);
    this.openStart = 0;
    this.openUsed = 0;
    return 0;
  }

  /** Moves the open buffer's pending bytes to `full`; later records continue after them (in it, or a new one). */
  private closeOpenBuffer(): void {
    if (this.openUsed === this.openStart) return;
    this.full.push(this.bytes.subarray(this.openStart, this.openUsed));
    this.fullBytes += this.openUsed - this.openStart;
    this.openStart = this.openUsed;
  }

  /** Encodes `operation` as the next record (translog.ts validated it). Throws, appending nothing, if it cannot be encoded. */
  append(operation: TranslogOperation, nowMs: number): TranslogLocation {
    const offset = this.offset;
    let recordLength: number;
    if (operation.type === 'index' && operation.source.length >= LARGE_SOURCE_BYTES) {
      // Referenced, not copied into the write buffer (encodeLargeIndexOperation): the pieces wait in `full`,
      // after whatever the open buffer held, and go to the file in order.
      const pieces = encodeLargeIndexOperation(operation);
      this.closeOpenBuffer();
      recordLength = 0;
      for (const piece of pieces) recordLength += piece.length;
      this.full.push(...pieces);
      this.fullBytes += recordLength;
    } else {
      recordLength = encodeOperationInto(operation, this);
      this.openUsed += recordLength;
    }
    this.offset = offset + recordLength;
    this.numOpsAdded++;
    const seqNo = operation.seqNo;
    this.minSeqNo = this.minSeqNo === NO_OPS_PERFORMED ? seqNo : Math.min(this.minSeqNo, seqNo);
    this.maxSeqNo = Math.max(this.maxSeqNo, seqNo);
    this.lastModifiedMs = nowMs;
    return { generation: this.generation, offset, size: recordLength };
  }

  /**
   * Takes every buffered record, as the buffers to write one after the other from `position` (small records
   * joined into one buffer, a large source on its own, never copied), together with the counters that describe
   * the file once those bytes are in it. Synchronous, so the two always agree.
   */
  takePending(): { pieces: Buffer[]; position: number; state: WriterState } {
    const position = this.writtenOffset;
    this.closeOpenBuffer();
    const pieces: Buffer[] = [];
    let run: Buffer[] = [];
    let runBytes = 0;
    const endRun = (): void => {
      if (run.length > 0) pieces.push(run.length === 1 ? run[0]! : Buffer.concat(run, runBytes));
      run = [];
      runBytes = 0;
    };
    for (const piece of this.full) {
      if (piece.length >= LARGE_SOURCE_BYTES) {
        endRun();
        pieces.push(piece);
      } else {
        run.push(piece);
        runBytes += piece.length;
      }
    }
    endRun();
    this.full = [];
    this.fullBytes = 0;
    const state: WriterState = { offset: this.offset, numOps: this.numOpsAdded, minSeqNo: this.minSeqNo, maxSeqNo: this.maxSeqNo };
    return { pieces, position, state };
  }

  /** Settles the waiters whose records the durable checkpoint now covers. */
  settleWaiters(): void {
    const remaining: SyncWaiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.end <= this.durable.offset) waiter.resolve();
      else remaining.push(waiter);
    }
    this.waiters.length = 0;
    this.waiters.push(...remaining);
  }

  rejectWaiters(err: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.reject(err);
  }
}
