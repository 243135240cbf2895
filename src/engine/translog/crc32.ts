/**
 * CRC-32 (IEEE 802.3, the polynomial zlib and Java's CRC32 use). Node ships a native one from 20.15/22.2;
 * the table version keeps older Node 20 releases (the engines field allows 20.12) producing identical sums.
 */
import * as zlib from 'node:zlib';

type Crc32Fn = (data: Uint8Array, initial?: number) => number;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The portable implementation; exported so a test can check it agrees with the native one. */
export function crc32Portable(data: Uint8Array, initial = 0): number {
  let crc = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) crc = TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as unknown as { crc32?: Crc32Fn }).crc32;

/** CRC-32 of `data`, continuing from `initial` (the CRC of the bytes before it). */
export const crc32: Crc32Fn = native ? (data, initial = 0) => native(data, initial) >>> 0 : crc32Portable;
