/**
 * min, max, sum, avg, value_count, stats and extended_stats on one shard: per bucket ordinal a count, a
 * Kahan-compensated sum (and sum of squares), a minimum and a maximum, updated from every value of every
 * collected document (ES's MinAggregator, SumAggregator, StatsAggregator, ...).
 */
import { aggErrors } from '../agg-errors.js';
import { Aggregator, type AggregatorEnv, type LeafCollector, type SortValueGetter } from '../aggregator.js';
import type { InternalAggregation } from '../internal.js';
import type { ExtendedStatsSpec, SimpleMetricSpec } from '../spec.js';
import { CompensatedSums, DoubleArray } from '../support/arrays.js';
import { EXTENDED_STATS_METRICS, pathToString, STATS_METRICS, type PathElement } from '../support/order-path.js';
import { usesOrds, type ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';
import { extendedStatsValue, statsValue } from './stats-values.js';

type Spec = SimpleMetricSpec | ExtendedStatsSpec;

export class NumericMetricsAggregator extends Aggregator {
  private readonly counts = new DoubleArray();
  private readonly sums = new CompensatedSums();
  private readonly squares = new CompensatedSums();
  private readonly mins = new DoubleArray(16, Infinity);
  private readonly maxs = new DoubleArray(16, -Infinity);

  constructor(
    override readonly spec: Spec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
  }

  getLeafCollector(segment: AggregationSegment): LeafCollector {
    const config = this.config;
    if (config.kind === null) return { collect() {} };
    const type = this.spec.type;
    if (type === 'value_count') {
      const values = usesOrds(config.kind) ? config.ords(segment) : config.numbers(segment);
      return { collect: (doc, bucket) => this.counts.increment(bucket, values.read(doc)) };
    }
    const values = config.numbers(segment);
    const needSums = type !== 'min' && type !== 'max';
    const needMin = type === 'min' || type === 'stats' || type === 'extended_stats';
    const needMax = type === 'max' || type === 'stats' || type === 'extended_stats';
    const needSquares = type === 'extended_stats';
    return {
      collect: (doc, bucket) => {
        const count = values.read(doc);
        if (count === 0) return;
        this.counts.increment(bucket, count);
        if (needMin) {
          const min = values.at(0);
          if (min < this.mins.get(bucket)) this.mins.set(bucket, min);
        }
        if (needMax) {
          const max = values.at(count - 1);
          if (max > this.maxs.get(bucket)) this.maxs.set(bucket, max);
        }
        if (needSums) {
          for (let i = 0; i < count; i++) {
            const value = values.at(i);
            this.sums.add(bucket, value);
            if (needSquares) this.squares.add(bucket, value * value);
          }
        }
      },
    };
  }

  private build(bucket: number): InternalAggregation {
    const base = { name: this.name, meta: this.spec.meta };
    const format = this.config.format;
    const spec = this.spec;
    switch (spec.type) {
      case 'min':
        return { ...base, type: 'min', value: this.mins.get(bucket), format };
      case 'max':
        return { ...base, type: 'max', value: this.maxs.get(bucket), format };
      case 'sum':
        return { ...base, type: 'sum', sum: this.sums.get(bucket), format };
      case 'avg':
        return { ...base, type: 'avg', sum: this.sums.get(bucket), count: this.counts.get(bucket), format };
      case 'value_count':
        return { ...base, type: 'value_count', value: this.counts.get(bucket) };
      case 'stats':
        return { ...base, type: 'stats', count: this.counts.get(bucket), sum: this.sums.get(bucket), min: this.mins.get(bucket), max: this.maxs.get(bucket), format };
      case 'extended_stats':
        return {
          ...base,
          type: 'extended_stats',
          count: this.counts.get(bucket),
          sum: this.sums.get(bucket),
          min: this.mins.get(bucket),
          max: this.maxs.get(bucket),
          sumOfSquares: this.squares.get(bucket),
          sigma: spec.sigma,
          format,
        };
    }
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((ord) => this.build(ord));
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.build(Number.MAX_SAFE_INTEGER);
  }

  override sortValueGetter(path: readonly PathElement[], index: number): SortValueGetter {
    const element = path[index]!;
    if (index < path.length - 1) return super.sortValueGetter(path, index);
    const type = this.spec.type;
    if (type === 'stats' || type === 'extended_stats') {
      const key = element.key;
      if (key === null) {
        throw aggErrors.invalidOrderPath(pathToString(path), 'When ordering on a multi-value metrics aggregation a metric name must be specified.');
      }
      const names = type === 'stats' ? STATS_METRICS : EXTENDED_STATS_METRICS;
      if (!names.has(key)) throw aggErrors.invalidOrderPath(pathToString(path), `Unknown metric name [${key}] on multi-value metrics aggregation [${this.name}]`);
      const sigma = this.spec.type === 'extended_stats' ? this.spec.sigma : 0;
      return (ord) => {
        const totals = { count: this.counts.get(ord), sum: this.sums.get(ord), min: this.mins.get(ord), max: this.maxs.get(ord), sumOfSquares: this.squares.get(ord), sigma };
        return type === 'stats' ? statsValue(key, totals) : extendedStatsValue(key, totals);
      };
    }
    if (element.key !== null && element.key !== 'value') throw singleValueKeyError(path, this.name);
    switch (type) {
      case 'min':
        return (ord) => this.mins.get(ord);
      case 'max':
        return (ord) => this.maxs.get(ord);
      case 'sum':
        return (ord) => this.sums.get(ord);
      case 'avg':
        return (ord) => this.sums.get(ord) / this.counts.get(ord);
      case 'value_count':
        return (ord) => this.counts.get(ord);
    }
  }

  override needsScores(): boolean {
    return false;
  }
}

export function singleValueKeyError(path: readonly PathElement[], name: string): Error {
  return aggErrors.invalidOrderPath(
    pathToString(path),
    `Ordering on a single-value metrics aggregation can only be done on its value. Either drop the key (a.k.a. [${name}]) or change it to "value" (a.k.a. [${name}.value])`,
  );
}

