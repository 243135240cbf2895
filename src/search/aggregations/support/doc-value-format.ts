/**
 * Elasticsearch's DocValueFormat: how a bucket key or metric value is printed in `key_as_string`,
 * `value_as_string`, range keys and `*_as_string` fields. It travels with shard results, so it is plain data
 * (FormatSpec) and turned into a printer on demand.
 * - raw: numbers as Java prints them (longs as integers, doubles as Double.toString); aggregations then print
 *   no `*_as_string` at all;
 * - date: the field's (or the aggregation's) date format, printed in the request's time zone;
 * - boolean: 0 -> "false", anything else -> "true";
 * - decimal: a java.text.DecimalFormat pattern (the `format` of a numeric field aggregation);
 * - ip / binary: raw byte terms (carried as hex) printed as an address or in base64.
 */
import { javaDoubleString } from '../../../common/json-float.js';
import { civilFromEpochMillis } from '../../../mapping/date/date-fields.js';
import { dateFormatter } from '../../../mapping/date/date-formatter.js';
import { encodeBase64 } from '../../../mapping/base64-value.js';
import { formatIp, hexToIp } from '../../../mapping/ip-address.js';
import type { ZoneRef } from '../../../mapping/date/zones.js';
import { formatDecimal, parseDecimalPattern } from './decimal-format.js';
import { zoneRules } from './zone-rules.js';

export type FormatSpec =
  | { readonly kind: 'raw' }
  | { readonly kind: 'date'; readonly pattern: string; readonly zone: ZoneRef }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'decimal'; readonly pattern: string }
  | { readonly kind: 'ip' }
  | { readonly kind: 'binary' };

export const RAW_FORMAT: FormatSpec = { kind: 'raw' };
export const BOOLEAN_FORMAT: FormatSpec = { kind: 'boolean' };
export const IP_FORMAT: FormatSpec = { kind: 'ip' };
export const BINARY_FORMAT: FormatSpec = { kind: 'binary' };

/** DocValueFormat.format(BytesRef) of a raw byte term carried as hex; other formats print the key as it is. */
export function formatBytesKey(format: FormatSpec, hex: string): string {
  if (format.kind === 'ip') return formatIp(hexToIp(hex));
  if (format.kind === 'binary') return encodeBase64(Buffer.from(hex, 'hex'));
  return hex;
}

export function isRaw(format: FormatSpec): boolean {
  return format.kind === 'raw';
}

const ISO_NAMES = new Set(['strict_date_optional_time', 'strictDateOptionalTime', 'date_optional_time', 'dateOptionalTime', 'iso8601']);

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function offsetText(offsetMillis: number): string {
  if (offsetMillis === 0) return 'Z';
  const sign = offsetMillis < 0 ? '-' : '+';
  const total = Math.abs(offsetMillis) / 1000;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${sign}${two(hours)}:${two(minutes)}${seconds === 0 ? '' : ':' + two(seconds)}`;
}

/** strict_date_optional_time's printer (yyyy-MM-dd'T'HH:mm:ss.SSS plus offset or Z) in a zone. */
function isoPrintInZone(epochMillis: number, zone: ZoneRef, fractionDigits: number): string {
  const offset = zoneRules(zone).offsetAt(epochMillis);
  const c = civilFromEpochMillis(epochMillis + offset);
  const absYear = Math.abs(c.year);
  let year = String(absYear).padStart(4, '0');
  if (c.year < 0) year = '-' + year;
  else if (absYear > 9999) year = '+' + year;
  const fraction = String(c.millis).padStart(3, '0').padEnd(fractionDigits, '0');
  return `${year}-${two(c.month)}-${two(c.day)}T${two(c.hour)}:${two(c.minute)}:${two(c.second)}.${fraction}${offsetText(offset)}`;
}

/** Prints epoch millis with a date format in a zone. */
export function formatDate(pattern: string, zone: ZoneRef, epochMillis: number): string {
  const first = pattern.split('||')[0]!;
  // The _nanos printer shows 3 to 9 fraction digits: a millisecond value shows 3.
  if (ISO_NAMES.has(first) || first === 'strict_date_optional_time_nanos') return isoPrintInZone(epochMillis, zone, 3);
  const formatter = dateFormatter(pattern);
  if (first === 'epoch_millis' || first === 'epoch_second') return formatter.format(epochMillis);
  // Other patterns print the local date-time; offset letters in them would print UTC (see the decisions log).
  const offset = zone.kind === 'offset' && zone.seconds === 0 ? 0 : zoneRules(zone).offsetAt(epochMillis);
  return formatter.format(epochMillis + offset);
}

/** DocValueFormat.format(long). */
export function formatLong(format: FormatSpec, value: number): string {
  switch (format.kind) {
    case 'raw':
      return String(value);
    case 'boolean':
      return value === 0 ? 'false' : 'true';
    case 'date':
      return formatDate(format.pattern, format.zone, value);
    case 'decimal':
      return formatDecimal(parseDecimalPattern(format.pattern), value);
    case 'ip':
    case 'binary':
      // DocValueFormat.IP/BINARY have no numeric form; ES throws UnsupportedOperationException here.
      return String(value);
  }
}

/** DocValueFormat.format(double). Dates print the truncated millisecond. */
export function formatDouble(format: FormatSpec, value: number): string {
  switch (format.kind) {
    case 'raw':
      return javaDoubleString(value);
    case 'boolean':
      return value === 0 ? 'false' : 'true';
    case 'date':
      return formatDate(format.pattern, format.zone, Math.trunc(value));
    case 'decimal':
      return formatDecimal(parseDecimalPattern(format.pattern), value);
    case 'ip':
    case 'binary':
      return javaDoubleString(value);
  }
}
