/** The progress line of a followed task and the rate behind it: pure functions, checked on exact text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BAR_WIDTH,
  etaSeconds,
  formatEta,
  formatPercent,
  formatRate,
  formatThrottle,
  renderBar,
  renderProgressLine,
} from '../../../src/cli/progress-line.js';
import { RateEstimator } from '../../../src/cli/rate-estimator.js';
import { countsOf, processedCount } from '../../../src/cli/bulk-by-scroll.js';

test('a known total: bar, done/total, percent, rate, ETA, batches, conflicts, throttle', () => {
  const line = renderProgressLine({
    processed: 45_000,
    total: 180_000,
    docsPerSecond: 5_000,
    batches: 45,
    versionConflicts: 2,
    requestsPerSecond: -1,
  });
  assert.equal(line, '[######..................]  45,000/180,000  25.0%  5,000 docs/s  ETA 27s  batches 45  conflicts 2  unthrottled');
});

test('the bar fills in proportion and never overflows', () => {
  assert.equal(renderBar(0, 100), `[${'.'.repeat(BAR_WIDTH)}]`);
  assert.equal(renderBar(50, 100), `[${'#'.repeat(BAR_WIDTH / 2)}${'.'.repeat(BAR_WIDTH / 2)}]`);
  assert.equal(renderBar(100, 100), `[${'#'.repeat(BAR_WIDTH)}]`);
  assert.equal(renderBar(250, 100), `[${'#'.repeat(BAR_WIDTH)}]`, 'more processed than total (noops counted twice by a node) stays full');
  assert.equal(renderBar(10, 100, 10), '[#.........]');
});

test('an unknown total (0 until the first batch, or absent) shows ? and no percent or ETA', () => {
  const line = renderProgressLine({ processed: 0, total: 0, docsPerSecond: undefined });
  assert.equal(line, `[${'.'.repeat(BAR_WIDTH)}]  0/?  --.-%  -- docs/s  ETA --  unthrottled`);
  assert.equal(formatPercent(10, undefined), '--.-%');
  assert.equal(etaSeconds(10, undefined, 100), undefined);
  assert.equal(renderBar(10, undefined), `[${'.'.repeat(BAR_WIDTH)}]`);
});

test('a zero rate gives no ETA; a finished count gives ETA 0s', () => {
  assert.equal(etaSeconds(10, 100, 0), undefined);
  assert.equal(formatRate(0), '0 docs/s');
  assert.match(renderProgressLine({ processed: 10, total: 100, docsPerSecond: 0 }), /0 docs\/s {2}ETA --/);
  assert.equal(etaSeconds(100, 100, 0), 0);
  assert.equal(etaSeconds(100, 100, undefined), 0);
});

test('rates: one decimal below 10 docs/s, thousands separators above; nonsense is --', () => {
  assert.equal(formatRate(2.345), '2.3 docs/s');
  assert.equal(formatRate(12.6), '13 docs/s');
  assert.equal(formatRate(1_234_567), '1,234,567 docs/s');
  assert.equal(formatRate(undefined), '-- docs/s');
  assert.equal(formatRate(Number.NaN), '-- docs/s');
  assert.equal(formatRate(Number.POSITIVE_INFINITY), '-- docs/s');
});

test('ETA reads as s, m+s, h+m and rounds up', () => {
  assert.equal(formatEta(0), '0s');
  assert.equal(formatEta(0.2), '1s');
  assert.equal(formatEta(59), '59s');
  assert.equal(formatEta(65), '1m05s');
  assert.equal(formatEta(3599), '59m59s');
  assert.equal(formatEta(7380), '2h03m');
  assert.equal(formatEta(undefined), '--');
  assert.equal(formatEta(Number.POSITIVE_INFINITY), '--');
  assert.equal(etaSeconds(0, 1000, 100), 10);
});

test('throttle: unthrottled for -1, else the rate, time slept and the current sleep', () => {
  assert.equal(formatThrottle(-1, 0, 0), 'unthrottled');
  assert.equal(formatThrottle(undefined, undefined, undefined), 'unthrottled');
  assert.equal(formatThrottle(500, 0, 0), 'throttle 500/s');
  assert.equal(formatThrottle(0.5, 12_300, 1_200), 'throttle 0.5/s slept 12.3s (next batch in 1.2s)');
  assert.match(renderProgressLine({ processed: 1, total: 10, docsPerSecond: 1, requestsPerSecond: 2, cancelling: true }), /throttle 2\/s {2}cancelling$/);
});

test('a terminal width cuts the line short of the last column, so \\r redraws never wrap', () => {
  const snapshot = { processed: 45_000, total: 180_000, docsPerSecond: 5_000, batches: 45, versionConflicts: 0 };
  const full = renderProgressLine(snapshot);
  assert.equal(renderProgressLine(snapshot, 40).length, 39);
  assert.equal(renderProgressLine(snapshot, 40), full.slice(0, 39));
  assert.equal(renderProgressLine(snapshot, 500), full);
});

test('processed counts written and skipped documents, from the ES status fields', () => {
  const counts = countsOf({
    total: 100,
    updated: 3,
    created: 40,
    deleted: 0,
    batches: 5,
    version_conflicts: 2,
    noops: 1,
    retries: { bulk: 1, search: 0 },
    throttled_millis: 10,
    requests_per_second: -1,
    throttled_until_millis: 0,
    canceled: 'by user request',
    slices: [null, { total: 50 }],
  });
  assert.equal(processedCount(counts), 46);
  assert.equal(counts.canceled, 'by user request');
  assert.equal(counts.slices, 2);
  assert.equal(counts.bulkRetries, 1);
  // update_by_query omits created, delete_by_query also updated: absent counters are not zeros made up.
  const byQuery = countsOf({ total: 10, deleted: 4, batches: 1, version_conflicts: 0, noops: 0 });
  assert.equal(byQuery.created, undefined);
  assert.equal(processedCount(byQuery), 4);
});

test('rate: the average since the start with one sample, then over the recent window', () => {
  const rate = new RateEstimator(10);
  assert.equal(rate.docsPerSecond(), undefined);
  rate.add(0, 0);
  assert.equal(rate.docsPerSecond(), undefined, 'no time has passed');
  const fresh = new RateEstimator(10);
  fresh.add(4, 400);
  assert.equal(fresh.docsPerSecond(), 100, 'first sample of a task already running: average since its start');
  rate.add(1, 100);
  assert.equal(rate.docsPerSecond(), 100);
  for (let second = 2; second <= 20; second++) rate.add(second, 100 + (second - 1) * 10);
  // Slowed to 10 docs/s after the first second; the window has forgotten the fast start.
  assert.equal(rate.docsPerSecond(), 10);
  rate.add(21, 290);
  assert.equal(rate.docsPerSecond(), 9, 'a stall pulls the rate down within the window');
  rate.add(22, 290);
  rate.add(22, 290);
  assert.ok(rate.docsPerSecond()! >= 0);
  rate.add(1, 5);
  assert.equal(rate.docsPerSecond(), 5, 'time going backwards starts over');
});
