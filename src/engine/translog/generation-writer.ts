/**
 * The in-memory side of one generation being written: records appended by `add` wait in a buffer until a
 * write-out hands them to the OS in one write call, and a sync makes them durable. Three offsets only ever
 * grow, in this order: durable (covered by a checkpoint on disk) <= written (handed to the OS) <= added.
 * This class does no I/O; translog.ts sequences the I/O and calls `takePending` / `markDurable`.
 */
import { emptyCheckpoint, type Checkpoint } from './checkpoint.js';
import { encodeHeader, headerLength, type TranslogHeader } from './translog-header.js';
import { NO_OPS_PERFORMED } from './operation.js';
import type { TranslogLocation } from './operation.js';
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

export class GenerationWriter {
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
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private state: WriterState;
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
    this.state = { offset: start, numOps: 0, minSeqNo: NO_OPS_PERFORMED, maxSeqNo: NO_OPS_PERFORMED };
    this.lastModifiedMs = nowMs;
  }

  get generation(): number {
    return this.header.generation;
  }

  get addedOffset(): number {
    return this.state.offset;
  }

  get numOps(): number {
    return this.state.numOps;
  }

  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  append(record: Buffer, seqNo: number, nowMs: number): TranslogLocation {
    const offset = this.state.offset;
    this.pending.push(record);
    this.pendingBytes += record.length;
    const { numOps, minSeqNo, maxSeqNo } = this.state;
    this.state = {
      offset: offset + record.length,
      numOps: numOps + 1,
      minSeqNo: minSeqNo === NO_OPS_PERFORMED ? seqNo : Math.min(minSeqNo, seqNo),
      maxSeqNo: Math.max(maxSeqNo, seqNo),
    };
    this.lastModifiedMs = nowMs;
    return { generation: this.generation, offset, size: record.length };
  }

  /**
   * Takes every buffered record, as one buffer to write at `position`, together with the counters that
   * describe the file once those bytes are in it. Synchronous, so the two always agree.
   */
  takePending(): { bytes: Buffer | undefined; position: number; state: WriterState } {
    const position = this.writtenOffset;
    const bytes = this.pendingBytes === 0 ? undefined : this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return { bytes, position, state: this.state };
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
