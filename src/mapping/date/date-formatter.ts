/**
 * Elasticsearch's DateFormatter: a `format` string of one or more named formats or java.time patterns joined
 * by `||`, tried in order. Parsing yields epoch milliseconds or fails as ES does: "failed to parse date field
 * [v] with format [f]" caused by java.time's reason, or java.time's DateTimeException for impossible dates.
 * Printing uses the first format (strict_date_optional_time prints 2015-01-01T12:10:30.000Z). Dates parse and
 * print at millisecond resolution (`date`) or, through parseNanos/formatNanos, at nanosecond resolution
 * (`date_nanos`, epoch nanoseconds as bigints).
 */
import { ownValue } from '../../common/own-keys.js';
import { DateFormatError, DateParseError, DateTimeError } from './date-errors.js';
import { civilFromEpochMillis, resolveEpochMillis, resolveEpochNanos, type ParsedDateFields } from './date-fields.js';
import { parseDateOptionalTime, parseStrictDateOptionalTime } from './date-iso.js';
import { dateLocale, type DateLocale } from './date-locale.js';
import { DatePattern } from './date-pattern.js';

export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
/** A date_nanos field's default format (DateFieldMapper.DEFAULT_DATE_TIME_NANOS_FORMATTER). */
export const DEFAULT_DATE_NANOS_FORMAT = 'strict_date_optional_time_nanos||epoch_millis';

/** One `||` element: parses text into fields (or says where it failed) and prints an instant. */
interface DateParserElement {
  readonly name: string;
  parse(text: string): { fields: ParsedDateFields } | { errorIndex: number; unparsed?: boolean; reason?: string };
  /** Prints the instant `epochMillis` + `nanoOfMilli` nanoseconds (0-999,999; 0 at millisecond resolution). */
  format(epochMillis: number, nanoOfMilli: number): string;
}

const EPOCH_MILLIS = /^(-)?(\d{1,19})(?:\.(\d{1,6}))?$/;
const EPOCH_SECOND = /^(-)?(\d{1,19})(?:\.(\d{1,9}))?$/;

function epochElement(name: string, unitMillis: number, grammar: RegExp): DateParserElement {
  const fractionDigits = unitMillis === 1 ? 6 : 9; // nanos of a millisecond, nanos of a second
  const unitNanos = BigInt(unitMillis) * 1_000_000n;
  return {
    name,
    parse(text) {
      const m = grammar.exec(text);
      if (!m) return { errorIndex: 0 };
      const fraction = BigInt((m[3] ?? '').padEnd(fractionDigits, '0'));
      let nanos = BigInt(m[2]!) * unitNanos + fraction;
      // A negative value with a fraction lies further in the past (-1.5 ms is before -1 ms); millis floor.
      if (m[1] === '-') nanos = -nanos;
      let millis = nanos / 1_000_000n;
      if (nanos < 0n && nanos % 1_000_000n !== 0n) millis -= 1n;
      return { fields: { epochMillis: Number(millis), epochNanoOfMilli: Number(nanos - millis * 1_000_000n) } };
    },
    format(epochMillis, nanoOfMilli) {
      if (nanoOfMilli === 0) return unitMillis === 1 ? String(epochMillis) : String(epochMillis / 1000);
      // ES's EpochTime printers: the fraction of the unit, trailing zeros dropped.
      if (unitMillis === 1) return `${epochMillis}.${trimFraction(nanoOfMilli, 6, 1)}`;
      const nanos = BigInt(epochMillis) * 1_000_000n + BigInt(nanoOfMilli);
      let seconds = nanos / 1_000_000_000n;
      if (nanos < 0n && nanos % 1_000_000_000n !== 0n) seconds -= 1n;
      return `${seconds}.${trimFraction(Number(nanos - seconds * 1_000_000_000n), 9, 1)}`;
    },
  };
}

/** java.time's appendFraction(field, min, max, true) for a value of `digits` digits: trailing zeros dropped down to `min`. */
function trimFraction(value: number, digits: number, min: number): string {
  let text = String(value).padStart(digits, '0');
  while (text.length > min && text.endsWith('0')) text = text.slice(0, -1);
  return text;
}

/**
 * strict_date_optional_time's printer: 3 fraction digits. The _nanos printer takes 3 to 9 (java.time's
 * appendFraction(NANO_OF_SECOND, 3, 9, true)): nanoseconds show, trailing zeros beyond the third digit do not.
 */
