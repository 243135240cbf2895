/**
 * percentiles and percentile_ranks on one shard: a t-digest of the values per bucket ordinal, shipped whole
 * (compressed) to the coordinating node, which merges them. The two differ only in what they read from the
 * digest: quantiles at the requested percents, or the cdf at the requested values (ES's
 * AbstractTDigestPercentilesAggregator and its two subclasses).
 */
import { aggErrors } from '../agg-errors.js';
import { Aggregator, type AggregatorEnv, type LeafCollector, type SortValueGetter } from '../aggregator.js';
import type { InternalAggregation } from '../internal.js';
import type { PercentileRanksSpec, PercentilesSpec } from '../spec.js';
import { pathToString, type PathElement } from '../support/order-path.js';
import type { ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';
import { TDigest, percentileRank } from './tdigest.js';

abstract class TDigestAggregator extends Aggregator {
  protected readonly digests: Array<TDigest | undefined> = [];

  constructor(
    override readonly spec: PercentilesSpec | PercentileRanksSpec,
    env: AggregatorEnv,
    protected readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
  }

  getLeafCollector(segment: AggregationSegment): LeafCollector {
    if (this.config.kind === null) return { collect() {} };
    const values = this.config.numbers(segment);
    return {
      collect: (doc, bucket) => {
        const count = values.read(doc);
        if (count === 0) return;
        let digest = this.digests[bucket];
        if (digest === undefined) {
          digest = new TDigest(this.spec.compression);
          this.digests[bucket] = digest;
        }
        for (let i = 0; i < count; i++) digest.add(values.at(i));
      },
    };
  }

  protected abstract build(digest: TDigest | undefined): InternalAggregation;

  /** The value a bucket order reads for one key (a percent, or a value whose rank is asked). */
  protected abstract valueAt(digest: TDigest, key: number): number;

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((ord) => this.build(this.digests[ord]));
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.build(undefined);
  }

  override sortValueGetter(path: readonly PathElement[], index: number): SortValueGetter {
    if (index < path.length - 1) return super.sortValueGetter(path, index);
    const key = path[index]!.key;
    if (key === null) {
      throw aggErrors.invalidOrderPath(pathToString(path), 'When ordering on a multi-value metrics aggregation a metric name must be specified.');
    }
    const number = Number(key);
    if (Number.isNaN(number)) throw aggErrors.invalidOrderPath(pathToString(path), `Unknown metric name [${key}] on multi-value metrics aggregation [${this.name}]`);
    return (ord) => {
      const digest = this.digests[ord];
      return digest === undefined ? NaN : this.valueAt(digest, number);
    };
  }
}

export class PercentilesAggregator extends TDigestAggregator {
  declare readonly spec: PercentilesSpec;

  protected build(digest: TDigest | undefined): InternalAggregation {
    return {
      name: this.name,
      meta: this.spec.meta,
      type: 'percentiles',
      percents: this.spec.percents,
      state: digest === undefined ? null : digest.state(),
      keyed: this.spec.keyed,
      format: this.config.format,
    };
  }

  protected valueAt(digest: TDigest, percent: number): number {
    return digest.quantile(percent / 100);
  }
}

export class PercentileRanksAggregator extends TDigestAggregator {
  declare readonly spec: PercentileRanksSpec;

  protected build(digest: TDigest | undefined): InternalAggregation {
    return {
      name: this.name,
      meta: this.spec.meta,
      type: 'percentile_ranks',
      values: this.spec.values,
      state: digest === undefined ? null : digest.state(),
      keyed: this.spec.keyed,
      format: this.config.format,
    };
  }

  /** InternalTDigestPercentileRanks.percentileRank on the live digest. */
  protected valueAt(digest: TDigest, value: number): number {
    return percentileRank(digest.cdf(value));
  }
}
