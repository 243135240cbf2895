import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  byteSizeString,
  bytesInExactUnit,
  format1Decimals,
  formatFixed2,
  formatFixed2Exponent,
  sizeInExactUnit,
  sizeValueString,
  timeInExactUnit,
  timeValueString,
} from '../../../src/common/es-units.js';

const GB = 1024 ** 3;

test('byte sizes print as ES ByteSizeValue.toString: one decimal, truncated, .0 dropped', () => {
  assert.equal(byteSizeString(0), '0b');
  assert.equal(byteSizeString(260), '260b');
  assert.equal(byteSizeString(1023), '1023b');
  assert.equal(byteSizeString(1024), '1kb');
  assert.equal(byteSizeString(1536), '1.5kb');
  // 47.38gb: ES truncates to 47.3gb where rounding would give 47.4gb.
  assert.equal(byteSizeString(Math.floor(47.38 * GB)), '47.3gb');
  // Just under 1024 of a unit stays in that unit, truncated: never "1024kb".
  assert.equal(byteSizeString(1024 * 1024 - 1), '1023.9kb');
  assert.equal(byteSizeString(Math.floor(1012.1 * GB) + 1), '1012.1gb');
  assert.equal(byteSizeString(Math.floor(2.3 * 1024 ** 4) + 1), '2.3tb');
  assert.equal(byteSizeString(-1), '-1b');
});

test('format1Decimals keeps a Java exponent', () => {
  assert.equal(format1Decimals(1.25e7, 'x'), '1.2E7x');
  assert.equal(format1Decimals(1e7, 'x'), '1E7x');
});

test('time values print as ES TimeValue.toString', () => {
  assert.equal(timeValueString(0, 1e6), '0s');
  assert.equal(timeValueString(-1, 1e6), '-1');
  assert.equal(timeValueString(12, 1), '12nanos');
  assert.equal(timeValueString(150_290, 1), '150.2micros');
  assert.equal(timeValueString(1, 1e6), '1ms');
  assert.equal(timeValueString(1499, 1e6), '1.4s');
  assert.equal(timeValueString(1_999, 1e6), '1.9s');
  assert.equal(timeValueString(5 * 60_000, 1e6), '5m');
  assert.equal(timeValueString(3.49 * 3_600_000, 1e6), '3.4h');
  assert.equal(timeValueString(2 * 86_400_000, 1e6), '2d');
  assert.equal(timeValueString(1_050, 1e6), '1s', 'a zero first fraction digit is dropped');
});

test('counts print as ES SizeValue.toString', () => {
  assert.equal(sizeValueString(999), '999');
  assert.equal(sizeValueString(1_000), '1k');
  assert.equal(sizeValueString(1_560_000), '1.5m');
});

test('bytes= prints whole units, truncated, and only for ES unit names (case-sensitive)', () => {
  assert.equal(bytesInExactUnit(5 * GB - 1, 'gb'), '4');
  assert.equal(bytesInExactUnit(5 * GB - 1, 'g'), '4');
  assert.equal(bytesInExactUnit(5 * GB, 'b'), String(5 * GB));
  assert.equal(bytesInExactUnit(1536, 'k'), '1');
  assert.equal(bytesInExactUnit(1536, 'kb'), '1');
  assert.equal(bytesInExactUnit(3 * 1024 ** 4, 'tb'), '3');
  assert.equal(bytesInExactUnit(3 * 1024 ** 5, 'pb'), '3');
  assert.equal(bytesInExactUnit(1024, 'GB'), undefined);
  assert.equal(bytesInExactUnit(1024, 'zz'), undefined);
  assert.equal(bytesInExactUnit(-1, 'kb'), '0');
});

test('time= prints whole units, truncated', () => {
  assert.equal(timeInExactUnit(1_999, 1e6, 's'), '1');
  assert.equal(timeInExactUnit(1_999, 1e6, 'ms'), '1999');
  assert.equal(timeInExactUnit(1_999, 1e6, 'micros'), '1999000');
  assert.equal(timeInExactUnit(1_999, 1e6, 'nanos'), '1999000000');
  assert.equal(timeInExactUnit(119_999, 1e6, 'm'), '1');
  assert.equal(timeInExactUnit(7_199_999, 1e6, 'h'), '1');
  assert.equal(timeInExactUnit(2 * 86_400_000, 1e6, 'd'), '2');
  assert.equal(timeInExactUnit(5, 1e6, 'weeks'), undefined);
});

test('size= prints whole units; an empty unit means singles', () => {
  assert.equal(sizeInExactUnit(1_560_000, ''), '1560000');
  assert.equal(sizeInExactUnit(1_560_000, 'k'), '1560');
  assert.equal(sizeInExactUnit(1_560_000, 'm'), '1');
  assert.equal(sizeInExactUnit(1_560_000, 'x'), undefined);
});

test('%.2f rounds half-up on the shortest decimal form, as Java formats', () => {
  assert.equal(formatFixed2(0), '0.00');
  assert.equal(formatFixed2(1.5), '1.50');
  assert.equal(formatFixed2(6.2), '6.20');
  assert.equal(formatFixed2(1.005), '1.01');
  assert.equal(formatFixed2(0.125), '0.13');
  assert.equal(formatFixed2(46.234), '46.23');
  assert.equal(formatFixed2(99.999), '100.00');
  assert.equal(formatFixed2(100), '100.00');
  assert.equal(formatFixed2(1e-7), '0.00');
  assert.equal(formatFixed2(123456789.125), '123456789.13');
  assert.equal(formatFixed2(-2.345), '-2.35');
  assert.equal(formatFixed2(-0), '-0.00');
  assert.equal(formatFixed2(-0.001), '-0.00');
  assert.equal(formatFixed2(0.995), '1.00');
  assert.equal(formatFixed2(9.999999), '10.00');
});

test('%.2f: the positional short cut agrees with the exponent form everywhere it is taken', () => {
  const values = [0.5, 1, 10, 0.001, 0.005, 0.015, 2.675, 1e12 + 0.125, 9999999999999.99, 1e-6, 0.000995, 123.456, 7.0049999];
  let seed = 12345;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 20_000; i++) {
    const scale = 10 ** Math.floor(random() * 19 - 6);
    const value = random() * scale;
    values.push(value, -value, Math.round(value * 1000) / 1000, Math.round(value * 100) / 100 + 0.005);
  }
  for (const value of values) assert.equal(formatFixed2(value), formatFixed2Exponent(value), String(value));
});
