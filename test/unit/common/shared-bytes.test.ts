/** Shared byte arrays (decision 0019): built from chunks in slices, equal to a concat, and crossing to a worker without a copy. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { concatShared, isShared, toShared } from '../../../src/common/shared-bytes.js';

test('concatShared joins chunks of any sizes into shared memory, byte for byte', async () => {
  const chunks = [Buffer.alloc(0), Buffer.from('{"a":'), Buffer.alloc(3 << 20, 0x61), Buffer.from([0xc3, 0xa9]), Buffer.alloc(1, 0x7d)];
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const joined = await concatShared(chunks, total);
  assert.ok(isShared(joined));
  assert.ok(joined.equals(Buffer.concat(chunks)));
});

test('toShared keeps shared bytes as they are and copies others once', async () => {
  const shared = Buffer.from(new SharedArrayBuffer(8));
  assert.equal(await toShared(shared), shared);
  const plain = Buffer.from('not shared yet');
  const copy = await toShared(plain);
  assert.ok(isShared(copy));
  assert.ok(Buffer.from(copy).equals(plain));
});

test('a worker reads shared bytes in place (what the parse and indexing workers rely on)', async () => {
  const bytes = await toShared(Buffer.from('hello'));
  // The worker writes before it answers: answering first let a loaded host terminate it between the answer and
  // the write, and the bytes read back unchanged (a flake, never a copy).
  const worker = new Worker('const { parentPort } = require("node:worker_threads"); parentPort.once("message", (view) => { view[0] = 0x4a; parentPort.postMessage(view.buffer instanceof SharedArrayBuffer); });', { eval: true });
  // Listen for the exit from the start: once its one message is handled the worker has nothing left to do and
  // exits by itself, and an exit listener added after the answer missed that exit on a loaded CI host (the test
  // was cancelled with "Promise resolution is still pending but the event loop has already resolved").
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const sawShared = await new Promise<boolean>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(bytes);
  });
  await worker.terminate();
  await exited;
  assert.equal(sawShared, true);
  assert.equal(Buffer.from(bytes).toString(), 'Jello', 'the same memory, not a copy');
});
