/**
 * An independent oracle for date_histogram keys in a time zone, built only on Intl: a bucket is the
 * contiguous run of instants sharing the value's local calendar label (its day, ISO week, month, quarter,
 * year; or its hour or minute under one UTC offset), and its key is the first instant of that run, except
 * where a DST shift swallowed the unit's start (see bucketStart).
 */
export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const formatters = new Map<string, Intl.DateTimeFormat>();

export function localParts(zone: string, instant: number): { y: number; mo: number; d: number; h: number; mi: number; s: number; ms: number } {
  let f = formatters.get(zone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(zone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(instant))) p[part.type] = part.value;
  return { y: Number(p['year']), mo: Number(p['month']), d: Number(p['day']), h: Number(p['hour']), mi: Number(p['minute']), s: Number(p['second']), ms: ((instant % 1000) + 1000) % 1000 };
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

export function label(zone: string, instant: number, unit: Unit): string {
  const p = localParts(zone, instant);
  switch (unit) {
    case 'year':
      return pad(p.y, 4);
    case 'quarter':
      return `${pad(p.y, 4)}-Q${Math.floor((p.mo - 1) / 3)}`;
    case 'month':
      return `${pad(p.y, 4)}-${pad(p.mo)}`;
    case 'week': {
      const days = Date.UTC(p.y, p.mo - 1, p.d) / 86_400_000;
      const monday = days - ((days + 3) % 7 + 7) % 7; // 1970-01-05 was a Monday
      return new Date(monday * 86_400_000).toISOString().slice(0, 10);
    }
    case 'day':
      return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}`;
    case 'hour':
      return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}`;
    case 'minute':
      return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}`;
  }
}

/** The first instant of the value's bucket. */
export function bucketStart(zone: string, value: number, unit: Unit): number {
  const target = label(zone, value, unit);
  if (unit === 'minute' || unit === 'hour') {
    // Sub-day buckets are runs of one label under one offset: a repeated hour after a DST fall-back is a
    // bucket of its own. Walk back minute by minute while both stay the same.
    const offsetOf = (t: number): number => {
      const p = localParts(zone, t);
      return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s, p.ms) - t;
    };
    const offset = offsetOf(value);
    let t = Math.floor(value / 60_000) * 60_000;
    if (label(zone, t, unit) !== target || offsetOf(t) !== offset) t += 60_000;
    while (label(zone, t - 60_000, unit) === target && offsetOf(t - 60_000) === offset) t -= 60_000;
    // A run that does not start on the unit's boundary began at a transition that swallowed that boundary
    // (Lord Howe's 30-minute shifts): ES rounds such instants from just before, into the previous bucket.
    const p = localParts(zone, t);
    if ((unit === 'hour' && p.mi !== 0) || p.s !== 0) return bucketStart(zone, t - 1, unit);
    return t;
  }
  // Day and longer labels only grow with time: bisect for the first instant with the value's label.
  let lo = value - 400 * 86_400_000;
  let hi = value;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (label(zone, mid, unit) === target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** How far ahead of a bucket start the next bucket surely begins. */
export const STEP_INTO_NEXT: Record<Unit, number> = {
  minute: 90_000,
  hour: 90 * 60_000,
  day: 36 * 3_600_000,
  week: 10 * 86_400_000,
  month: 40 * 86_400_000,
  quarter: 100 * 86_400_000,
  year: 400 * 86_400_000,
};

/** The local date-time of an instant as strict_date_optional_time prints it, with its offset. */
export function isoInZone(zone: string, instant: number): string {
  const p = localParts(zone, instant);
  const localMillis = Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s, p.ms);
  const offset = (localMillis - instant) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const suffix = offset === 0 ? 'Z' : `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}.${pad(p.ms, 3)}${suffix}`;
}
