/** Worker threads step back for the event loop (decision 0019): a worker's own thread is niced, never the main thread. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { workerNice } from '../../../src/common/thread-priority.js';

test('lowerThisThreadsPriority nices the calling worker thread only (Linux), and refuses on the main thread', { skip: process.platform !== 'linux' ? 'thread priorities are set through /proc/thread-self on Linux only' : false }, async () => {
  const { lowerThisThreadsPriority } = await import('../../../src/common/thread-priority.js');
  const mainBefore = getPriority(0);
  assert.equal(lowerThisThreadsPriority(), false, 'the main thread is never lowered');
  const moduleUrl = new URL('../../../src/common/thread-priority.js', import.meta.url).href;
  // An ES module worker from a data: URL (it imports the module under test by its file URL).
  const code = `import { lowerThisThreadsPriority } from ${JSON.stringify(moduleUrl)};
     import { readlinkSync } from 'node:fs';
     import { getPriority } from 'node:os';
     import { parentPort } from 'node:worker_threads';
     const lowered = lowerThisThreadsPriority();
     const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
     parentPort.postMessage({ lowered, nice: getPriority(threadId) });`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
  const reply = await new Promise<{ lowered: boolean; nice: number }>((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  assert.equal(reply.lowered, true);
  // Ten below the main thread (at most 19): under `nice -n 10` the worker goes to 19, not to the main thread's 10.
  assert.equal(reply.nice, Math.min(19, mainBefore + 10));
  assert.equal(workerNice(), Math.min(19, mainBefore + 10));
  assert.equal(getPriority(0), mainBefore, 'the process (main thread) keeps its priority');
});
