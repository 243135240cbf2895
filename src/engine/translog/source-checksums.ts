/**
 * CRC-32s of large sources, computed before the engine's write step (decision 0019): a document's translog
 * record is written inside that step, which must stay one synchronous piece (seqNo, version map, buffer and log
 * agree), and the checksum of a 95 MB source alone held the event loop for 70-230 ms there. The parse worker
 * that reads the source anyway computes its CRC on its own thread and the caller notes it here; the record's
 * checksum is then the CRC of its few header bytes combined with this one (crc32Combine). A source nobody
 * noted is summed in the write step, as before. Keyed by the byte array itself and weakly, so an entry lives
 * exactly as long as the source; a source is never written into once received, so its sum cannot go stale.
 */
import { crc32 } from './crc32.js';

/** From this size an index operation's source is checksummed ahead and referenced, not copied, by its record. */
export const LARGE_SOURCE_BYTES = 1 << 20;

const known = new WeakMap<Uint8Array, number>();

/** Records that `source` has the CRC-32 `checksum` (computed off the loop). */
export function noteSourceChecksum(source: Uint8Array, checksum: number): void {
  known.set(source, checksum >>> 0);
}

/** The CRC-32 of `source`: noted ahead when it is large, else computed now. */
export function sourceChecksum(source: Uint8Array): number {
  return known.get(source) ?? crc32(source);
}
