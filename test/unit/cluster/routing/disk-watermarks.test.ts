/** ES's disk watermarks: parsing (ratio, percentage or free bytes), free-space thresholds, and the joint validation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../../src/common/errors.js';
import { freeBytesThreshold, parseWatermark, validateWatermarkUpdate, validateWatermarks } from '../../../../src/cluster/routing/disk-watermarks.js';

const MB = 1024 * 1024;

test('a watermark is a share of the disk used or the bytes that must stay free', () => {
  assert.deepEqual(parseWatermark('85%', 'k'), { raw: '85%', usedRatio: 0.85 });
  assert.deepEqual(parseWatermark('0.9', 'k'), { raw: '0.9', usedRatio: 0.9 });
  assert.deepEqual(parseWatermark('500mb', 'k'), { raw: '500mb', freeBytes: 500 * MB });
  // Neither a ratio nor a size: ByteSizeValue's error, as RelativeByteSizeValue falls back to it.
  assert.throws(() => parseWatermark('150%', 'cluster.routing.allocation.disk.watermark.low'), (err: EsError) => {
    assert.equal(err.reason, 'failed to parse setting [cluster.routing.allocation.disk.watermark.low] with value [150%] as a size in bytes: unit is missing or unrecognized');
    return true;
  });
  assert.throws(() => parseWatermark('lots', 'k'), /as a size in bytes/);
});

test('the free-space threshold of each kind', () => {
  assert.equal(freeBytesThreshold(parseWatermark('95%', 'k'), 100 * MB), 5 * MB);
  assert.equal(freeBytesThreshold(parseWatermark('1gb', 'k'), 100 * MB), 1024 * MB);
});

test('the three are validated together with ES messages', () => {
  validateWatermarks('85%', '90%', '95%');
  validateWatermarks('500mb', '400mb', '300mb');
  assert.throws(() => validateWatermarks('91%', '90%', '95%'), { message: 'low disk watermark [91%] more than high disk watermark [90%]' });
  assert.throws(() => validateWatermarks('85%', '96%', '95%'), { message: 'high disk watermark [96%] more than flood stage disk watermark [95%]' });
  assert.throws(() => validateWatermarks('300mb', '400mb', '200mb'), { message: 'low disk watermark [300mb] less than high disk watermark [400mb]' });
  assert.throws(() => validateWatermarks('85%', '90%', '1gb'), {
    message:
      'unable to consistently parse [cluster.routing.allocation.disk.watermark.low=85%], [cluster.routing.allocation.disk.watermark.high=90%], and [cluster.routing.allocation.disk.watermark.flood_stage=1gb] as percentage or bytes',
  });
});

test('an update names the watermark it changed, from and to, with the reason as its cause', () => {
  const before = (): string | undefined => undefined;
  const after = (key: string) => (key.endsWith('.low') ? '92%' : undefined);
  assert.throws(() => validateWatermarkUpdate(before, after), (err: EsError) => {
    assert.equal(err.reason, "illegal value can't update [cluster.routing.allocation.disk.watermark.low] from [85%] to [92%]");
    assert.equal(err.causedBy?.reason, 'low disk watermark [92%] more than high disk watermark [90%]');
    return true;
  });
  // Nothing about the watermarks changed: nothing to check.
  validateWatermarkUpdate(before, before);
});
