/**
 * Date math as ES's JavaDateMathParser reads it: `now` or `<date>||` followed by operations (+1d, -2h, /d),
 * units y M w d h H m s. Rounding down goes to the start of the unit; rounding up (range upper bounds) to
 * its last millisecond. Errors use ES's ElasticsearchParseException wording (type parse_exception).
 */
import { EsError } from '../../common/errors.js';
import { DateParseError, DateTimeError } from './date-errors.js';
import { civilFromEpochMillis, daysFromCivil, daysInMonth } from './date-fields.js';
import type { DateFormatter } from './date-formatter.js';
import { UTC_ZONE, zoneOffsetAtInstant, zoneOffsetMillis, type ZoneRef } from './zones.js';

export interface DateMathOptions {
  readonly now: () => number;
  readonly roundUp?: boolean;
  readonly zone?: ZoneRef;
}

type Unit = 'y' | 'M' | 'w' | 'd' | 'h' | 'm' | 's';

function parseError(message: string): EsError {
  return new EsError('parse_exception', message);
}

/** Parses a date math expression to epoch milliseconds. */
export function parseDateMath(text: string, formatter: DateFormatter, options: DateMathOptions): number {
  const zone = options.zone ?? UTC_ZONE;
  const roundUp = options.roundUp ?? false;
  let time: number;
  let math: string;
  if (text.startsWith('now')) {
    time = options.now();
    math = text.slice(3);
  } else {
    const index = text.indexOf('||');
    const datePart = index === -1 ? text : text.slice(0, index);
    try {
      time = formatter.parseMillis(datePart);
    } catch (err) {
      if (err instanceof DateParseError || err instanceof DateTimeError) {
        throw parseError(`failed to parse date field [${datePart}] with format [${formatter.pattern}]: [${err.message}]`);
      }
      throw err;
    }
    if (index === -1) return time;
    math = text.slice(index + 2);
  }
  return applyMath(time, math, roundUp, zone);
}

function applyMath(start: number, math: string, roundUp: boolean, zone: ZoneRef): number {
  let time = start;
  let i = 0;
  while (i < math.length) {
    const c = math[i++]!;
    let round = false;
    let sign = 0;
    if (c === '/') round = true;
    else if (c === '+') sign = 1;
    else if (c === '-') sign = -1;
    else throw parseError(`operator not supported for date math [${math}]`);
    if (i >= math.length) throw parseError(`truncated date math [${math}]`);
    let amount = 1;
    if (!round) {
      const numStart = i;
      while (i < math.length && math[i]! >= '0' && math[i]! <= '9') i++;
      if (i >= math.length) throw parseError(`truncated date math [${math}]`);
      if (i > numStart) amount = Number(math.slice(numStart, i));
    } else if (math[i]! >= '0' && math[i]! <= '9') {
      throw parseError(`rounding \`/\` can only be used on single unit types [${math}]`);
    }
    let unit = math[i++]!;
    if (unit === 'H') unit = 'h';
    if (!'yMwdhms'.includes(unit)) throw parseError(`unit [${unit}] not supported for date math [${math}]`);
    time = round ? roundTo(time, unit as Unit, roundUp, zone) : add(time, sign * amount, unit as Unit, zone);
  }
  return time;
}

function toLocal(instant: number, zone: ZoneRef): number {
  return instant + zoneOffsetAtInstant(zone, instant);
}

function fromLocal(local: number, zone: ZoneRef): number {
  return local - zoneOffsetMillis(zone, local);
}

function add(instant: number, amount: number, unit: Unit, zone: ZoneRef): number {
  switch (unit) {
    case 'h':
      return instant + amount * 3_600_000;
    case 'm':
      return instant + amount * 60_000;
    case 's':
      return instant + amount * 1000;
    default:
      break;
  }
  const local = toLocal(instant, zone);
  const c = civilFromEpochMillis(local);
  const timeOfDay = local - daysFromCivil(c.year, c.month, c.day) * 86_400_000;
  let { year, month, day } = c;
  if (unit === 'd' || unit === 'w') {
    const days = daysFromCivil(year, month, day) + amount * (unit === 'w' ? 7 : 1);
    return fromLocal(days * 86_400_000 + timeOfDay, zone);
  }
  const months = unit === 'y' ? amount * 12 : amount;
  const total = year * 12 + (month - 1) + months;
  year = Math.floor(total / 12);
  month = total - year * 12 + 1;
  day = Math.min(day, daysInMonth(year, month));
  return fromLocal(daysFromCivil(year, month, day) * 86_400_000 + timeOfDay, zone);
}

function roundTo(instant: number, unit: Unit, roundUp: boolean, zone: ZoneRef): number {
  const local = toLocal(instant, zone);
  const c = civilFromEpochMillis(local);
  let startDays = daysFromCivil(c.year, c.month, c.day);
  let startLocal: number;
  switch (unit) {
    case 'y':
      startLocal = daysFromCivil(c.year, 1, 1) * 86_400_000;
      break;
    case 'M':
      startLocal = daysFromCivil(c.year, c.month, 1) * 86_400_000;
      break;
    case 'w':
      startDays -= c.dayOfWeek - 1;
      startLocal = startDays * 86_400_000;
      break;
    case 'd':
      startLocal = startDays * 86_400_000;
      break;
    case 'h':
      startLocal = local - (local - startDays * 86_400_000) % 3_600_000;
      break;
    case 'm':
      startLocal = local - (((local % 60_000) + 60_000) % 60_000);
      break;
    case 's':
      startLocal = local - (((local % 1000) + 1000) % 1000);
      break;
  }
  const start = fromLocal(startLocal, zone);
  if (!roundUp) return start;
  return add(start, 1, unit, zone) - 1;
}
