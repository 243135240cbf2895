/**
 * CRC-32 (IEEE 802.3, the zlib/gzip polynomial), the checksum every codec file ends with.
 * node:zlib has a native crc32 from Node 20.15; older 20.x get the table-driven version below, which
 * computes the same value (a test checks that they agree).
 */
import * as zlib from 'node:zlib';

type Crc32Function = (data: Uint8Array, initial?: number) => number;

const nativeCrc32 = (zlib as unknown as { crc32?: Crc32Function }).crc32;

const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** Table-driven CRC-32; `initial` continues a previous checksum, like zlib's. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  let crc = ~initial;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

export const crc32: Crc32Function =
  typeof nativeCrc32 === 'function' ? (data, initial = 0) => nativeCrc32(data, initial) >>> 0 : crc32Portable;

export const hasNativeCrc32 = typeof nativeCrc32 === 'function';