function isoPrint(epochMillis: number, nanoOfMilli: number, nanosPrinter: boolean): string {
  const c = civilFromEpochMillis(epochMillis);
  const absYear = Math.abs(c.year);
  let year = String(absYear).padStart(4, '0');
  if (c.year < 0) year = '-' + year;
  else if (absYear > 9999) year = '+' + year;
  const two = (n: number): string => String(n).padStart(2, '0');
  const fraction = nanosPrinter ? trimFraction(c.millis * 1_000_000 + nanoOfMilli, 9, 3) : String(c.millis).padStart(3, '0');
  return `${year}-${two(c.month)}-${two(c.day)}T${two(c.hour)}:${two(c.minute)}:${two(c.second)}.${fraction}Z`;
}

function patternElement(name: string, pattern: string, locale?: DateLocale): DateParserElement {
  const compiled = DatePattern.compile(pattern, locale);
  return { name, parse: (text) => compiled.parse(text), format: (millis, nanoOfMilli) => compiled.format(millis, nanoOfMilli) };
}

/** The named formats Gannet implements: strict_ forms are exact widths, the others accept fewer digits. */
const NAMED_PATTERNS: Record<string, string> = {
  strict_date: 'yyyy-MM-dd',
  date: 'y-M-d',
  strict_year_month_day: 'yyyy-MM-dd',
  year_month_day: 'y-M-d',
  strict_year_month: 'yyyy-MM',
  year_month: 'y-M',
  strict_year: 'yyyy',
  year: 'y',
  strict_date_hour: "yyyy-MM-dd'T'HH",
  date_hour: "y-M-d'T'H",
  strict_date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute: "y-M-d'T'H:m",
  strict_date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second: "y-M-d'T'H:m:s",
  strict_date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "y-M-d'T'H:m:s.SSS",
  strict_date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "y-M-d'T'H:m:s.SSS",
  strict_date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time: "y-M-d'T'H:m:s.SSSXXX",
  strict_date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  date_time_no_millis: "y-M-d'T'H:m:sXXX",
  strict_hour_minute_second: 'HH:mm:ss',
  hour_minute_second: 'H:m:s',
  strict_hour_minute: 'HH:mm',
  hour_minute: 'H:m',
  strict_hour: 'HH',
  hour: 'H',
  strict_hour_minute_second_millis: 'HH:mm:ss.SSS',
  hour_minute_second_millis: 'H:m:s.SSS',
  strict_hour_minute_second_fraction: 'HH:mm:ss.SSS',
  hour_minute_second_fraction: 'H:m:s.SSS',
  strict_time: 'HH:mm:ss.SSSXXX',
  time: 'H:m:s.SSSXXX',
  strict_time_no_millis: 'HH:mm:ssXXX',
  time_no_millis: 'H:m:sXXX',
  strict_ordinal_date: 'yyyy-DDD',
  ordinal_date: 'y-D',
  strict_ordinal_date_time: "yyyy-DDD'T'HH:mm:ss.SSSXXX",
  ordinal_date_time: "y-D'T'H:m:s.SSSXXX",
  strict_ordinal_date_time_no_millis: "yyyy-DDD'T'HH:mm:ssXXX",
  ordinal_date_time_no_millis: "y-D'T'H:m:sXXX",
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssX",
  basic_time: 'HHmmss.SSSX',
  basic_time_no_millis: 'HHmmssX',
  basic_ordinal_date: 'yyyyDDD',
  basic_ordinal_date_time: "yyyyDDD'T'HHmmss.SSSX",
  basic_ordinal_date_time_no_millis: "yyyyDDD'T'HHmmssX",
};

function namedElement(name: string): DateParserElement | undefined {
  switch (name) {
    case 'strict_date_optional_time':
    case 'strictDateOptionalTime':
      return { name, parse: parseStrictDateOptionalTime, format: (m, n) => isoPrint(m, n, false) };
    case 'strict_date_optional_time_nanos':
      return { name, parse: parseStrictDateOptionalTime, format: (m, n) => isoPrint(m, n, true) };
    case 'date_optional_time':
    case 'dateOptionalTime':
    case 'iso8601':
      return { name, parse: parseDateOptionalTime, format: (m, n) => isoPrint(m, n, false) };
    case 'epoch_millis':
      return epochElement(name, 1, EPOCH_MILLIS);
    case 'epoch_second':
      return epochElement(name, 1000, EPOCH_SECOND);
    default: {
      const pattern = ownValue(NAMED_PATTERNS, name);
      return pattern === undefined ? undefined : patternElement(name, pattern);
    }
  }
}

/** What java.time's DateTimeParseException says (text abbreviated past 64 characters). */
function parseExceptionReason(text: string, failure: { errorIndex: number; unparsed?: boolean; reason?: string }): string {
  const shown = text.length > 64 ? text.slice(0, 64) + '...' : text;
  if (failure.reason !== undefined) return `Text '${shown}' could not be parsed: ${failure.reason}`;
  if (failure.unparsed) return `Text '${shown}' could not be parsed, unparsed text found at index ${failure.errorIndex}`;
  return `Text '${shown}' could not be parsed at index ${failure.errorIndex}`;
}

