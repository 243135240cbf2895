/**
 * The checkpoint: how far a generation is durable. `translog.ckp` describes the generation being written;
 * `translog-<generation>.ckp` is its frozen copy once that generation is rolled. A checkpoint is written
 * (atomically: replaced by a rename, see checkpoint-file.ts, or, in a sync round, overwritten in place in one
 * write smaller than a disk sector, see Translog.overwriteCheckpoint) only after the generation's data is fsynced, so everything before
 * `offset` was on disk when the checkpoint was; bytes after it are a possibly torn tail and never read.
 *
 * Format version 1, 76 bytes:
 *   u32 magic "GCKP" | u16 formatVersion | u16 reserved (0) |
 *   i64 offset | i64 numOps | i64 generation | i64 minSeqNo | i64 maxSeqNo | i64 globalCheckpoint |
 *   i64 minTranslogGeneration | i64 trimmedAboveSeqNo | u32 crc32(all preceding bytes)
 *
 * The fields are Elasticsearch's Checkpoint fields. A reader dispatches on formatVersion, so a later
 * version that appends fields keeps reading version-1 files (as ES reads its v1-v3 checkpoints).
 */
import { FormatError, readInt64, writeInt64 } from './binary.js';
import { crc32 } from './crc32.js';
import { NO_OPS_PERFORMED, UNASSIGNED_SEQ_NO } from './operation.js';

export const CHECKPOINT_MAGIC = 0x47434b50; // "GCKP"
export const CHECKPOINT_FORMAT_V1 = 1;
export const CHECKPOINT_V1_BYTES = 8 + 8 * 8 + 4;

export interface Checkpoint {
  /** Bytes of the generation file covered: header plus every complete, fsynced record. */
  readonly offset: number;
  readonly numOps: number;
  readonly generation: number;
  readonly minSeqNo: number;
  readonly maxSeqNo: number;
  readonly globalCheckpoint: number;
  /** The oldest generation the translog still needs; older files are leftovers of an interrupted trim. */
  readonly minTranslogGeneration: number;
  /** Operations above this seqNo are to be ignored (ES's trimOperations); UNASSIGNED_SEQ_NO means none. */
  readonly trimmedAboveSeqNo: number;
}

export function emptyCheckpoint(offset: number, generation: number, globalCheckpoint: number, minTranslogGeneration: number): Checkpoint {
  return {
    offset,
    numOps: 0,
    generation,
    minSeqNo: NO_OPS_PERFORMED,
    maxSeqNo: NO_OPS_PERFORMED,
    globalCheckpoint,
    minTranslogGeneration,
    trimmedAboveSeqNo: UNASSIGNED_SEQ_NO,
  };
}

export function checkpointsEqual(a: Checkpoint, b: Checkpoint): boolean {
  return (
    a.offset === b.offset &&
    a.numOps === b.numOps &&
    a.generation === b.generation &&
    a.minSeqNo === b.minSeqNo &&
    a.maxSeqNo === b.maxSeqNo &&
    a.globalCheckpoint === b.globalCheckpoint &&
    a.minTranslogGeneration === b.minTranslogGeneration &&
    a.trimmedAboveSeqNo === b.trimmedAboveSeqNo
  );
}

export function encodeCheckpoint(checkpoint: Checkpoint): Buffer {
  const out = Buffer.allocUnsafe(CHECKPOINT_V1_BYTES);
  out.writeUInt32BE(CHECKPOINT_MAGIC, 0);
  out.writeUInt16BE(CHECKPOINT_FORMAT_V1, 4);
  out.writeUInt16BE(0, 6);
  let at = 8;
  for (const value of [
    checkpoint.offset,
    checkpoint.numOps,
    checkpoint.generation,
    checkpoint.minSeqNo,
    checkpoint.maxSeqNo,
    checkpoint.globalCheckpoint,
    checkpoint.minTranslogGeneration,
    checkpoint.trimmedAboveSeqNo,
  ]) {
    at = writeInt64(out, value, at);
  }
  out.writeUInt32BE(crc32(out.subarray(0, at)), at);
  return out;
}

/** Decodes and validates a checkpoint file's bytes; throws FormatError saying what is wrong and where. */
export function decodeCheckpoint(bytes: Buffer): Checkpoint {
  if (bytes.length < 8) throw new FormatError(`checkpoint is ${bytes.length} bytes long, too short to hold a header`);
  const magic = bytes.readUInt32BE(0);
  if (magic !== CHECKPOINT_MAGIC) throw new FormatError(`bad magic 0x${magic.toString(16)} at offset [0]: not a translog checkpoint`);
  const version = bytes.readUInt16BE(4);
  if (version !== CHECKPOINT_FORMAT_V1) {
    throw new FormatError(`unsupported checkpoint format version [${version}] at offset [4]; this build reads version ${CHECKPOINT_FORMAT_V1}`);
  }
  if (bytes.length !== CHECKPOINT_V1_BYTES) {
    throw new FormatError(`checkpoint is ${bytes.length} bytes long, version ${version} checkpoints are ${CHECKPOINT_V1_BYTES}`);
  }
  const checksumAt = CHECKPOINT_V1_BYTES - 4;
  const expected = bytes.readUInt32BE(checksumAt);
  const actual = crc32(bytes.subarray(0, checksumAt));
  if (expected !== actual) {
    throw new FormatError(`checkpoint checksum mismatch at offset [${checksumAt}] (stored 0x${expected.toString(16)}, computed 0x${actual.toString(16)})`);
  }
  const field = (index: number): number => readInt64(bytes, 8 + index * 8);
  const checkpoint: Checkpoint = {
    offset: field(0),
    numOps: field(1),
    generation: field(2),
    minSeqNo: field(3),
    maxSeqNo: field(4),
    globalCheckpoint: field(5),
    minTranslogGeneration: field(6),
    trimmedAboveSeqNo: field(7),
  };
  validateCheckpoint(checkpoint);
  return checkpoint;
}

function validateCheckpoint(c: Checkpoint): void {
  const problems: string[] = [];
  if (c.offset < 0) problems.push(`negative offset ${c.offset}`);
  if (c.numOps < 0) problems.push(`negative numOps ${c.numOps}`);
  if (c.generation < 1) problems.push(`generation ${c.generation} below 1`);
  if (c.minSeqNo > c.maxSeqNo) problems.push(`minSeqNo ${c.minSeqNo} above maxSeqNo ${c.maxSeqNo}`);
  if (c.minTranslogGeneration > c.generation) problems.push(`minTranslogGeneration ${c.minTranslogGeneration} above generation ${c.generation}`);
  if ((c.numOps === 0) !== (c.maxSeqNo === NO_OPS_PERFORMED)) problems.push(`numOps ${c.numOps} disagrees with maxSeqNo ${c.maxSeqNo}`);
  if (problems.length > 0) throw new FormatError(`checkpoint is inconsistent: ${problems.join(', ')}`);
}
