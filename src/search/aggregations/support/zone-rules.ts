/**
 * A time zone as a chain of offset periods (Elasticsearch's LocalTimeOffset): each period has an offset, the
 * instant it started and the period before it. Region zones get their offsets from the ICU data Node ships;
 * transitions are found lazily, by sampling the offset every week around the instants asked about and
 * bisecting to the millisecond where it changes, then cached.
 */
import type { ZoneRef } from '../../../mapping/date/zones.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A region's UTC offset at an instant, from ICU. (mapping's zoneOffsetAtInstant builds the local date in
 * year 1900 first, which turns every February 29 into March 1; this reads the fields in their own year.)
 */
function regionOffsetAt(id: string, epochMillis: number): number {
  let formatter = formatters.get(id);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(id, formatter);
  }
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(new Date(epochMillis))) parts[part.type] = part.value;
  let year = Number(parts['year']);
  if (parts['era'] === 'BC' || parts['era'] === 'B') year = 1 - year;
  const local = new Date(0);
  local.setUTCFullYear(year, Number(parts['month']) - 1, Number(parts['day']));
  local.setUTCHours(Number(parts['hour']), Number(parts['minute']), Number(parts['second']), 0);
  return local.getTime() - Math.floor(epochMillis / 1000) * 1000;
}

export interface OffsetPeriod {
  /** Offset from UTC in milliseconds (local = utc + offset). */
  readonly offset: number;
  /** First instant of this period; -Infinity for the oldest period known. */
  readonly start: number;
  /** The period before this one, or null when none is known (the offset then applies to all earlier times). */
  readonly previous: OffsetPeriod | null;
}

const SAMPLE_STEP = 7 * 86_400_000;
// More than a year, so a year rounded down still finds its period chain.
const EXTEND_BY = 60 * SAMPLE_STEP;

export interface ZoneRules {
  readonly fixedOffset: number | null;
  offsetAt(utcMillis: number): number;
  /** The period holding this instant, with its chain of previous periods. */
  periodAt(utcMillis: number): OffsetPeriod;
}

class FixedZoneRules implements ZoneRules {
  private readonly period: OffsetPeriod;
  constructor(readonly fixedOffset: number) {
    this.period = { offset: fixedOffset, start: -Infinity, previous: null };
  }
  offsetAt(): number {
    return this.fixedOffset;
  }
  periodAt(): OffsetPeriod {
    return this.period;
  }
}

class RegionZoneRules implements ZoneRules {
  readonly fixedOffset = null;
  /** Known transitions in time order: the instant and the offsets before/after it. */
  private transitions: Array<{ at: number; before: number; after: number }> = [];
  private lo = 0;
  private hi = 0;
  private covered = false;
  private periods: OffsetPeriod[] = [];

  constructor(private readonly id: string) {}

  offsetAt(utcMillis: number): number {
    return this.periodAt(utcMillis).offset;
  }

  private raw(utcMillis: number): number {
    return regionOffsetAt(this.id, utcMillis);
  }

  /** Finds the transitions in [from, to) by sampling and bisection. */
  private scan(from: number, to: number): Array<{ at: number; before: number; after: number }> {
    const found: Array<{ at: number; before: number; after: number }> = [];
    let t = from;
    let offset = this.raw(t);
    while (t < to) {
      const next = Math.min(t + SAMPLE_STEP, to);
      const nextOffset = this.raw(next);
      if (nextOffset !== offset) {
        let a = t;
        let b = next;
        while (b - a > 1) {
          const mid = Math.floor((a + b) / 2);
          if (this.raw(mid) === offset) a = mid;
          else b = mid;
        }
        found.push({ at: b, before: offset, after: this.raw(b) });
        // A second change within the same week (never in practice) is found by rescanning from b.
        t = b;
        offset = this.raw(b);
        continue;
      }
      t = next;
      offset = nextOffset;
    }
    return found;
  }

  private ensure(utcMillis: number): void {
    if (!this.covered) {
      const start = Math.floor(utcMillis / SAMPLE_STEP) * SAMPLE_STEP - EXTEND_BY;
      this.lo = start;
      this.hi = start + 2 * EXTEND_BY;
      this.transitions = this.scan(this.lo, this.hi);
      this.covered = true;
      this.rebuild();
      return;
    }
    let changed = false;
    while (utcMillis - EXTEND_BY < this.lo) {
      const from = this.lo - EXTEND_BY;
      this.transitions = [...this.scan(from, this.lo), ...this.transitions];
      this.lo = from;
      changed = true;
    }
    while (utcMillis + EXTEND_BY >= this.hi) {
      const to = this.hi + EXTEND_BY;
      this.transitions = [...this.transitions, ...this.scan(this.hi, to)];
      this.hi = to;
      changed = true;
    }
    if (changed) this.rebuild();
  }

