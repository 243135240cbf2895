/**
 * java.time DateTimeFormatter patterns ("yyyy-MM-dd HH:mm:ss.SSSXXX", "dd/MMM/yyyy[ HH:mm]") compiled to a
 * small parser/printer with Java's rules for the common letters: widths per letter count, adjacent value
 * parsing (yyyyMMdd), optional sections, quoted literals, offsets and month/day names in the mapping's locale
 * (date-locale.ts; English for Locale.ROOT).
 * Letters java.time knows but Gannet does not implement are rejected at mapping time with a clear message.
 */
import { DateFormatError } from './date-errors.js';
import type { ParsedDateFields } from './date-fields.js';
import { civilFromEpochMillis } from './date-fields.js';
import { ROOT_LOCALE, type DateLocale } from './date-locale.js';
import { parseZoneId, type ZoneRef } from './zones.js';

type NumberField = 'year' | 'yearOfCentury' | 'month' | 'day' | 'dayOfYear' | 'hour' | 'hour12' | 'clockHour24' | 'hour0to11' | 'minute' | 'second';

type PatternToken =
  | { kind: 'literal'; text: string }
  | { kind: 'number'; field: NumberField; min: number; max: number }
  | { kind: 'fraction'; width: number }
  | { kind: 'text'; field: 'month' | 'dayOfWeek' | 'ampm'; style: 'short' | 'full' | 'narrow' }
  | { kind: 'offset'; pattern: string; zeroText: string }
  | { kind: 'zoneId' }
  | { kind: 'optional'; tokens: PatternToken[] };


const KNOWN_UNSUPPORTED = new Set(['G', 'Q', 'q', 'Y', 'w', 'W', 'e', 'c', 'F', 'A', 'n', 'N', 'O', 'p', 'B', 'g']);

export class DatePattern {
  private constructor(
    readonly pattern: string,
    private readonly tokens: PatternToken[],
    private readonly locale: DateLocale,
  ) {}

  /** Compiles a pattern; throws DateFormatError with java.time's message ("Unknown pattern letter: t"). */
  static compile(pattern: string, locale: DateLocale = ROOT_LOCALE): DatePattern {
    return new DatePattern(pattern, compileTokens(pattern), locale);
  }

  /**
   * Parses the whole text. Returns the fields, or where and why it failed as java.time's
   * DateTimeParseException would word it.
   */
  parse(text: string): { fields: ParsedDateFields } | { errorIndex: number; unparsed: boolean; reason?: string } {
    const state: ParseState = { text, locale: this.locale, fields: {}, ampm: undefined, hour12: undefined };
    const end = parseTokens(this.tokens, state, 0);
    if (end < 0) return { errorIndex: ~end, unparsed: false };
    if (end < text.length) return { errorIndex: end, unparsed: true };
    const fields = state.fields;
    if (state.hour12 !== undefined) fields.hour = (state.hour12 % 12) + (state.ampm === 'PM' ? 12 : 0);
    // java.time's STRICT resolver checks time fields while parsing; date fields are checked on resolution.
    if (fields.hour !== undefined && fields.hour > 23) {
      return { errorIndex: 0, unparsed: false, reason: `Invalid value for HourOfDay (valid values 0 - 23): ${fields.hour}` };
    }
    if (fields.minute !== undefined && fields.minute > 59) {
      return { errorIndex: 0, unparsed: false, reason: `Invalid value for MinuteOfHour (valid values 0 - 59): ${fields.minute}` };
    }
    if (fields.second !== undefined && fields.second > 59) {
      return { errorIndex: 0, unparsed: false, reason: `Invalid value for SecondOfMinute (valid values 0 - 59): ${fields.second}` };
    }
    return { fields };
  }

  /** Prints an instant in UTC with this pattern (optional sections are printed when they have data). */
  format(epochMillis: number, nanoOfMilli = 0): string {
    const civil = civilFromEpochMillis(epochMillis);
    const nanoOfSecond = civil.millis * 1_000_000 + nanoOfMilli;
    const print = (tokens: PatternToken[]): string => tokens.map((token) => printToken(token, civil, nanoOfSecond, print, this.locale)).join('');
    return print(this.tokens);
  }
}

interface ParseState {
  text: string;
  locale: DateLocale;
  fields: ParsedDateFields;
  ampm: 'AM' | 'PM' | undefined;
  hour12: number | undefined;
}

