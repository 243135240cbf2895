/**
 * ES's JvmGcMonitorService overhead check on V8's collections: the share of an interval spent collecting decides
 * the level (50/25/10 percent by default), with ES's wording.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { GcOverheadMonitor, gcOverheadLevel } from '../../../src/monitor/index.js';

const defaults = { warn: 50, info: 25, debug: 10 };

test('the level follows the share of the interval spent in GC', () => {
  assert.equal(gcOverheadLevel({ elapsedMillis: 1000, gcMillis: 600 }, defaults), 'warn');
  assert.equal(gcOverheadLevel({ elapsedMillis: 1000, gcMillis: 500 }, defaults), 'warn');
  assert.equal(gcOverheadLevel({ elapsedMillis: 1000, gcMillis: 300 }, defaults), 'info');
  assert.equal(gcOverheadLevel({ elapsedMillis: 1000, gcMillis: 100 }, defaults), 'debug');
  assert.equal(gcOverheadLevel({ elapsedMillis: 1000, gcMillis: 99 }, defaults), undefined);
  assert.equal(gcOverheadLevel({ elapsedMillis: 0, gcMillis: 0 }, defaults), undefined);
});

test('the monitor logs "[gc][n] overhead, spent [..] collecting in the last [..]"', async () => {
  const lines: Array<Record<string, any>> = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')));
        done();
      },
    }),
  );
  let gcMillis = 0;
  const monitor = new GcOverheadMonitor(() => ({ young: { collectionCount: 1, collectionTimeMillis: gcMillis }, old: { collectionCount: 0, collectionTimeMillis: 0 } }), logger, 50, defaults);
  monitor.start();
  // Pretend every interval is spent collecting (more GC time than wall time passes).
  const timer = setInterval(() => (gcMillis += 1000), 10);
  await new Promise((resolve) => setTimeout(resolve, 200));
  clearInterval(timer);
  monitor.stop();
  const overhead = lines.filter((line) => line.event === 'gc_overhead');
  assert.ok(overhead.length > 0);
  assert.equal(overhead[0]!.level, 40, 'warn');
  assert.match(overhead[0]!.msg, /^\[gc\]\[\d+\] overhead, spent \[[\d.]+[a-z]+\] collecting in the last \[[\d.]+[a-z]+\]$/);
});