export class DateFormatter {
  private constructor(
    /** The format string exactly as given (what GET _mapping prints and error messages quote). */
    readonly pattern: string,
    private readonly elements: readonly DateParserElement[],
    /** The mapping's `locale` ('' for Locale.ROOT): what pattern text fields (MMM, EEE) read and print. */
    readonly locale: string,
  ) {}

  /**
   * DateFormatter.forPattern(format).withLocale(locale); throws DateFormatError with ES's message for an invalid
   * format. The locale only changes the names of custom patterns (named formats are numeric).
   */
  static forPattern(format: string, localeTag = ''): DateFormatter {
    const locale = dateLocale(localeTag);
    if (format.trim().length === 0) throw new DateFormatError('No date pattern provided');
    const parts = format.split('||');
    const elements: DateParserElement[] = [];
    for (const part of parts) {
      if (part.trim().length === 0) throw new DateFormatError(`Cannot have empty element in multi date format pattern: ${format}`);
      const named = namedElement(part);
      if (named !== undefined) {
        elements.push(named);
        continue;
      }
      try {
        elements.push(patternElement(part, part, locale));
      } catch (err) {
        if (err instanceof DateFormatError) throw new DateFormatError(`Invalid format: [${part}]: ${err.message}`);
        throw err;
      }
    }
    return new DateFormatter(format, elements, localeTag);
  }

  /** Parses to epoch milliseconds; throws DateParseError or DateTimeError. */
  parseMillis(text: string): number {
    if (text.length === 0) throw new DateParseError('cannot parse empty datetime', 'cannot parse empty datetime');
    return resolveEpochMillis(this.parseFields(text));
  }

  /** Parses to epoch nanoseconds, exactly (no range check: see date-nanos.ts); throws as parseMillis. */
  parseNanos(text: string): bigint {
    if (text.length === 0) throw new DateParseError('cannot parse empty datetime', 'cannot parse empty datetime');
    return resolveEpochNanos(this.parseFields(text));
  }

  /**
   * Whether the text has one of the formats' shapes. ES's dynamic date detection only parses, it does not
   * resolve, so "2015-02-30" is detected as a date (and then fails as one).
   */
  detects(text: string): boolean {
    if (text.length === 0) return false;
    return this.elements.some((element) => 'fields' in element.parse(text));
  }

  /** True when the text parses and resolves. */
  matches(text: string): boolean {
    try {
      this.parseMillis(text);
      return true;
    } catch (err) {
      if (err instanceof DateParseError || err instanceof DateTimeError) return false;
      throw err;
    }
  }

  private parseFields(text: string): ParsedDateFields {
    const failMessage = `failed to parse date field [${text}] with format [${this.pattern}]`;
    // ES's built-in strict_date_optional_time(_nanos) is itself two parsers, so it reports like a multi-format.
    const first = this.elements[0]!.name;
    const multiple = this.elements.length > 1 || first === 'strict_date_optional_time' || first === 'strict_date_optional_time_nanos';
    if (!multiple) {
      const result = this.elements[0]!.parse(text);
      if ('fields' in result) return result.fields;
      throw new DateParseError(failMessage, parseExceptionReason(text, result));
    }
    for (const element of this.elements) {
      const result = element.parse(text);
      if ('fields' in result) return result.fields;
    }
    throw new DateParseError(failMessage, 'Failed to parse with all enclosed parsers');
  }

  /** Prints epoch milliseconds with the first format, as ES's DateFormatter.format does. */
  format(epochMillis: number): string {
    return this.elements[0]!.format(epochMillis, 0);
  }

  /** Prints epoch nanoseconds with the first format (DocValueFormat.DateTime at nanosecond resolution). */
  formatNanos(epochNanos: bigint): string {
    let millis = epochNanos / 1_000_000n;
    if (epochNanos < 0n && epochNanos % 1_000_000n !== 0n) millis -= 1n;
    return this.elements[0]!.format(Number(millis), Number(epochNanos - millis * 1_000_000n));
  }

  /** Whether this is ES's default date format. */
  get isDefault(): boolean {
    return this.pattern === DEFAULT_DATE_FORMAT;
  }
}

const formatterCache = new Map<string, DateFormatter>();

/** Cached DateFormatter.forPattern(format).withLocale(locale) (formatters are immutable). */
export function dateFormatter(format: string, locale = ''): DateFormatter {
  const key = locale === '' ? format : `${locale}\u0000${format}`;
  let formatter = formatterCache.get(key);
  if (formatter === undefined) {
    formatter = DateFormatter.forPattern(format, locale);
    if (formatterCache.size < 1000) formatterCache.set(key, formatter);
  }
  return formatter;
}
