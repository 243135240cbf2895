/**
 * filter, filters and missing on one shard. filter and missing are single-bucket: a document is collected
 * under its parent's ordinal, so parents can sort on them. filters numbers (parent, filter) pairs; a
 * document counts in every filter it matches, and in the other bucket when it matches none.
 */
import { BucketsAggregator, SingleBucketAggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import type { CompiledFilter, ScoreSource } from '../context.js';
import type { FiltersBucket, InternalAggregation, InternalFilters, InternalSingleBucket } from '../internal.js';
import type { FilterSpec, FiltersSpec, MissingSpec } from '../spec.js';
import { usesOrds, type ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';

abstract class SingleBucket extends SingleBucketAggregator {
  protected result(docCount: number, aggs: InternalAggregation[]): InternalSingleBucket {
    return { name: this.name, meta: this.spec.meta, type: this.spec.type as 'filter' | 'missing', docCount, aggs };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    const subAggs = this.buildSubAggregations(owningBucketOrds);
    return owningBucketOrds.map((ord, i) => this.result(this.docCount(ord), subAggs[i]!));
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.result(0, this.buildEmptySubAggregations());
  }
}

export class FilterAggregator extends SingleBucket {
  private readonly filter: CompiledFilter;

  constructor(
    override readonly spec: FilterSpec,
    env: AggregatorEnv,
  ) {
    super(spec, env);
    this.filter = env.ctx.compileFilter(spec.query);
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    const matcher = this.filter.forSegment(segment);
    const subs = this.subLeafCollectors(segment, scores);
    return {
      collect: (doc, owner) => {
        if (matcher.matches(doc)) this.collectBucket(subs, doc, owner);
      },
    };
  }
}

export class MissingAggregator extends SingleBucket {
  constructor(
    override readonly spec: MissingSpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    const subs = this.subLeafCollectors(segment, scores);
    const config = this.config;
    if (config.kind === null) return { collect: (doc, owner) => this.collectBucket(subs, doc, owner) };
    const values = usesOrds(config.kind) ? config.ords(segment) : config.numbers(segment);
    return {
      collect: (doc, owner) => {
        if (values.read(doc) === 0) this.collectBucket(subs, doc, owner);
      },
    };
  }
}

export class FiltersAggregator extends BucketsAggregator {
  private readonly filters: CompiledFilter[];
  private readonly bucketsPerOwner: number;

  constructor(
    override readonly spec: FiltersSpec,
    env: AggregatorEnv,
  ) {
    super(spec, env);
    this.filters = spec.filters.map((f) => env.ctx.compileFilter(f.query));
    this.bucketsPerOwner = spec.filters.length + (spec.otherBucket ? 1 : 0);
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    const matchers = this.filters.map((f) => f.forSegment(segment));
    const subs = this.subLeafCollectors(segment, scores);
    const other = this.spec.otherBucket;
    const perOwner = this.bucketsPerOwner;
    return {
      collect: (doc, owner) => {
        let matched = false;
        for (let i = 0; i < matchers.length; i++) {
          if (matchers[i]!.matches(doc)) {
            matched = true;
            this.collectBucket(subs, doc, owner * perOwner + i);
          }
        }
        if (other && !matched) this.collectBucket(subs, doc, owner * perOwner + matchers.length);
      },
    };
  }

  private keys(): string[] {
    const keys = this.spec.filters.map((f) => f.key);
    if (this.spec.otherBucket) keys.push(this.spec.otherBucketKey);
    return keys;
  }

  private result(buckets: FiltersBucket[]): InternalFilters {
    return { name: this.name, meta: this.spec.meta, type: 'filters', keyed: this.spec.keyed, buckets };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    const keys = this.keys();
    return owningBucketOrds.map((owner) => {
      const ords = keys.map((_, i) => owner * this.bucketsPerOwner + i);
      this.env.consumer.accept(ords.length);
      const subAggs = this.buildSubAggregations(ords);
      return this.result(keys.map((key, i) => ({ key, docCount: this.docCount(ords[i]!), aggs: subAggs[i]! })));
    });
  }

  buildEmptyAggregation(): InternalAggregation {
    const subAggs = this.buildEmptySubAggregations();
    return this.result(this.keys().map((key) => ({ key, docCount: 0, aggs: subAggs })));
  }
}
