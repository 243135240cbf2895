/**
 * strict_date_optional_time as Elasticsearch 8 parses it (its Iso8601Parser, with java.time as fallback):
 * [-]yyyy[-MM[-dd[T[HH[:mm[:ss[(.|,)fraction(1-9 digits)]]][zone]]]]] where the zone may follow the hour, the
 * minute, the second or the fraction, and is "Z", a ±hh[[:]mm[[:]ss]] offset or a ZoneId (UTC, Europe/Paris).
 * Field values are checked for range here; impossible dates (February 30) are left to resolution.
 */
import type { ParsedDateFields } from './date-fields.js';
import { parseZoneId, parseZoneOffset, UTC_ZONE, type ZoneRef } from './zones.js';

export type IsoParseResult = { fields: ParsedDateFields } | { errorIndex: number };

function digits(text: string, start: number, end: number): number | undefined {
  if (text.length < end) return undefined;
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return undefined;
    value = value * 10 + c;
  }
  return value;
}

function isZoneStart(text: string, pos: number): boolean {
  const c = text[pos]!;
  return c === '+' || c === '-' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

function zoneAt(text: string, pos: number): ZoneRef | undefined {
  const rest = text.slice(pos);
  if (rest === 'Z') return UTC_ZONE;
  if (rest.startsWith('+') || rest.startsWith('-')) {
    // Iso8601Parser: ±hh, ±hh:mm / ±hhmm, ±hh:mm:ss / ±hhmmss with two-digit fields only.
    if (!/^[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?$/.test(rest)) return undefined;
    return parseZoneOffset(rest);
  }
  return parseZoneId(rest);
}

export function parseStrictDateOptionalTime(input: string): IsoParseResult {
  if (input.startsWith('-')) {
    const inner = parseUnsigned(input.slice(1));
    if ('errorIndex' in inner) return { errorIndex: inner.errorIndex + 1 };
    return { fields: { ...inner.fields, year: -(inner.fields.year ?? 0) } };
  }
  return parseUnsigned(input);
}

function parseUnsigned(s: string): IsoParseResult {
  const len = s.length;
  const year = digits(s, 0, 4);
  if (year === undefined) return { errorIndex: 0 };
  if (len === 4) return { fields: { year } };
  if (s[4] !== '-') return { errorIndex: 4 };
  const month = digits(s, 5, 7);
  if (month === undefined || month > 12) return { errorIndex: 5 };
  if (len === 7) return { fields: { year, month } };
  if (s[7] !== '-') return { errorIndex: 7 };
  const day = digits(s, 8, 10);
  if (day === undefined || day > 31) return { errorIndex: 8 };
  if (len === 10) return { fields: { year, month, day } };
  if (s[10] !== 'T') return { errorIndex: 10 };
  if (len === 11) return { fields: { year, month, day } };
  const hour = digits(s, 11, 13);
  if (hour === undefined || hour > 23) return { errorIndex: 11 };
  const base = { year, month, day, hour };
  if (len === 13) return { fields: base };
  if (isZoneStart(s, 13)) {
    const zone = zoneAt(s, 13);
    return zone ? { fields: { ...base, zone } } : { errorIndex: 13 };
  }
  if (s[13] !== ':') return { errorIndex: 13 };
  const minute = digits(s, 14, 16);
  if (minute === undefined || minute > 59) return { errorIndex: 14 };
  const withMinute = { ...base, minute };
  if (len === 16) return { fields: withMinute };
  if (isZoneStart(s, 16)) {
    const zone = zoneAt(s, 16);
    return zone ? { fields: { ...withMinute, zone } } : { errorIndex: 16 };
  }
  if (s[16] !== ':') return { errorIndex: 16 };
  const second = digits(s, 17, 19);
  if (second === undefined || second > 59) return { errorIndex: 17 };
  const withSecond = { ...withMinute, second };
  if (len === 19) return { fields: withSecond };
  if (isZoneStart(s, 19)) {
    const zone = zoneAt(s, 19);
    return zone ? { fields: { ...withSecond, zone } } : { errorIndex: 19 };
  }
  if (s[19] !== '.' && s[19] !== ',') return { errorIndex: 19 };
  let pos = 20;
  let nano = 0;
  while (pos < len && pos < 29) {
    const c = s.charCodeAt(pos) - 48;
    if (c < 0 || c > 9) break;
    nano = nano * 10 + c;
    pos++;
  }
  if (pos === 20) return { errorIndex: 20 };
  nano *= 10 ** (29 - pos);
  const withNano = { ...withSecond, nano };
  if (pos === len) return { fields: withNano };
  if (isZoneStart(s, pos)) {
    const zone = zoneAt(s, pos);
    return zone ? { fields: { ...withNano, zone } } : { errorIndex: pos };
  }
  return { errorIndex: pos };
}

// date_optional_time: the same shape with variable-width fields (java.time's lenient ISO date-time builder).
const LENIENT = /^([+-]?\d{1,9})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:T(?:(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:[.,](\d{1,9}))?)?)?(.*))?)?$/;

export function parseDateOptionalTime(input: string): IsoParseResult {
  const m = LENIENT.exec(input);
  if (!m) return { errorIndex: 0 };
  const fields: ParsedDateFields = { year: Number(m[1]) };
  if (m[2] !== undefined) fields.month = Number(m[2]);
  if (m[3] !== undefined) fields.day = Number(m[3]);
  if (m[4] !== undefined) {
    fields.hour = Number(m[4]);
    if (fields.hour > 23) return { errorIndex: input.indexOf('T') + 1 };
  }
  if (m[5] !== undefined) fields.minute = Number(m[5]);
  if (m[6] !== undefined) fields.second = Number(m[6]);
  if ((fields.minute ?? 0) > 59 || (fields.second ?? 0) > 59) return { errorIndex: 0 };
  if ((fields.month ?? 1) > 12) return { errorIndex: 0 };
  if (m[7] !== undefined) fields.nano = Number(m[7].padEnd(9, '0'));
  const zoneText = m[8] ?? '';
  if (zoneText.length > 0) {
    if (m[4] === undefined) return { errorIndex: input.length - zoneText.length };
    const zone = zoneAt(zoneText, 0);
    if (!zone) return { errorIndex: input.length - zoneText.length };
    fields.zone = zone;
  }
  return { fields };
}
