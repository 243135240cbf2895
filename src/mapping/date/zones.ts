/**
 * Time zones as java.time.ZoneId.of reads them: "Z", fixed offsets (+h, +hh, +hh:mm, +hhmm, +hh:mm:ss,
 * +hhmmss, within ±18:00), UTC/GMT/UT with or without an offset, and region ids (Europe/Paris), whose rules
 * come from the ICU data Node ships.
 */
export type ZoneRef = { readonly kind: 'offset'; readonly seconds: number } | { readonly kind: 'region'; readonly id: string };

export const UTC_ZONE: ZoneRef = { kind: 'offset', seconds: 0 };

const OFFSET_FORMS = /^([+-])(\d{1,2})(?::?(\d{2})(?::?(\d{2}))?)?$/;

/** ZoneOffset.of; undefined when Java would throw. */
export function parseZoneOffset(text: string): ZoneRef | undefined {
  const m = OFFSET_FORMS.exec(text);
  if (!m) return undefined;
  // Java accepts +h and +hh, +hh:mm / +hhmm, +hh:mm:ss / +hhmmss; colons must be used consistently.
  const colon1 = text.indexOf(':');
  if (m[2]!.length === 1 && m[3] !== undefined) return undefined;
  if (m[4] !== undefined && (colon1 >= 0) !== (text.lastIndexOf(':') !== colon1)) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? 0);
  const seconds = Number(m[4] ?? 0);
  if (hours > 18 || minutes > 59 || seconds > 59) return undefined;
  const total = hours * 3600 + minutes * 60 + seconds;
  if (total > 18 * 3600) return undefined;
  return { kind: 'offset', seconds: m[1] === '-' ? -total : total };
}

const REGION_ID = /^[A-Za-z][A-Za-z0-9~/._+-]+$/;
const regionCache = new Map<string, Intl.DateTimeFormat | null>();

function regionFormatter(id: string): Intl.DateTimeFormat | undefined {
  let cached = regionCache.get(id);
  if (cached === undefined) {
    try {
      cached = new Intl.DateTimeFormat('en-US', {
        timeZone: id,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      cached = null;
    }
    regionCache.set(id, cached);
  }
  return cached ?? undefined;
}

/** ZoneId.of; undefined when Java would throw. */
export function parseZoneId(text: string): ZoneRef | undefined {
  if (text === 'Z') return UTC_ZONE;
  if (text.startsWith('+') || text.startsWith('-')) return parseZoneOffset(text);
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (text === prefix) return UTC_ZONE;
    if (text.startsWith(prefix) && (text[prefix.length] === '+' || text[prefix.length] === '-')) {
      return parseZoneOffset(text.slice(prefix.length));
    }
  }
  if (!REGION_ID.test(text) || regionFormatter(text) === undefined) return undefined;
  return { kind: 'region', id: text };
}

/** The offset of a region at an instant, from ICU. */
function regionOffsetAt(id: string, epochMillis: number): number {
  const formatter = regionFormatter(id);
  if (formatter === undefined) return 0;
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(new Date(epochMillis))) parts[part.type] = part.value;
  let year = Number(parts.year);
  if (parts.era === 'BC' || parts.era === 'B') year = 1 - year;
  // Set the year together with month and day: Date.UTC maps years 0-99 to 1900-1999, and a placeholder
  // year that is not a leap year would turn 29 February into 1 March.
  const withYear = new Date(0);
  withYear.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  withYear.setUTCHours(Number(parts.hour) % 24, Number(parts.minute), Number(parts.second), 0);
  const wholeSeconds = Math.floor(epochMillis / 1000) * 1000;
  return withYear.getTime() - wholeSeconds;
}

/**
 * The offset to subtract from a local date-time in this zone to get the instant. For regions in a DST gap or
 * overlap this follows ZonedDateTime.ofLocal: the earlier offset in an overlap, shifted past a gap.
 */
export function zoneOffsetMillis(zone: ZoneRef, localMillis: number): number {
  if (zone.kind === 'offset') return zone.seconds * 1000;
  const guess = regionOffsetAt(zone.id, localMillis);
  const second = regionOffsetAt(zone.id, localMillis - guess);
  if (second === guess) {
    // An overlap has two valid offsets; java.time keeps the earlier one (the larger offset).
    const earlier = regionOffsetAt(zone.id, localMillis - guess - 3_600_000);
    if (earlier > guess && regionOffsetAt(zone.id, localMillis - earlier) === earlier) return earlier;
    return guess;
  }
  // In a gap: java.time moves the local time forward by the gap, i.e. uses the offset before the transition.
  return Math.min(guess, second);
}

/** Offset of a zone at an instant (for printing). */
export function zoneOffsetAtInstant(zone: ZoneRef, epochMillis: number): number {
  return zone.kind === 'offset' ? zone.seconds * 1000 : regionOffsetAt(zone.id, epochMillis);
}
