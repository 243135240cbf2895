/**
 * The file copy of a file-based recovery, on a manual clock (exact, whatever the host's load): it keeps to the
 * rate limit to within a fraction of a percent when the target is slow to answer some chunks (a file's last chunk
 * is fsynced before the answer) and when a commit has many small files; it never leaves more chunks unanswered than
 * `indices.recovery.max_concurrent_file_chunks`; a failure stops it and closes the file it was reading.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sendFileChunks, type ChunkSourceFile, type CopiedFile, type OutgoingChunk } from '../../../../src/indices/recovery/file-chunk-sender.js';
import { RecoveryRateLimiter } from '../../../../src/indices/recovery/rate-limiter.js';
import { ManualClock } from '../../../helpers/manual-clock.js';

const MIB = 1024 * 1024;
const CHUNK = 512 * 1024;

/** Files whose bytes are their own positions (mod 251), opened and closed on record. */
function fakeFiles(): { open: (name: string) => Promise<ChunkSourceFile>; opened: string[]; closed: string[] } {
  const opened: string[] = [];
  const closed: string[] = [];
  return {
    opened,
    closed,
    open: async (name) => {
      opened.push(name);
      return {
        read: async (buffer, position) => {
          for (let i = 0; i < buffer.length; i++) buffer[i] = (position + i) % 251;
          return buffer.length;
        },
        close: async () => {
          closed.push(name);
        },
      };
    },
  };
}

/** A target that answers each chunk after `answerMillis(n, chunk)` (n counts the chunks it received); counts what it holds. */
function slowTarget(clock: ManualClock, answerMillis: (n: number, chunk: OutgoingChunk) => number) {
  const received: OutgoingChunk[] = [];
  let unanswered = 0;
  let mostUnanswered = 0;
  return {
    received,
    get mostUnanswered() {
      return mostUnanswered;
    },
    send: (chunk: OutgoingChunk): Promise<void> => {
      received.push(chunk);
      mostUnanswered = Math.max(mostUnanswered, ++unanswered);
      return new Promise<void>((resolve) =>
        clock.setTimer(answerMillis(received.length, chunk), () => {
          unanswered--;
          resolve();
        }),
      );
    },
  };
}

/** A commit's shape: big segment files with small ones between them (.si, .liv, segments_N). */
const COMMIT: CopiedFile[] = [
  { name: '_0.fdt', length: 40 * MIB + 12_345 },
  ...Array.from({ length: 20 }, (_, i) => ({ name: `_${i}.si`, length: 300 + i })),
  { name: '_1.fdt', length: 25 * MIB + 7 },
  { name: 'empty', length: 0 },
  { name: 'segments_3', length: 700 },
];
const TOTAL = COMMIT.reduce((sum, file) => sum + file.length, 0);

test('a target slow to answer some chunks and a commit of many small files cost the copy no time against the limit', async (t) => {
  const clock = new ManualClock();
  const rate = 40 * MIB;
  const limiter = new RecoveryRateLimiter(() => rate, clock);
  const files = fakeFiles();
  // The target answers a small file in 1 ms, a chunk in 4 ms, every fifth in 35 ms: more than two chunks' 25 ms at
  // 40mb. A copy that asked for a turn only once a slot was free lost 10 ms at each of those, and most of the small
  // files' answers (20 of them, two at a time: 10 ms, when each one's own turn is a few microseconds).
  const target = slowTarget(clock, (n, chunk) => (chunk.data.length < 4096 ? 1 : n % 10 === 0 ? 35 : 4));
  const start = clock.millis;
  const result = await clock.drive(
    sendFileChunks({ files: COMMIT, chunkBytes: CHUNK, maxConcurrentChunks: 2, limiter, openFile: files.open, sendChunk: target.send, nowMillis: () => clock.millis }),
  );
  const elapsed = clock.millis - start;
  t.diagnostic(`${elapsed.toFixed(1)} ms against the limit's ${((TOTAL - CHUNK) / rate) * 1000} ms`);
  assert.equal(result.bytes, TOTAL);
  // The first chunk goes at once; everything after it at the limit, then the last answer.
  const ideal = ((TOTAL - CHUNK) / rate) * 1000;
  assert.ok(elapsed >= ideal, `${elapsed.toFixed(1)} ms, faster than the limit allows (${ideal.toFixed(1)} ms)`);
  assert.ok(elapsed <= ideal * 1.002 + 35, `${elapsed.toFixed(1)} ms against the limit's ${ideal.toFixed(1)} ms: ${((ideal / (elapsed - 35)) * 100).toFixed(2)}% of the rate`);
  // What it waited on the limiter is nearly all of it (the chunks were read and the slots free in the meantime).
  assert.ok(result.throttleMillis >= ideal - 100 && result.throttleMillis <= elapsed, `throttled ${result.throttleMillis} ms of ${elapsed.toFixed(1)}`);
  assert.equal(target.received.reduce((sum, chunk) => sum + chunk.throttleMillis, 0), result.throttleMillis);
  assert.equal(target.mostUnanswered, 2);
  // Every byte in order, in the right place, each file's last chunk marked; each file opened once and closed.
  let at = 0;
  for (const file of COMMIT) {
    let position = 0;
    do {
      const chunk = target.received[at++]!;
      assert.equal(chunk.name, file.name);
      assert.equal(chunk.position, position);
      assert.equal(chunk.data.length, Math.min(CHUNK, file.length - position));
      if (chunk.data.length > 0) assert.equal(chunk.data[0], position % 251);
      position += chunk.data.length;
      assert.equal(chunk.lastChunk, position >= file.length);
    } while (position < file.length);
  }
  assert.equal(at, target.received.length);
  assert.deepEqual(files.opened, COMMIT.map((file) => file.name));
  assert.deepEqual(files.closed, files.opened);
});

