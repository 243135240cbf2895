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

test('the monitor logs "[gc][n] overhead, spent [..] collecting in the last [..]" at the level the share reaches', () => {
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
  let now = 0;
  let gcMillis = 0;
  const monitor = new GcOverheadMonitor(() => ({ young: { collectionCount: 1, collectionTimeMillis: gcMillis }, old: { collectionCount: 0, collectionTimeMillis: 0 } }), logger, 1000, defaults, () => now);
  monitor.start();
  monitor.stop();
  now += 1000;
  gcMillis += 600;
  monitor.check();
  now += 1000;
  gcMillis += 300;
  monitor.check();
  now += 1000;
  gcMillis += 50;
  monitor.check();
  const overhead = lines.filter((line) => line.event === 'gc_overhead');
  assert.deepEqual(overhead.map((line) => line.level), [40, 30], 'warn, then info, then nothing below 10%');
  assert.equal(overhead[0]!.msg, '[gc][1] overhead, spent [600ms] collecting in the last [1s]');
  assert.equal(overhead[1]!.msg, '[gc][2] overhead, spent [300ms] collecting in the last [1s]');
});
