/**
 * histogram and date_histogram on one shard (ES's NumericHistogramAggregator and DateHistogramAggregator):
 * each value maps to its bucket key (floor((value - offset) / interval) * interval + offset, or the date
 * rounding), a document counts once per key, hard_bounds drop keys outside [min, max). Shards return only the
 * buckets they saw, sorted by key; with min_doc_count 0 they also send what the final reduce needs to create
 * the empty buckets (interval, offset, extended bounds).
 */
import { dateFormatter } from '../../../mapping/date/date-formatter.js';
import { parseDateMath } from '../../../mapping/date/date-math.js';
import { aggErrors } from '../agg-errors.js';
import { BucketsAggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import { BUCKET_BYTES, type ScoreSource } from '../context.js';
import type { InternalAggregation, InternalDateHistogram, InternalHistogram, KeyedBucket } from '../internal.js';
import type { DateBound, DateHistogramSpec, HistogramSpec } from '../spec.js';
import { KeyedBucketOrds } from '../support/arrays.js';
import { createRounding, type DateInterval, type Rounding } from '../support/rounding.js';
import type { ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';

/** LongBounds/DoubleBounds.contain: min inclusive, max exclusive. */
function contains(bounds: { min: number | null; max: number | null } | null, value: number): boolean {
  if (bounds === null) return true;
  if (bounds.max !== null && value >= bounds.max) return false;
  if (bounds.min !== null && value < bounds.min) return false;
  return true;
}

abstract class AbstractHistogramAggregator extends BucketsAggregator {
  protected readonly bucketOrds = new KeyedBucketOrds();
  /** Buckets pledged to the consumer while collecting (see BucketConsumer.pledge). */
  private pledged = 0;

  constructor(
    override readonly spec: HistogramSpec | DateHistogramSpec,
    env: AggregatorEnv,
    protected readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
  }

  /** The bucket key of a value, or NaN to skip it. */
  protected abstract keyOf(value: number): number;
  protected abstract bucketKey(storedKey: number): number;
  protected abstract result(buckets: KeyedBucket[], emptySubAggs: InternalAggregation[] | null): InternalAggregation;

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    if (this.config.kind === null) return { collect() {} };
    const values = this.config.numbers(segment);
    const subs = this.subLeafCollectors(segment, scores);
    return {
      collect: (doc, owner) => {
        const count = values.read(doc);
        let previous = NaN;
        for (let i = 0; i < count; i++) {
          const key = this.keyOf(values.at(i));
          if (Number.isNaN(key) || key === previous) continue;
          previous = key;
          this.collectBucket(subs, doc, this.bucketOrd(owner, key));
        }
      },
    };
  }

  /** The ordinal of (owner, key); a new bucket is accounted for, and pledged at the top level (each is returned). */
  private bucketOrd(owner: number, key: number): number {
    const before = this.bucketOrds.size;
    const ord = this.bucketOrds.add(owner, key);
    if (this.bucketOrds.size !== before) {
      this.env.memory.add(this.spec.name, BUCKET_BYTES);
      if (this.topLevel) {
        this.pledged++;
        this.env.consumer.pledge(1);
      }
    }
    return ord;
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((owner) => {
      const ords = this.bucketOrds.ordsOf(owner);
      ords.sort((a, b) => this.bucketOrds.keyOf(a) - this.bucketOrds.keyOf(b));
      this.env.consumer.release(this.pledged);
      this.pledged = 0;
      this.env.consumer.accept(ords.length);
      const subAggs = this.buildSubAggregations(ords);
      const buckets = ords.map((ord, i) => ({ key: this.bucketKey(this.bucketOrds.keyOf(ord)), docCount: this.docCount(ord), aggs: subAggs[i]! }));
      return this.result(buckets, this.spec.minDocCount === 0 ? this.buildEmptySubAggregations() : null);
    });
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.result([], this.spec.minDocCount === 0 ? this.buildEmptySubAggregations() : null);
  }
}

export class HistogramAggregator extends AbstractHistogramAggregator {
  constructor(
    override readonly spec: HistogramSpec,
    env: AggregatorEnv,
    config: ValuesSourceConfig,
  ) {
    super(spec, env, config);
  }

  protected keyOf(value: number): number {
    const index = Math.floor((value - this.spec.offset) / this.spec.interval);
    return contains(this.spec.hardBounds, index * this.spec.interval) ? index : NaN;
  }

  protected bucketKey(index: number): number {
    return index * this.spec.interval + this.spec.offset;
  }

  protected result(buckets: KeyedBucket[], emptySubAggs: InternalAggregation[] | null): InternalHistogram {
    const spec = this.spec;
    let minBound = spec.extendedBounds?.min ?? Infinity;
    let maxBound = spec.extendedBounds?.max ?? -Infinity;
    // Empty buckets are never created outside the hard bounds.
    if (spec.hardBounds !== null) {
      if (spec.hardBounds.min !== null && Number.isFinite(minBound)) minBound = Math.max(minBound, spec.hardBounds.min);
      if (spec.hardBounds.max !== null && Number.isFinite(maxBound)) maxBound = Math.min(maxBound, spec.hardBounds.max);
    }
    return {
      name: spec.name,
      meta: spec.meta,
      type: 'histogram',
      format: this.config.format,
      keyed: spec.keyed,
      order: spec.order,
      minDocCount: spec.minDocCount,
      emptyBuckets: emptySubAggs === null ? null : { interval: spec.interval, offset: spec.offset, minBound, maxBound, subAggs: emptySubAggs },
      buckets,
    };
  }
}

function parseDateBound(value: DateBound, config: ValuesSourceConfig, now: number): number | null {
  if (value === null) return null;
  if (typeof value === 'number') return Math.trunc(value);
  const pattern = config.format.kind === 'date' ? config.format.pattern : 'strict_date_optional_time||epoch_millis';
  return parseDateMath(value, dateFormatter(pattern), { now: () => now, zone: config.zone });
}

export class DateHistogramAggregator extends AbstractHistogramAggregator {
  private readonly rounding: Rounding;
  private readonly interval: DateInterval;
  private readonly extendedBounds: { min: number | null; max: number | null } | null;
  private readonly hardBounds: { min: number | null; max: number | null } | null;

  constructor(
    override readonly spec: DateHistogramSpec,
    env: AggregatorEnv,
    config: ValuesSourceConfig,
  ) {
    super(spec, env, config);
    if (spec.interval === null) throw aggErrors.illegalArgument('Invalid interval specified, must be non-null and non-empty');
    if (spec.interval.kind === 'fixed' && spec.interval.millis < 1) throw aggErrors.illegalArgument('Zero or negative time interval not supported');
    this.interval = spec.interval.kind === 'calendar' ? { kind: 'calendar', unit: spec.interval.unit } : { kind: 'fixed', millis: spec.interval.millis };
    this.rounding = createRounding(this.interval, config.zone, spec.offset);
    const now = env.ctx.nowInMillis;
    // LongBounds.parseAndValidate(...).round(rounding): bounds are rounded without the offset.
    const round = (bounds: { min: DateBound; max: DateBound } | null, field: string): { min: number | null; max: number | null } | null => {
      if (bounds === null) return null;
      const min = parseDateBound(bounds.min, config, now);
      const max = parseDateBound(bounds.max, config, now);
      if (min !== null && max !== null && min > max) {
        throw aggErrors.illegalArgument(`[${field}.min][${min}] cannot be greater than [${field}.max][${max}] for histogram aggregation [${spec.name}]`);
      }
      const base = this.rounding.withoutOffset();
      return { min: min === null ? null : base.round(min), max: max === null ? null : base.round(max) };
    };
    this.extendedBounds = round(spec.extendedBounds, 'extended_bounds');
    this.hardBounds = round(spec.hardBounds, 'hard_bounds');
    const e = this.extendedBounds;
    const h = this.hardBounds;
    if (e !== null && h !== null && ((e.max !== null && h.max !== null && e.max > h.max) || (e.min !== null && h.min !== null && e.min < h.min))) {
      throw aggErrors.illegalArgument(
        `Extended bounds have to be inside hard bounds, hard bounds: [${h.min}--${h.max}], extended bounds: [${e.min}--${e.max}]`,
      );
    }
  }

  protected keyOf(value: number): number {
    const rounded = this.rounding.round(Math.trunc(value));
    return contains(this.hardBounds, rounded) ? rounded : NaN;
  }

  protected bucketKey(storedKey: number): number {
    return storedKey;
  }

  protected result(buckets: KeyedBucket[], emptySubAggs: InternalAggregation[] | null): InternalDateHistogram {
    const spec = this.spec;
    return {
      name: spec.name,
      meta: spec.meta,
      type: 'date_histogram',
      format: this.config.format,
      keyed: spec.keyed,
      order: spec.order,
      minDocCount: spec.minDocCount,
      offset: spec.offset,
      emptyBuckets: emptySubAggs === null ? null : { interval: this.interval, zone: this.config.zone, bounds: this.extendedBounds, subAggs: emptySubAggs },
      buckets,
    };
  }
}
