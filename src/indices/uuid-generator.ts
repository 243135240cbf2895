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

export function timeBasedUuid(now: number = Date.now()): string {
  sequenceNumber = (sequenceNumber + 1) & 0xffffff;
  const sequenceId = sequenceNumber;
  let timestamp = Math.max(lastTimestamp, now);
  if (sequenceId === 0) timestamp++;
  lastTimestamp = timestamp;

  const bytes = SCRATCH;
  // JavaScript bit operators are 32-bit, so the high timestamp bytes come from division.
  const byteOf = (value: number, shift: number): number => Math.floor(value / 2 ** shift) & 0xff;
  let i = 0;
  bytes[i++] = sequenceId & 0xff;
  bytes[i++] = (sequenceId >>> 16) & 0xff;
  bytes[i++] = byteOf(timestamp, 16);
  bytes[i++] = byteOf(timestamp, 24);
  bytes[i++] = byteOf(timestamp, 32);
  bytes[i++] = byteOf(timestamp, 40);
  MUNGED_ADDRESS.copy(bytes, i);
  i += 6;
  bytes[i++] = byteOf(timestamp, 8);
  bytes[i++] = (sequenceId >>> 8) & 0xff;
  bytes[i++] = timestamp & 0xff;
  return bytes.toString('base64url');
}
