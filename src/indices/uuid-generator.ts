/**
 * Auto-generated document ids as ES makes them (TimeBasedUUIDGenerator): 15 bytes — sequence-number and
 * timestamp bytes arranged for the terms dictionary, plus a per-process random 6-byte "munged MAC address" —
 * as URL-safe base64 without padding, i.e. 20 characters. The timestamp never goes backwards while the process
 * runs, and moves forward whenever the 24-bit sequence wraps, so ids stay unique.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** ES XORs the real MAC with secure random bytes; the result is random per process either way. */
const MUNGED_ADDRESS = randomBytes(6);

let sequenceNumber = randomInt(0, 0x1000000);
/** Every byte is written for each id before it is encoded: one buffer serves them all. */
const SCRATCH = Buffer.alloc(15);
let lastTimestamp = 0;
const TWO_POW_32 = 2 ** 32;

export function timeBasedUuid(now: number = Date.now()): string {
  sequenceNumber = (sequenceNumber + 1) & 0xffffff;
  const sequenceId = sequenceNumber;
  let timestamp = Math.max(lastTimestamp, now);
  if (sequenceId === 0) timestamp++;
  lastTimestamp = timestamp;

  const bytes = SCRATCH;
  // JavaScript bit operators are 32-bit: the timestamp (a safe integer) is split into its low and high words.
  const low = timestamp % TWO_POW_32;
  const high = (timestamp - low) / TWO_POW_32;
  bytes[0] = sequenceId & 0xff;
  bytes[1] = (sequenceId >>> 16) & 0xff;
  bytes[2] = (low >>> 16) & 0xff;
  bytes[3] = low >>> 24;
  bytes[4] = high & 0xff;
  bytes[5] = (high >>> 8) & 0xff;
  for (let i = 0; i < 6; i++) bytes[6 + i] = MUNGED_ADDRESS[i]!;
  bytes[12] = (low >>> 8) & 0xff;
  bytes[13] = (sequenceId >>> 8) & 0xff;
  bytes[14] = low & 0xff;
  return base64Url15(bytes);
}

const BASE64_URL = new Uint8Array(64);
for (let i = 0; i < 64; i++) BASE64_URL[i] = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.charCodeAt(i);

/** URL-safe base64 of exactly 15 bytes (20 characters, no padding), without a native call per id. */
function base64Url15(bytes: Uint8Array): string {
  const a = (bytes[0]! << 16) | (bytes[1]! << 8) | bytes[2]!;
  const b = (bytes[3]! << 16) | (bytes[4]! << 8) | bytes[5]!;
  const c = (bytes[6]! << 16) | (bytes[7]! << 8) | bytes[8]!;
  const d = (bytes[9]! << 16) | (bytes[10]! << 8) | bytes[11]!;
  const e = (bytes[12]! << 16) | (bytes[13]! << 8) | bytes[14]!;
  const t = BASE64_URL;
  return String.fromCharCode(
    t[a >>> 18]!, t[(a >>> 12) & 63]!, t[(a >>> 6) & 63]!, t[a & 63]!,
    t[b >>> 18]!, t[(b >>> 12) & 63]!, t[(b >>> 6) & 63]!, t[b & 63]!,
    t[c >>> 18]!, t[(c >>> 12) & 63]!, t[(c >>> 6) & 63]!, t[c & 63]!,
    t[d >>> 18]!, t[(d >>> 12) & 63]!, t[(d >>> 6) & 63]!, t[d & 63]!,
    t[e >>> 18]!, t[(e >>> 12) & 63]!, t[(e >>> 6) & 63]!, t[e & 63]!,
  );
}
