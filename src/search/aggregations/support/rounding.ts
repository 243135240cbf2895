/**
 * Elasticsearch's Rounding for date histograms, in a time zone and with an offset:
 * - calendar units (second ... year) round the local date-time down to the unit, then map it back to an
 *   instant: units of a day or more take the first instant of that local day (a midnight skipped by DST maps
 *   to the transition); smaller units keep each real hour/minute distinct across DST (a repeated hour gives
 *   two buckets);
 * - fixed intervals round local time down to a multiple of the interval since the epoch.
 * `nextRoundingValue` walks to the next bucket key, which reduce uses to fill empty buckets. The strategies
 * at transitions follow ES's LocalTimeOffset-based implementations (Rounding.TimeUnitRounding /
 * TimeIntervalRounding), which ES checks against its java.time reference implementation.
 */
import { civilFromEpochMillis, daysFromCivil } from '../../../mapping/date/date-fields.js';
import type { ZoneRef } from '../../../mapping/date/zones.js';
import { gapTransition, localToInstant, localToUtc, validOffsets, zoneRules, type LocalToUtcStrategy, type OffsetPeriod, type ZoneRules } from './zone-rules.js';

export type CalendarUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const DAY = 86_400_000;
const UNIT_MILLIS: Record<'second' | 'minute' | 'hour' | 'day' | 'week', number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY,
  week: 7 * DAY,
};

function floorTo(value: number, unit: number): number {
  return Math.floor(value / unit) * unit;
}

/** DateTimeUnit.roundFloor on a local time expressed as millis since the local epoch. */
export function roundFloorLocal(local: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'second':
    case 'minute':
    case 'hour':
    case 'day':
      return floorTo(local, UNIT_MILLIS[unit]);
    case 'week':
      // 1970-01-01 was a Thursday: shift so weeks start on Monday.
      return floorTo(local + 3 * DAY, 7 * DAY) - 3 * DAY;
    case 'month': {
      const c = civilFromEpochMillis(local);
      return daysFromCivil(c.year, c.month, 1) * DAY;
    }
    case 'quarter': {
      const c = civilFromEpochMillis(local);
      return daysFromCivil(c.year, c.month - ((c.month - 1) % 3), 1) * DAY;
    }
    case 'year': {
      const c = civilFromEpochMillis(local);
      return daysFromCivil(c.year, 1, 1) * DAY;
    }
  }
}

function addUnitLocal(localMidnight: number, unit: CalendarUnit): number {
  switch (unit) {
    case 'day':
      return localMidnight + DAY;
    case 'week':
      return localMidnight + 7 * DAY;
    case 'month':
    case 'quarter':
    case 'year': {
      const c = civilFromEpochMillis(localMidnight);
      const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
      const total = c.year * 12 + (c.month - 1) + months;
      return daysFromCivil(Math.floor(total / 12), (total % 12) + 1, 1) * DAY;
    }
    default:
      throw new Error(`${unit} does not round to midnight`);
  }
}

export interface Rounding {
  round(utcMillis: number): number;
  nextRoundingValue(utcMillis: number): number;
  /** The same rounding without its offset (extended bounds are rounded with it, then offset). */
  withoutOffset(): Rounding;
  readonly offset: number;
}

function roundsToMidnight(unit: CalendarUnit): boolean {
  return unit === 'day' || unit === 'week' || unit === 'month' || unit === 'quarter' || unit === 'year';
}

class TimeUnitRounding implements Rounding {
  readonly offset = 0;
  private readonly rules: ZoneRules;
  private readonly unitMillis: number;
  private readonly midnightStrategy: LocalToUtcStrategy;
  private readonly subDayStrategy: LocalToUtcStrategy;

  constructor(
    private readonly unit: CalendarUnit,
    zone: ZoneRef,
  ) {
    this.rules = zoneRules(zone);
    this.unitMillis = roundsToMidnight(unit) ? 0 : UNIT_MILLIS[unit as 'hour'];
    // ToMidnightRounding: a skipped midnight maps to the transition, anything earlier to the previous offset.
    this.midnightStrategy = {
      inGap: (_local, gap) => gap.start,
      beforeGap: (local, gap) => localToUtc(gap.previous!, local, this.midnightStrategy),
      inOverlap: (local, overlap) => localToUtc(overlap.previous!, local, this.midnightStrategy),
      beforeOverlap: (local, overlap) => localToUtc(overlap.previous!, local, this.midnightStrategy),
    };
    // NotToMidnightRounding: round from just before a gap; a repeated hour keeps its own (later) offset.
    this.subDayStrategy = {
      inGap: (_local, gap) => {
        const firstMissing = gap.start + gap.previous!.offset;
        return localToUtc(gap.previous!, roundFloorLocal(firstMissing - 1, this.unit), this.subDayStrategy);
      },
      beforeGap: (local, gap) => this.subDayStrategy.inGap(local, gap),
      inOverlap: (local, overlap) => local - overlap.offset,
      beforeOverlap: (local, overlap) => {
        const overlapLength = overlap.previous!.offset - overlap.offset;
        if (overlapLength >= this.unitMillis) return local - overlap.offset;
        return localToUtc(overlap.previous!, local, this.subDayStrategy);
      },
    };
  }

