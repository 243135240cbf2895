/**
 * The header at the start of every generation file `translog-<generation>.tlog`, format version 1:
 *
 *   u32 magic "GTLG" | u16 formatVersion | u16 uuidLength | translogUUID (UTF-8) | i64 primaryTerm |
 *   i64 generation | u32 crc32(all preceding header bytes)
 *
 * The format version also names the layout of every operation record that follows (operation-codec.ts),
 * so a future version adds a branch here and in the decoder and still reads version-1 files. The UUID ties
 * the file to one translog (a file copied in from another shard is refused); the generation guards
 * against a renamed file; the primary term bounds the terms of the operations inside it.
 */
import { FormatError, readInt64, writeInt64 } from './binary.js';
import { crc32 } from './crc32.js';
import { OPERATION_FORMAT_V1 } from './operation-codec.js';

export const TRANSLOG_MAGIC = 0x47544c47; // "GTLG"
export const TRANSLOG_FORMAT_V1 = OPERATION_FORMAT_V1;
export const CURRENT_TRANSLOG_FORMAT = TRANSLOG_FORMAT_V1;
const FIXED_BYTES = 4 + 2 + 2 + 8 + 8 + 4;
const MAX_UUID_BYTES = 256;

export interface TranslogHeader {
  readonly formatVersion: number;
  readonly translogUUID: string;
  readonly primaryTerm: number;
  readonly generation: number;
}

export function headerLength(translogUUID: string): number {
  return FIXED_BYTES + Buffer.byteLength(translogUUID, 'utf8');
}

export function encodeHeader(header: Omit<TranslogHeader, 'formatVersion'>): Buffer {
  const uuidBytes = Buffer.from(header.translogUUID, 'utf8');
  if (uuidBytes.length > MAX_UUID_BYTES) throw new RangeError(`translog uuid is longer than ${MAX_UUID_BYTES} bytes`);
  const out = Buffer.allocUnsafe(FIXED_BYTES + uuidBytes.length);
  out.writeUInt32BE(TRANSLOG_MAGIC, 0);
  out.writeUInt16BE(CURRENT_TRANSLOG_FORMAT, 4);
  out.writeUInt16BE(uuidBytes.length, 6);
  uuidBytes.copy(out, 8);
  let at = writeInt64(out, header.primaryTerm, 8 + uuidBytes.length);
  at = writeInt64(out, header.generation, at);
  out.writeUInt32BE(crc32(out.subarray(0, at)), at);
  return out;
}

/** Bytes to read from a file's start to be sure to hold any header this code writes. */
export const MAX_HEADER_BYTES = FIXED_BYTES + MAX_UUID_BYTES;

/**
 * Decodes the header at the start of `bytes` (which may hold more than the header). Throws FormatError
 * with the byte offset of the first bad field; a file shorter than its header is reported as such.
 */
export function decodeHeader(bytes: Buffer): { header: TranslogHeader; length: number } {
  if (bytes.length < 8) throw new FormatError(`file is ${bytes.length} bytes long, shorter than a translog header`);
  const magic = bytes.readUInt32BE(0);
  if (magic !== TRANSLOG_MAGIC) throw new FormatError(`bad magic 0x${magic.toString(16)} at offset [0]: not a translog generation file`);
  const formatVersion = bytes.readUInt16BE(4);
  if (formatVersion !== TRANSLOG_FORMAT_V1) {
    throw new FormatError(`unsupported translog format version [${formatVersion}] at offset [4]; this build reads version ${TRANSLOG_FORMAT_V1}`);
  }
  const uuidLength = bytes.readUInt16BE(6);
  const length = FIXED_BYTES + uuidLength;
  if (uuidLength > MAX_UUID_BYTES) throw new FormatError(`uuid length ${uuidLength} at offset [6] is implausible`);
  if (bytes.length < length) throw new FormatError(`file is ${bytes.length} bytes long, shorter than its ${length}-byte header`);
  const checksumAt = length - 4;
  const expected = bytes.readUInt32BE(checksumAt);
  const actual = crc32(bytes.subarray(0, checksumAt));
  if (expected !== actual) {
    throw new FormatError(`header checksum mismatch at offset [${checksumAt}] (stored 0x${expected.toString(16)}, computed 0x${actual.toString(16)})`);
  }
  const translogUUID = bytes.toString('utf8', 8, 8 + uuidLength);
  const primaryTerm = readInt64(bytes, 8 + uuidLength);
  const generation = readInt64(bytes, 16 + uuidLength);
  return { header: { formatVersion, translogUUID, primaryTerm, generation }, length };
}
