/**
 * Reads a generation file: its header, then the operation records between the header and the checkpointed
 * end, verifying every checksum. Only bytes a checkpoint covers are read, so a torn tail (a crash mid-write)
 * is never seen; anything wrong before that end is corruption, reported with the file and the offset.
 */
import { FormatError, readInt64 } from './binary.js';
import { decodeHeader, MAX_HEADER_BYTES, type TranslogHeader } from './translog-header.js';
import { decodeOperation, RECORD_OVERHEAD, recordChecksumMatches } from './operation-codec.js';
import type { TranslogOperation } from './operation.js';
import { translogErrors } from './translog-errors.js';
import type { TranslogFileHandle } from './translog-fs.js';

/** Smallest possible body: kind byte, seqNo, primaryTerm, one-byte empty string. */
const MIN_BODY = 1 + 8 + 8 + 1;
const READ_CHUNK = 1 << 20;

/** Reads and validates the header of an open generation file. */
export async function readHeader(handle: TranslogFileHandle, path: string): Promise<{ header: TranslogHeader; length: number }> {
  const bytes = Buffer.allocUnsafe(MAX_HEADER_BYTES);
  const read = await handle.read(bytes, bytes.length, 0);
  try {
    return decodeHeader(bytes.subarray(0, read));
  } catch (err) {
    if (err instanceof FormatError) throw translogErrors.badHeader(path, err.message);
    throw err;
  }
}

export interface GenerationRange {
  readonly handle: TranslogFileHandle;
  readonly path: string;
  readonly formatVersion: number;
  /** First byte after the header. */
  readonly start: number;
  /** The checkpointed (or, for the generation being written, the written) end. */
  readonly end: number;
}

export interface ReadOperation {
  readonly operation: TranslogOperation;
  readonly offset: number;
  readonly size: number;
}

/** Yields the records of `range` in file order. Throws TranslogCorruptedError on the first bad one. */
export async function* readOperations(range: GenerationRange): AsyncGenerator<ReadOperation> {
  const { handle, path, end } = range;
  let chunk = Buffer.alloc(0);
  let chunkStart = range.start;
  let position = range.start;

  // Makes bytes [position, position + count) available in `chunk`; they must lie before `end`.
  const ensure = async (count: number): Promise<void> => {
    const have = chunkStart + chunk.length - position;
    if (have >= count) return;
    const wanted = Math.min(Math.max(count, READ_CHUNK), end - position);
    const next = Buffer.allocUnsafe(wanted);
    const kept = chunk.subarray(position - chunkStart);
    kept.copy(next, 0);
    const read = await handle.read(next.subarray(kept.length), wanted - kept.length, position + kept.length);
    if (kept.length + read < count) throw translogErrors.truncated(path, position + kept.length + read, end);
    chunk = next.subarray(0, kept.length + read);
    chunkStart = position;
  };

  while (position < end) {
    if (end - position < 4 + MIN_BODY + 4) throw translogErrors.corruptedAt(path, position, `${end - position} trailing bytes too short for an operation`);
    await ensure(4);
    const bodyLength = chunk.readUInt32BE(position - chunkStart);
    const size = bodyLength + RECORD_OVERHEAD;
    if (bodyLength < MIN_BODY || position + size > end) {
      throw translogErrors.corruptedAt(path, position, `operation length [${bodyLength}] does not fit between the record start and the checkpointed end [${end}]`);
    }
    await ensure(size);
    const record = chunk.subarray(position - chunkStart, position - chunkStart + size);
    if (!recordChecksumMatches(record)) throw translogErrors.corruptedAt(path, position, 'operation checksum mismatch');
    let operation: TranslogOperation;
    try {
      operation = decodeOperation(record, range.formatVersion);
    } catch (err) {
      if (err instanceof FormatError) throw translogErrors.corruptedAt(path, position, `undecodable operation (${err.message})`);
      throw err;
    }
    yield { operation, offset: position, size };
    position += size;
  }
}

/** Bytes from a record's start through its seqNo: the length prefix, the kind byte and the seqNo. */
const SEQ_NO_PREFIX = 4 + 1 + 8;

/**
 * The seqNo of each record of `range` in file order, reading nothing else of a record and not verifying its
 * checksum: what counting a snapshot's operations needs (a recovery's completeness check) at a fraction of the CPU
 * of readOperations, which copies every source. Lengths are still checked against the checkpointed end; whatever
 * later reads the operations themselves (the history a recovery sends) verifies every checksum.
 */
export async function* readSeqNos(range: GenerationRange): AsyncGenerator<number> {
  const { handle, path, end } = range;
  let chunk = Buffer.alloc(0);
  let chunkStart = range.start;
  let position = range.start;
  while (position < end) {
    if (end - position < 4 + MIN_BODY + 4) throw translogErrors.corruptedAt(path, position, `${end - position} trailing bytes too short for an operation`);
    if (position + SEQ_NO_PREFIX > chunkStart + chunk.length) {
      const wanted = Math.min(READ_CHUNK, end - position);
      const next = Buffer.allocUnsafe(wanted);
      const read = await handle.read(next, wanted, position);
      if (read < SEQ_NO_PREFIX) throw translogErrors.truncated(path, position + read, end);
      chunk = next.subarray(0, read);
      chunkStart = position;
    }
    const at = position - chunkStart;
    const bodyLength = chunk.readUInt32BE(at);
    const size = bodyLength + RECORD_OVERHEAD;
    if (bodyLength < MIN_BODY || position + size > end) {
      throw translogErrors.corruptedAt(path, position, `operation length [${bodyLength}] does not fit between the record start and the checkpointed end [${end}]`);
    }
    let seqNo: number;
    try {
      seqNo = readInt64(chunk, at + 5);
    } catch (err) {
      if (err instanceof FormatError) throw translogErrors.corruptedAt(path, position, `undecodable seqNo (${err.message})`);
      throw err;
    }
    yield seqNo;
    position += size;
  }
}