function printToken(
  token: PatternToken,
  civil: ReturnType<typeof civilFromEpochMillis>,
  nanoOfSecond: number,
  printNested: (tokens: PatternToken[]) => string,
  locale: DateLocale,
): string {
  switch (token.kind) {
    case 'literal':
      return token.text;
    case 'optional':
      return printNested(token.tokens);
    case 'fraction':
      return String(nanoOfSecond).padStart(9, '0').padEnd(token.width, '0').slice(0, token.width);
    case 'offset':
      return token.zeroText;
    case 'zoneId':
      return 'Z';
    case 'text':
      if (token.field === 'ampm') return locale.ampm[civil.hour < 12 ? 0 : 1];
      return textNames(token, locale)[token.field === 'month' ? civil.month - 1 : civil.dayOfWeek - 1]!;
    case 'number': {
      const value = numberFieldValue(token.field, civil);
      const text = String(Math.abs(value)).padStart(token.min, '0');
      if (token.field === 'year' && value < 0) return '-' + text;
      if (token.field === 'year' && token.min >= 4 && text.length > token.min) return '+' + text;
      return text;
    }
  }
}

function numberFieldValue(field: NumberField, civil: ReturnType<typeof civilFromEpochMillis>): number {
  switch (field) {
    case 'year':
      return civil.year;
    case 'yearOfCentury':
      return ((civil.year % 100) + 100) % 100;
    case 'month':
      return civil.month;
    case 'day':
      return civil.day;
    case 'dayOfYear':
      return civil.dayOfYear;
    case 'hour':
      return civil.hour;
    case 'hour12':
      return civil.hour % 12 === 0 ? 12 : civil.hour % 12;
    case 'clockHour24':
      return civil.hour === 0 ? 24 : civil.hour;
    case 'hour0to11':
      return civil.hour % 12;
    case 'minute':
      return civil.minute;
    case 'second':
      return civil.second;
  }
}

/** Width the following adjacent fixed-width numeric tokens need (java.time's adjacent value parsing). */
function reservedWidth(tokens: PatternToken[], from: number): number {
  let reserved = 0;
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'number' && t.min === t.max) reserved += t.min;
    else if (t.kind === 'fraction') reserved += t.width;
    else break;
  }
  return reserved;
}

/** Returns the new position, or ~errorIndex on failure. */
function parseTokens(tokens: PatternToken[], state: ParseState, start: number): number {
  const text = state.text;
  let pos = start;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.kind) {
      case 'literal':
        if (!text.startsWith(token.text, pos)) return ~pos;
        pos += token.text.length;
        break;
      case 'optional': {
        const saved = { ...state.fields };
        const savedAmpm = state.ampm;
        const savedHour12 = state.hour12;
        const end = parseTokens(token.tokens, state, pos);
        if (end < 0) {
          state.fields = saved;
          state.ampm = savedAmpm;
          state.hour12 = savedHour12;
        } else pos = end;
        break;
      }
      case 'number': {
        let available = 0;
        while (pos + available < text.length && isDigit(text.charCodeAt(pos + available))) available++;
        let max = token.max;
        if (token.min !== token.max) max = Math.min(max, Math.max(token.min, available - reservedWidth(tokens, i + 1)));
        const width = Math.min(available, max);
        if (width < token.min) return ~pos;
        const value = Number(text.slice(pos, pos + width));
        pos += width;
        assignNumber(token.field, value, state);
        break;
      }
      case 'fraction': {
        for (let k = 0; k < token.width; k++) if (!isDigit(text.charCodeAt(pos + k))) return ~pos;
        const digits = text.slice(pos, pos + token.width);
        state.fields.nano = Number(digits.padEnd(9, '0').slice(0, 9));
        pos += token.width;
        break;
      }
      case 'text': {
        const matched = matchText(token, text, pos, state.locale);
        if (matched === undefined) return ~pos;
        if (token.field === 'month') state.fields.month = matched.value;
        else if (token.field === 'ampm') state.ampm = matched.value === 0 ? 'AM' : 'PM';
        pos += matched.length;
        break;
      }
      case 'offset': {
        const parsed = parseOffset(token, text, pos);
        if (parsed === undefined) return ~pos;
        state.fields.zone = parsed.zone;
        pos += parsed.length;
        break;
      }
      case 'zoneId': {
        let end = pos;
        while (end < text.length && /[A-Za-z0-9~/._+:-]/.test(text[end]!)) end++;
        let zone: ZoneRef | undefined;
        for (; end > pos && zone === undefined; end--) {
          zone = parseZoneId(text.slice(pos, end));
          if (zone) {
            state.fields.zone = zone;
            pos = end;
            break;
          }
        }
        if (!zone) return ~pos;
        break;
      }
    }
  }
  return pos;
}