test('no limit: the copy goes as fast as the target answers, never more chunks unanswered than the setting allows', async () => {
  for (const maxConcurrentChunks of [1, 3, 8]) {
    const clock = new ManualClock();
    const limiter = new RecoveryRateLimiter(() => 0, clock);
    const target = slowTarget(clock, () => 5);
    const start = clock.millis;
    const result = await clock.drive(
      sendFileChunks({ files: COMMIT, chunkBytes: CHUNK, maxConcurrentChunks, limiter, openFile: fakeFiles().open, sendChunk: target.send, nowMillis: () => clock.millis }),
    );
    assert.equal(result.bytes, TOTAL);
    assert.equal(result.throttleMillis, 0);
    assert.equal(target.mostUnanswered, maxConcurrentChunks);
    // Each round of `maxConcurrentChunks` chunks takes one 5 ms answer.
    assert.equal(clock.millis - start, Math.ceil(target.received.length / maxConcurrentChunks) * 5, `${maxConcurrentChunks} in flight`);
  }
});

test('small chunks ask for a turn only once the bytes since the last one pass the minimum, and that turn pays for them all', async () => {
  const asked: number[] = [];
  const limiter = {
    minPauseCheckBytes: () => 1000,
    pause: async (bytes: number) => {
      asked.push(bytes);
      return 0;
    },
  };
  const files = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, length: 300 }));
  const sent: OutgoingChunk[] = [];
  await sendFileChunks({ files, chunkBytes: CHUNK, maxConcurrentChunks: 2, limiter, openFile: fakeFiles().open, sendChunk: async (chunk) => void sent.push(chunk) });
  // 4 x 300 bytes pass 1,000: two turns of 1,200 bytes; the last 600 bytes never reach a turn (as in ES).
  assert.deepEqual(asked, [1200, 1200]);
  assert.equal(sent.length, 10);
});

test('a chunk the target refuses fails the copy: nothing more is sent and the open file is closed', async () => {
  const files = fakeFiles();
  const sent: OutgoingChunk[] = [];
  const limiter = new RecoveryRateLimiter(() => 0);
  const refused = new Error('recovery [x] is not running on this node');
  await assert.rejects(
    sendFileChunks({
      files: [{ name: '_0.fdt', length: 10 * CHUNK }],
      chunkBytes: CHUNK,
      maxConcurrentChunks: 2,
      limiter,
      openFile: files.open,
      sendChunk: async (chunk) => {
        sent.push(chunk);
        if (chunk.position === 2 * CHUNK) throw refused;
      },
    }),
    (err) => err === refused,
  );
  assert.ok(sent.length <= 5, `${sent.length} chunks sent after the failure`);
  assert.deepEqual(files.closed, ['_0.fdt']);
});

test('a file shorter than the commit says fails the copy with illegal_state_exception', async () => {
  const short = async (): Promise<ChunkSourceFile> => ({ read: async (buffer) => buffer.length - 1, close: async () => undefined });
  await assert.rejects(
    sendFileChunks({ files: [{ name: '_0.fdt', length: 100 }], chunkBytes: CHUNK, maxConcurrentChunks: 2, limiter: new RecoveryRateLimiter(() => 0), openFile: short, sendChunk: async () => undefined }),
    (err: { type?: string; message?: string }) => err.type === 'illegal_state_exception' && /shorter than the commit says/.test(err.message ?? ''),
  );
});
