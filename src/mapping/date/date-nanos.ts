/**
 * Nanosecond resolution (`date_nanos`) as Elasticsearch's DateUtils defines it: a date is a long of nanoseconds
 * since the epoch, so it can hold 1970-01-01T00:00:00Z to 2262-04-11T23:47:16.854775807Z and nothing else;
 * anything outside is refused with ES's words, the instant printed as java.time's Instant.toString.
 */
import { civilFromEpochMillis } from './date-fields.js';

/** Long.MAX_VALUE nanoseconds: 2262-04-11T23:47:16.854775807Z. */
export const MAX_EPOCH_NANOS = 9223372036854775807n;
/** DateUtils.MAX_NANOSECOND_IN_MILLIS: the last millisecond a nanosecond date reaches. */
export const MAX_NANOSECOND_IN_MILLIS = 9223372036854;

/** An instant outside the nanosecond range (ES's IllegalArgumentException from DateUtils). */
export class DateNanosRangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DateNanosRangeError';
  }
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** java.time's Instant.toString (ISO_INSTANT): seconds always, a fraction in groups of 3 digits when non-zero. */
export function instantString(epochNanos: bigint): string {
  const seconds = floorDiv(epochNanos, 1_000_000_000n);
  const nano = Number(epochNanos - seconds * 1_000_000_000n);
  const c = civilFromEpochMillis(Number(seconds) * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  let year: string;
  if (c.year > 9999) year = `+${c.year}`;
  else if (c.year < 0) year = `-${String(-c.year).padStart(4, '0')}`;
  else year = String(c.year).padStart(4, '0');
  let fraction = '';
  if (nano !== 0) {
    if (nano % 1_000_000 === 0) fraction = '.' + String(nano / 1_000_000).padStart(3, '0');
    else if (nano % 1000 === 0) fraction = '.' + String(nano / 1000).padStart(6, '0');
    else fraction = '.' + String(nano).padStart(9, '0');
  }
  return `${year}-${two(c.month)}-${two(c.day)}T${two(c.hour)}:${two(c.minute)}:${two(c.second)}${fraction}Z`;
}

/** DateUtils.toLong: the instant as nanoseconds, or ES's error when a long of nanoseconds cannot hold it. */
export function checkNanosRange(epochNanos: bigint): bigint {
  if (epochNanos < 0n) {
    throw new DateNanosRangeError(`date[${instantString(epochNanos)}] is before the epoch in 1970 and cannot be stored in nanosecond resolution`);
  }
  if (epochNanos > MAX_EPOCH_NANOS) {
    throw new DateNanosRangeError(
      `date[${instantString(epochNanos)}] is after 2262-04-11T23:47:16.854775807 and cannot be stored in nanosecond resolution`,
    );
  }
  return epochNanos;
}

/** DateUtils.toMilliSeconds for stored values (never negative): the millisecond a nanosecond date falls in. */
export function nanosToMillis(epochNanos: bigint): number {
  return Number(epochNanos / 1_000_000n);
}

/** DateUtils.toNanoSeconds: a millisecond date at nanosecond resolution, or ES's error outside the range. */
export function millisToNanos(epochMillis: number): bigint {
  if (epochMillis < 0) {
    throw new DateNanosRangeError(`milliSeconds [${epochMillis}] are before the epoch in 1970 and cannot be processed in nanosecond resolution`);
  }
  if (epochMillis > MAX_NANOSECOND_IN_MILLIS) {
    throw new DateNanosRangeError(
      `milliSeconds [${epochMillis}] are after 2262-04-11T23:47:16.854775807 and cannot be processed in nanosecond resolution`,
    );
  }
  return BigInt(epochMillis) * 1_000_000n;
}