  round(utcMillis: number): number {
    const fixed = this.rules.fixedOffset;
    if (fixed !== null) return roundFloorLocal(utcMillis + fixed, this.unit) - fixed;
    const period: OffsetPeriod = this.rules.periodAt(utcMillis);
    const local = roundFloorLocal(utcMillis + period.offset, this.unit);
    return localToUtc(period, local, roundsToMidnight(this.unit) ? this.midnightStrategy : this.subDayStrategy);
  }

  nextRoundingValue(utcMillis: number): number {
    if (roundsToMidnight(this.unit)) {
      // JavaTimeToMidnightRounding: the first instant of the next unit's first local day.
      const local = utcMillis + this.rules.offsetAt(utcMillis);
      const nextMidnight = addUnitLocal(roundFloorLocal(local, this.unit), this.unit);
      return this.firstTimeOnDay(nextMidnight);
    }
    if (this.rules.fixedOffset !== null) return this.round(utcMillis + this.unitMillis);
    const once = this.round(utcMillis + this.unitMillis);
    return utcMillis < once ? once : this.round(utcMillis + 2 * this.unitMillis);
  }

  private firstTimeOnDay(localMidnight: number): number {
    const offsets = validOffsets(this.rules, localMidnight);
    if (offsets.length > 0) return localMidnight - offsets[0]!;
    return gapTransition(this.rules, localMidnight);
  }

  withoutOffset(): Rounding {
    return this;
  }
}

function roundKey(value: number, interval: number): number {
  return Math.floor(value / interval);
}

class TimeIntervalRounding implements Rounding {
  readonly offset = 0;
  private readonly rules: ZoneRules;
  private readonly strategy: LocalToUtcStrategy;

  constructor(
    private readonly interval: number,
    zone: ZoneRef,
  ) {
    this.rules = zoneRules(zone);
    // TimeIntervalRounding.VariableRounding's strategy.
    this.strategy = {
      inGap: (_local, gap) => gap.start,
      beforeGap: (local, gap) => localToUtc(gap.previous!, local, this.strategy),
      inOverlap: (local, overlap) => local - overlap.offset,
      beforeOverlap: (_local, overlap) => {
        const firstNonOverlapping = overlap.start + overlap.previous!.offset;
        return localToUtc(overlap.previous!, roundKey(firstNonOverlapping - 1, this.interval) * this.interval, this.strategy);
      },
    };
  }

  round(utcMillis: number): number {
    const fixed = this.rules.fixedOffset;
    if (fixed !== null) return roundKey(utcMillis + fixed, this.interval) * this.interval - fixed;
    const period = this.rules.periodAt(utcMillis);
    const local = roundKey(utcMillis + period.offset, this.interval) * this.interval;
    return localToUtc(period, local, this.strategy);
  }

  nextRoundingValue(utcMillis: number): number {
    // JavaTimeRounding.nextRoundingValue: one interval later in local time, back to an instant as ZonedDateTime.ofLocal.
    const local = utcMillis + this.rules.offsetAt(utcMillis) + this.interval;
    return localToInstant(this.rules, local);
  }

  withoutOffset(): Rounding {
    return this;
  }
}

class OffsetRounding implements Rounding {
  constructor(
    private readonly delegate: Rounding,
    readonly offset: number,
  ) {}
  round(value: number): number {
    return this.delegate.round(value - this.offset) + this.offset;
  }
  nextRoundingValue(value: number): number {
    return this.delegate.nextRoundingValue(value - this.offset) + this.offset;
  }
  withoutOffset(): Rounding {
    return this.delegate;
  }
}

export type DateInterval = { readonly kind: 'calendar'; readonly unit: CalendarUnit } | { readonly kind: 'fixed'; readonly millis: number };

export function createRounding(interval: DateInterval, zone: ZoneRef, offset: number): Rounding {
  const base = interval.kind === 'calendar' ? new TimeUnitRounding(interval.unit, zone) : new TimeIntervalRounding(interval.millis, zone);
  return offset === 0 ? base : new OffsetRounding(base, offset);
}
