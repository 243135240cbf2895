/**
 * Elasticsearch TimeValue: parsing ("30s", "1m", "500ms", "-1") and rendering, as ES prints it
 * ("1.4ms", "3.4h", "5m", "2d", "150.2micros").
 */
import { EsError } from './errors.js';
import { timeValueString } from './es-units.js';

const UNIT_NANOS: Record<string, number> = {
  nanos: 1,
  micros: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
};

/** Parses an ES time value to milliseconds. `-1` and `0` are accepted bare, as ES does. */
export function parseTimeValueMillis(value: string, settingName: string): number {
  const nanos = parseTimeValueNanos(value, settingName);
  return nanos < 0 ? -1 : nanos / 1e6;
}

export function parseTimeValueNanos(value: string, settingName: string): number {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === '-1') return -1;
  if (trimmed === '0') return 0;
  const match = /^(\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(trimmed);
  if (!match) {
    throw new EsError(
      'illegal_argument_exception',
      `failed to parse setting [${settingName}] with value [${value}] as a time value: unit is missing or unrecognized`,
    );
  }
  const amount = Number(match[1]);
  if (match[1]!.includes('.') && match[2] !== 'nanos') {
    // ES accepts fractional values ("1.5s") and converts them exactly.
    return Math.round(amount * UNIT_NANOS[match[2]!]!);
  }
  return amount * UNIT_NANOS[match[2]!]!;
}

/** ES's TimeValue.toString() of a duration in nanoseconds: `1.4ms`, `3.4h`, `0s` (truncated, see es-units.ts). */
export function formatTimeValueNanos(nanos: number): string {
  return timeValueString(nanos, 1);
}

export function formatTimeValueMillis(millis: number): string {
  return timeValueString(millis, 1e6);
}