function assignNumber(field: NumberField, value: number, state: ParseState): void {
  const f = state.fields;
  switch (field) {
    case 'year':
      f.year = value;
      break;
    case 'yearOfCentury':
      f.year = 2000 + value;
      break;
    case 'month':
      f.month = value;
      break;
    case 'day':
      f.day = value;
      break;
    case 'dayOfYear':
      f.dayOfYear = value;
      break;
    case 'hour':
      f.hour = value;
      break;
    case 'hour12':
    case 'hour0to11':
      state.hour12 = value;
      break;
    case 'clockHour24':
      f.hour = value === 24 ? 0 : value;
      break;
    case 'minute':
      f.minute = value;
      break;
    case 'second':
      f.second = value;
      break;
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** The names a text token prints and parses in a locale (TextStyle FULL, SHORT or NARROW). */
function textNames(token: Extract<PatternToken, { kind: 'text' }>, locale: DateLocale): readonly string[] {
  if (token.field === 'ampm') return locale.ampm;
  if (token.field === 'month') return token.style === 'full' ? locale.monthsFull : token.style === 'short' ? locale.monthsShort : locale.monthsNarrow;
  return token.style === 'full' ? locale.daysFull : token.style === 'short' ? locale.daysShort : locale.daysNarrow;
}

function matchText(
  token: Extract<PatternToken, { kind: 'text' }>,
  text: string,
  pos: number,
  locale: DateLocale,
): { value: number; length: number } | undefined {
  let best: { value: number; length: number } | undefined;
  // The longest name that matches wins, as java.time's text parser picks it.
  textNames(token, locale).forEach((name, index) => {
    if (text.startsWith(name, pos) && (best === undefined || name.length > best.length)) {
      best = { value: token.field === 'month' ? index + 1 : index, length: name.length };
    }
  });
  return best;
}

function parseOffset(
  token: Extract<PatternToken, { kind: 'offset' }>,
  text: string,
  pos: number,
): { zone: ZoneRef; length: number } | undefined {
  if (text.startsWith(token.zeroText, pos) && !/^[+-]\d/.test(token.zeroText)) {
    return { zone: { kind: 'offset', seconds: 0 }, length: token.zeroText.length };
  }
  const sign = text[pos];
  if (sign !== '+' && sign !== '-') {
    if (text.startsWith(token.zeroText, pos)) return { zone: { kind: 'offset', seconds: 0 }, length: token.zeroText.length };
    return undefined;
  }
  const p = token.pattern; // e.g. +HH, +HHmm, +HH:mm, +HHMM, +HH:MM, +HHMMss, +HH:MM:ss, +HHMMSS, +HH:MM:SS
  const colon = p.includes(':');
  const minutesRequired = p.includes('MM');
  const minutesOptional = p.includes('mm');
  const secondsRequired = p.includes('SS');
  const secondsOptional = p.includes('ss');
  let q = pos + 1;
  const two = (at: number): number | undefined =>
    isDigit(text.charCodeAt(at)) && isDigit(text.charCodeAt(at + 1)) ? Number(text.slice(at, at + 2)) : undefined;
  const hours = two(q);
  if (hours === undefined) return undefined;
  q += 2;
  let minutes = 0;
  let seconds = 0;
  const readPart = (required: boolean, optional: boolean): number | undefined | null => {
    if (!required && !optional) return null;
    const at = colon ? q + 1 : q;
    if (colon && text[q] !== ':') return required ? undefined : null;
    const value = two(at);
    if (value === undefined) return required ? undefined : null;
    q = at + 2;
    return value;
  };
  const m = readPart(minutesRequired, minutesOptional);
  if (m === undefined) return undefined;
  if (m !== null) {
    minutes = m;
    const s = readPart(secondsRequired, secondsOptional);
    if (s === undefined) return undefined;
    if (s !== null) seconds = s;
  }
  if (hours > 18 || minutes > 59 || seconds > 59) return undefined;
  const total = hours * 3600 + minutes * 60 + seconds;
  return { zone: { kind: 'offset', seconds: sign === '-' ? -total : total }, length: q - pos };
}

function compileTokens(pattern: string): PatternToken[] {
  const root: PatternToken[] = [];
  const stack: PatternToken[][] = [root];
  let i = 0;
  const current = (): PatternToken[] => stack[stack.length - 1]!;
  const literal = (text: string): void => {
    const list = current();
    const last = list[list.length - 1];
    if (last && last.kind === 'literal') list[list.length - 1] = { kind: 'literal', text: last.text + text };
    else list.push({ kind: 'literal', text });
  };
  while (i < pattern.length) {
    const c = pattern[i]!;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      let count = 1;
      while (pattern[i + count] === c) count++;
      current().push(letterToken(c, count));
      i += count;
      continue;
    }
    if (c === "'") {
      let end = i + 1;
      let text = '';
      for (;;) {
        if (end >= pattern.length) throw new DateFormatError(`Pattern ends with an incomplete string literal: ${pattern}`);
        if (pattern[end] === "'") {
          if (pattern[end + 1] === "'") {
            text += "'";
            end += 2;
            continue;
          }
          break;
        }
        text += pattern[end];
        end++;
      }
      literal(end === i + 1 ? "'" : text);
      i = end + 1;
      continue;
    }
    if (c === '[') {
      const nested: PatternToken[] = [];
      current().push({ kind: 'optional', tokens: nested });
      stack.push(nested);
      i++;
      continue;
    }
    if (c === ']') {
      if (stack.length === 1) throw new DateFormatError('Pattern invalid as it contains ] without previous [');
      stack.pop();
      i++;
      continue;
    }
    if (c === '{' || c === '}' || c === '#') throw new DateFormatError(`Pattern includes reserved character: '${c}'`);
    literal(c);
    i++;
  }
  return root;
}

function tooMany(letter: string): DateFormatError {
  return new DateFormatError(`Too many pattern letters: ${letter}`);
}

function letterToken(letter: string, count: number): PatternToken {
  const numeric = (field: NumberField, maxCount = 2): PatternToken => {
    if (count > maxCount) throw tooMany(letter);
    return count === 1 ? { kind: 'number', field, min: 1, max: 19 } : { kind: 'number', field, min: count, max: count };
  };
  switch (letter) {
    case 'y':
    case 'u':
      if (count === 2) return { kind: 'number', field: 'yearOfCentury', min: 2, max: 2 };
      return { kind: 'number', field: 'year', min: count, max: 19 };
    case 'M':
    case 'L':
      if (count <= 2) return numeric('month');
      if (count > 5) throw tooMany(letter);
      return { kind: 'text', field: 'month', style: count === 3 ? 'short' : count === 4 ? 'full' : 'narrow' };
    case 'd':
      return numeric('day');
    case 'D':
      if (count > 3) throw tooMany(letter);
      return count === 1
        ? { kind: 'number', field: 'dayOfYear', min: 1, max: 19 }
        : { kind: 'number', field: 'dayOfYear', min: count, max: 3 };
    case 'H':
      return numeric('hour');
    case 'h':
      return numeric('hour12');
    case 'k':
      return numeric('clockHour24');
    case 'K':
      return numeric('hour0to11');
    case 'm':
      return numeric('minute');
    case 's':
      return numeric('second');
    case 'S':
      return { kind: 'fraction', width: count };
    case 'a':
      if (count > 1) throw tooMany(letter);
      return { kind: 'text', field: 'ampm', style: 'short' };
    case 'E':
      if (count > 5) throw tooMany(letter);
      return { kind: 'text', field: 'dayOfWeek', style: count <= 3 ? 'short' : count === 4 ? 'full' : 'narrow' };
    case 'Z':
      if (count <= 3) return { kind: 'offset', pattern: '+HHMM', zeroText: '+0000' };
      if (count === 5) return { kind: 'offset', pattern: '+HH:MM:ss', zeroText: 'Z' };
      if (count > 5) throw tooMany(letter);
      break;
    case 'X':
    case 'x': {
      if (count > 5) throw tooMany(letter);
      const patterns = ['+HHmm', '+HHMM', '+HH:MM', '+HHMMss', '+HH:MM:ss'];
      const zeros = ['+00', '+0000', '+00:00', '+0000', '+00:00'];
      return { kind: 'offset', pattern: patterns[count - 1]!, zeroText: letter === 'X' ? 'Z' : zeros[count - 1]! };
    }
    case 'V':
      if (count !== 2) throw new DateFormatError('Pattern letter count must be 2: V');
      return { kind: 'zoneId' };
    case 'z':
      if (count > 4) throw tooMany(letter);
      return { kind: 'zoneId' };
    default:
      break;
  }
  if (KNOWN_UNSUPPORTED.has(letter) || letter === 'Z') {
    throw new DateFormatError(`pattern letter [${letter}] is not supported by gannet`);
  }
  throw new DateFormatError(`Unknown pattern letter: ${letter}`);
}
