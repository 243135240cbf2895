/**
 * Event-loop stalls logged at warn past `thread_pool.estimated_time_interval.warn_threshold` (ES's timer-thread
 * check), with the stall's length and its GC share: the line a node that lost its etcd lease left behind. And a real
 * blocked loop is seen as one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { EventLoopStallMonitor } from '../../../src/monitor/index.js';

function capturingLogger(lines: Array<Record<string, any>>) {
  return pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    }),
  );
}

test('a wake-up later than the threshold is logged at warn with the stall and its GC share; a timely one is not', () => {
  const lines: Array<Record<string, any>> = [];
  let now = 0;
  let gcMillis = 0;
  const monitor = new EventLoopStallMonitor(capturingLogger(lines), 1000, () => gcMillis, () => now);
  monitor.start();
  monitor.stop();
  now += 200 + 900;
  monitor.check();
  now += 200 + 2500;
  gcMillis += 300;
  monitor.check();
  const stalls = lines.filter((line) => line.event === 'event_loop_stall');
  assert.equal(stalls.length, 1, JSON.stringify(lines));
  assert.equal(stalls[0]!.level, 40);
  assert.equal(stalls[0]!.stalled_millis, 2500);
  assert.equal(stalls[0]!.gc_millis, 300);
  assert.match(stalls[0]!.msg, /^the event loop was blocked for \[2\.5s\/2500ms\], above the warn threshold of \[1000ms\] \(garbage collection \[300ms\] of it\)/);
});

test('a loop held by synchronous work is reported by the running monitor; a threshold of 0 turns it off', async () => {
  const lines: Array<Record<string, any>> = [];
  const monitor = new EventLoopStallMonitor(capturingLogger(lines), 300, () => 0);
  const off = new EventLoopStallMonitor(capturingLogger(lines), 0, () => 0);
  monitor.start();
  off.start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const until = performance.now() + 800;
    while (performance.now() < until) {
      // holding the loop
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    monitor.stop();
    off.stop();
  }
  const stalls = lines.filter((line) => line.event === 'event_loop_stall');
  assert.equal(stalls.length >= 1, true, JSON.stringify(lines));
  assert.ok(stalls.some((line) => line.stalled_millis >= 500), JSON.stringify(stalls));
});
