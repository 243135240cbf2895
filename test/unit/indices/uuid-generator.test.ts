/** Auto-generated ids in ES's TimeBasedUUIDGenerator form: 20 URL-safe base64 characters, unique, with ES's byte layout. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeBasedUuid } from '../../../src/indices/index.js';

test('20 characters of URL-safe base64 (15 bytes), no padding', () => {
  for (let i = 0; i < 1000; i++) {
    const id = timeBasedUuid();
    assert.match(id, /^[A-Za-z0-9_-]{20}$/);
    assert.equal(Buffer.from(id, 'base64url').length, 15);
  }
});

test('unique over many ids generated in the same millisecond', () => {
  const now = Date.now();
  const ids = new Set<string>();
  for (let i = 0; i < 200_000; i++) ids.add(timeBasedUuid(now));
  assert.equal(ids.size, 200_000);
});

test('byte layout: sequence bytes first and last-but-one, timestamp bytes around the 6-byte address', () => {
  // Far enough in the future to be above any timestamp this process used before.
  const timestamp = 0x0234567890ab;
  const first = Buffer.from(timeBasedUuid(timestamp), 'base64url');
  const second = Buffer.from(timeBasedUuid(timestamp), 'base64url');
  // Bytes 2..5 are timestamp >>> 16, 24, 32, 40; 12 is timestamp >>> 8; 14 is the lowest timestamp byte.
  const ts = (shift: number) => Math.floor(timestamp / 2 ** shift) & 0xff;
  for (const bytes of [first, second]) {
    assert.deepEqual([bytes[2], bytes[3], bytes[4], bytes[5], bytes[12], bytes[14]], [ts(16), ts(24), ts(32), ts(40), ts(8), ts(0)]);
  }
  // The same process uses the same address bytes; the sequence moves by one.
  assert.deepEqual(first.subarray(6, 12), second.subarray(6, 12));
  const sequence = (bytes: Buffer) => bytes[0]! | (bytes[13]! << 8) | (bytes[1]! << 16);
  assert.equal((sequence(first) + 1) & 0xffffff, sequence(second));
});

test('the timestamp never goes backwards within the process', () => {
  const later = Buffer.from(timeBasedUuid(Date.now() + 10_000), 'base64url');
  const earlier = Buffer.from(timeBasedUuid(Date.now() - 10_000), 'base64url');
  assert.deepEqual(earlier.subarray(2, 6), later.subarray(2, 6));
});

test('the id is exactly Node’s URL-safe base64 of its 15 bytes', () => {
  for (let i = 0; i < 20_000; i++) {
    const id = timeBasedUuid(Date.now() + i * 977);
    assert.equal(Buffer.from(id, 'base64url').toString('base64url'), id);
  }
});
