/** The translog's public surface: what the engine and peer recovery may use. */
export { Translog, type TranslogDurability, type TranslogOpenOptions, type TranslogStats } from './translog.js';
export { TranslogSnapshot } from './translog-snapshot.js';
export {
  NO_OPS_PERFORMED,
  UNASSIGNED_SEQ_NO,
  type DeleteOperation,
  type IndexOperation,
  type NoOpOperation,
  type TranslogLocation,
  type TranslogOperation,
} from './operation.js';
export { TranslogCorruptedError } from './translog-errors.js';
export { nodeTranslogFs, type TranslogFileHandle, type TranslogFs, type OpenMode } from './translog-fs.js';
export { LARGE_SOURCE_BYTES, noteSourceChecksum } from './source-checksums.js';
export { crc32 } from './crc32.js';