  private rebuild(): void {
    const first = this.transitions.length > 0 ? this.transitions[0]!.before : this.raw(this.lo);
    let period: OffsetPeriod = { offset: first, start: -Infinity, previous: null };
    const periods = [period];
    for (const t of this.transitions) {
      period = { offset: t.after, start: t.at, previous: period };
      periods.push(period);
    }
    this.periods = periods;
  }

  periodAt(utcMillis: number): OffsetPeriod {
    this.ensure(utcMillis);
    const periods = this.periods;
    let low = 0;
    let high = periods.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (periods[mid]!.start <= utcMillis) low = mid;
      else high = mid - 1;
    }
    return periods[low]!;
  }
}

const cache = new Map<string, ZoneRules>();

export function zoneRules(zone: ZoneRef): ZoneRules {
  if (zone.kind === 'offset') return new FixedZoneRules(zone.seconds * 1000);
  let rules = cache.get(zone.id);
  if (rules === undefined) {
    rules = new RegionZoneRules(zone.id);
    if (cache.size < 256) cache.set(zone.id, rules);
  }
  return rules;
}

/** How to resolve a local time that falls in or before a transition (LocalTimeOffset.Strategy). */
export interface LocalToUtcStrategy {
  inGap(local: number, gap: OffsetPeriod): number;
  beforeGap(local: number, gap: OffsetPeriod): number;
  inOverlap(local: number, overlap: OffsetPeriod): number;
  beforeOverlap(local: number, overlap: OffsetPeriod): number;
}

/** LocalTimeOffset.localToUtc for a local time at or before this period. */
export function localToUtc(period: OffsetPeriod, local: number, strategy: LocalToUtcStrategy): number {
  const previous = period.previous;
  if (previous === null) return local - period.offset;
  if (period.offset > previous.offset) {
    // A gap: local times [start + previous offset, start + offset) never happened.
    if (local >= period.start + period.offset) return local - period.offset;
    if (local >= period.start + previous.offset) return strategy.inGap(local, period);
    return strategy.beforeGap(local, period);
  }
  // An overlap: local times [start + offset, start + previous offset) happened twice.
  if (local >= period.start + previous.offset) return local - period.offset;
  if (local >= period.start + period.offset) return strategy.inOverlap(local, period);
  return strategy.beforeOverlap(local, period);
}

/** The valid offsets of a local time, earliest instant first (java.time's ZoneRules.getValidOffsets). */
export function validOffsets(rules: ZoneRules, local: number): number[] {
  if (rules.fixedOffset !== null) return [rules.fixedOffset];
  const candidates = new Set<number>();
  for (let probe = local - 18 * 3_600_000; probe <= local + 18 * 3_600_000; probe += 3_600_000) candidates.add(rules.offsetAt(probe));
  const valid = [...candidates].filter((offset) => rules.offsetAt(local - offset) === offset);
  return valid.sort((a, b) => b - a);
}

/** The instant a local time in a gap was skipped at (java.time's ZoneRules.getTransition(local).getInstant()). */
export function gapTransition(rules: ZoneRules, local: number): number {
  for (let probe = local - 18 * 3_600_000; probe <= local + 18 * 3_600_000; probe += 3_600_000) {
    const period = rules.periodAt(probe);
    const previous = period.previous;
    if (previous !== null && period.offset > previous.offset && local >= period.start + previous.offset && local < period.start + period.offset) {
      return period.start;
    }
  }
  return local - rules.offsetAt(local);
}

/** ZonedDateTime.ofLocal: an overlap resolves to its earlier instant, a gap shifts the time forward by its length. */
export function localToInstant(rules: ZoneRules, local: number): number {
  const offsets = validOffsets(rules, local);
  if (offsets.length > 0) return local - offsets[0]!;
  // In a gap: keep the offset from before the transition, which lands after it.
  const transition = gapTransition(rules, local);
  const before = rules.periodAt(transition - 1).offset;
  return local - before;
}
