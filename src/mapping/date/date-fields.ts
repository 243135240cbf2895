/**
 * Calendar arithmetic and the resolution step of java.time as Elasticsearch's DateFormatters.from applies it:
 * parsed fields (some missing) become an instant, missing date fields default to 1970-01-01 / the first of the
 * month, and impossible dates fail with java.time's messages.
 */
import { DateTimeError } from './date-errors.js';
import { zoneOffsetMillis, type ZoneRef } from './zones.js';

/** The fields a date parser found; undefined means absent from the input. */
export interface ParsedDateFields {
  year?: number;
  month?: number;
  day?: number;
  dayOfYear?: number;
  hour?: number;
  minute?: number;
  second?: number;
  nano?: number;
  zone?: ZoneRef;
  /** Set by the epoch formats: the instant is already known. */
  epochMillis?: number;
  /** With epochMillis: the nanoseconds past that millisecond (0-999,999), from a fraction of epoch_millis. */
  epochNanoOfMilli?: number;
}

const MONTH_NAMES = [
  'JANUARY', 'FEBRUARY', 'MARCH', 'APRIL', 'MAY', 'JUNE', 'JULY', 'AUGUST', 'SEPTEMBER', 'OCTOBER', 'NOVEMBER', 'DECEMBER',
];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm; year 0 exists, as in java.time). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  dayOfWeek: number; // 1 = Monday ... 7 = Sunday, as java.time
  dayOfYear: number;
}

export function civilFromEpochMillis(epochMillis: number): CivilDateTime {
  const days = Math.floor(epochMillis / 86_400_000);
  let rest = epochMillis - days * 86_400_000;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const millis = rest - second * 1000;
  const dayOfWeek = ((((days + 3) % 7) + 7) % 7) + 1; // 1970-01-01 was a Thursday
  const dayOfYear = days - daysFromCivil(year, 1, 1) + 1;
  return { year, month, day, hour, minute, second, millis, dayOfWeek, dayOfYear };
}

function checkRange(name: string, value: number, min: number, max: string | number): void {
  const upper = typeof max === 'number' ? max : Number(max.split('/').pop());
  if (value < min || value > upper) throw new DateTimeError(`Invalid value for ${name} (valid values ${min} - ${max}): ${value}`);
}

/** LocalDate.of's validation, with java.time's messages. */
export function validateDate(year: number, month: number, day: number): void {
  checkRange('Year', year, -999999999, 999999999);
  checkRange('MonthOfYear', month, 1, 12);
  checkRange('DayOfMonth', day, 1, '28/31');
  if (day > 28 && day > daysInMonth(year, month)) {
    if (month === 2 && day === 29) throw new DateTimeError(`Invalid date 'February 29' as '${year}' is not a leap year`);
    throw new DateTimeError(`Invalid date '${MONTH_NAMES[month - 1]} ${day}'`);
  }
}

/**
 * DateFormatters.from followed by toInstant: fields to epoch milliseconds (nanos truncated toward the past, as
 * Instant.toEpochMilli does). Throws DateTimeError for impossible dates.
 */
export function resolveEpochMillis(fields: ParsedDateFields): number {
  if (fields.epochMillis !== undefined) return fields.epochMillis;
  const year = fields.year ?? 1970;
  let month = fields.month ?? 1;
  let day = fields.day ?? 1;
  if (fields.dayOfYear !== undefined) {
    checkRange('DayOfYear', fields.dayOfYear, 1, '365/366');
    if (fields.dayOfYear === 366 && !isLeapYear(year)) {
      throw new DateTimeError(`Invalid date 'DayOfYear 366' as '${year}' is not a leap year`);
    }
    const civil = civilFromEpochMillis((daysFromCivil(year, 1, 1) + fields.dayOfYear - 1) * 86_400_000);
    month = civil.month;
    day = civil.day;
  }
  validateDate(year, month, day);
  const localMillis =
    daysFromCivil(year, month, day) * 86_400_000 +
    (fields.hour ?? 0) * 3_600_000 +
    (fields.minute ?? 0) * 60_000 +
    (fields.second ?? 0) * 1000 +
    Math.floor((fields.nano ?? 0) / 1_000_000);
  if (fields.zone === undefined) return localMillis;
  return localMillis - zoneOffsetMillis(fields.zone, localMillis);
}

/**
 * The same resolution to epoch nanoseconds (exact, as a bigint): what a date_nanos field stores before its
 * range check. The millisecond is resolved as above; the nanoseconds past it come from the fraction.
 */
export function resolveEpochNanos(fields: ParsedDateFields): bigint {
  const millis = resolveEpochMillis(fields);
  const nanoOfMilli = fields.epochMillis !== undefined ? (fields.epochNanoOfMilli ?? 0) : (fields.nano ?? 0) % 1_000_000;
  return BigInt(millis) * 1_000_000n + BigInt(nanoOfMilli);
}
