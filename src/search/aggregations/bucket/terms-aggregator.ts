/**
 * The terms aggregation on one shard. Buckets are numbered per (parent bucket, term) pair; keyword terms get
 * a shard-wide id through a dictionary filled from each segment's ordinals (ES merges per-segment ordinals
 * into global ordinals by term bytes; this is the same mapping, built as segments are seen).
 *
 * At build time each parent bucket keeps its best `shard_size` buckets by the requested order (ties broken by
 * key ascending), counts every other document into `sum_other_doc_count`, and returns the kept buckets sorted
 * by key so the coordinating node can merge shards. shard_size defaults to size * 1.5 + 10 unless the order is
 * by key; min_doc_count 0 adds every term of the shard (every term of the segments' dictionaries for
 * keywords, every value of a live document for numbers) with a count of 0.
 */
import { aggErrors } from '../agg-errors.js';
import { BucketsAggregator, resolveSortValueGetter, type AggregatorEnv, type LeafCollector, type SortValueGetter } from '../aggregator.js';
import { BUCKET_BYTES, type ScoreSource } from '../context.js';
import type { InternalAggregation, InternalTerms, TermsBucket } from '../internal.js';
import type { IncludeExclude, TermsSpec } from '../spec.js';
import { KeyedBucketOrds } from '../support/arrays.js';
import { firstK } from '../support/top-k.js';
import { floorMod64, hashDouble, hashLong, murmur3x86, newHash64 } from '../support/hash64.js';
import { luceneRegExp } from '../support/lucene-regexp.js';
import { compareDoubles, compareTerms, parseOrderPath } from '../support/order-path.js';
import { parseBytesKey, usesOrds, type ValuesSourceConfig } from '../support/values-source-config.js';
import { MISSING_ORD, type AggregationSegment } from '../support/values.js';

const PARTITION_SEED = 31;

/** BucketUtils.suggestShardSideQueueSize plus BucketCountThresholds.ensureValidity. */
export function effectiveShardSize(spec: TermsSpec): number {
  const keyOrder = spec.order.elements[0]!.kind === 'key';
  let shardSize = spec.shardSize;
  if (!keyOrder && shardSize === -1) shardSize = Math.min(2147483647, Math.floor(spec.size * 1.5 + 10));
  return Math.max(shardSize, spec.size);
}

type Accept = (key: string | number) => boolean;

function acceptFilter(includeExclude: IncludeExclude | null, config: ValuesSourceConfig, name: string): Accept | null {
  if (includeExclude === null) return null;
  // ip and binary terms are keyed by the hex of their bytes; listed values are parsed by the field's format.
  const bytes = config.kind === 'bytes';
  const keyword = usesOrds(config.kind);
  if (includeExclude.kind === 'regex') {
    if (!keyword) {
      throw aggErrors.illegalArgument(
        `Aggregation [${name}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of numeric values for include/exclude clauses used to filter numeric fields`,
      );
    }
    const include = includeExclude.include === null ? null : luceneRegExp(includeExclude.include);
    const exclude = includeExclude.exclude === null ? null : luceneRegExp(includeExclude.exclude);
    return (key) => (include === null || include.test(key as string)) && (exclude === null || !exclude.test(key as string));
  }
  if (includeExclude.kind === 'set') {
    const convert = (v: string | number): string | number => (bytes ? parseBytesKey(config.format, String(v)) : keyword ? String(v) : Number(v));
    const include = includeExclude.include === null ? null : new Set(includeExclude.include.map(convert));
    const exclude = includeExclude.exclude === null ? null : new Set(includeExclude.exclude.map(convert));
    return (key) => (include === null || include.has(key)) && (exclude === null || !exclude.has(key));
  }
  const { partition, numPartitions } = includeExclude;
  if (keyword) {
    return (key) => {
      const hash = murmur3x86(Buffer.from(key as string, bytes ? 'hex' : 'utf8'), PARTITION_SEED);
      return ((hash % numPartitions) + numPartitions) % numPartitions === partition;
    };
  }
  const hash = newHash64();
  const hashValue = config.kind === 'double' ? hashDouble : hashLong;
  return (key) => {
    hashValue(key as number, hash);
    return floorMod64(hash[0]!, hash[1]!, numPartitions) === partition;
  };
}

export class TermsAggregator extends BucketsAggregator {
  private readonly bucketOrds = new KeyedBucketOrds();
  /** Keyword terms by shard-wide id (keyword fields only). */
  private readonly terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly accept: Accept | null;
  private readonly shardSize: number;
  private readonly shardMinDocCount: number;
  private readonly segments: AggregationSegment[] = [];
  private orderGetters: Array<SortValueGetter | null> = [];
  /** Buckets pledged to the consumer while collecting (see BucketConsumer.pledge). */
  private pledged = 0;

  constructor(
    override readonly spec: TermsSpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
    this.accept = acceptFilter(spec.includeExclude, config, spec.name);
    this.shardSize = effectiveShardSize(spec);
    this.shardMinDocCount = Math.min(spec.shardMinDocCount, spec.minDocCount);
  }

  /** Resolves sub-aggregation order paths once sub-aggregators exist (ES validates them at creation). */
  validateOrder(): void {
    this.orderGetters = this.spec.order.elements.map((element) =>
      element.kind === 'path' ? resolveSortValueGetter(this, parseOrderPath(element.path)) : null,
    );
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
      this.env.memory.add(this.spec.name, 2 * term.length + BUCKET_BYTES);
    }
    return id;
  }

  /**
   * The ordinal of (owner, key), creating it if needed. A new bucket is accounted for, and a top-level terms
   * aggregation whose every bucket will be a candidate (shard_min_doc_count at most 1) pledges it while it still
   * counts towards the shard_size it is certain to return.
   */
  private bucketOrd(owner: number, key: number): number {
    const before = this.bucketOrds.size;
    const ord = this.bucketOrds.add(owner, key);
    if (this.bucketOrds.size !== before) {
      this.env.memory.add(this.spec.name, BUCKET_BYTES);
      if (this.topLevel && this.shardMinDocCount <= 1 && this.pledged < this.shardSize) {
        this.pledged++;
        this.env.consumer.pledge(1);
      }
    }
    return ord;
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    const config = this.config;
    if (config.kind === null) return { collect() {} };
    if (this.spec.minDocCount === 0 && this.env.ctx.segments === undefined) this.segments.push(segment);
    const subs = this.subLeafCollectors(segment, scores);
    const accept = this.accept;
    if (usesOrds(config.kind)) {
      const ords = config.ords(segment);
      // Segment ordinal -> shard-wide term id (-1 unknown, -2 rejected by include/exclude); last slot is `missing`.
      const ids = new Int32Array(ords.valueCount + 1).fill(-1);
      return {
        collect: (doc, owner) => {
          const count = ords.read(doc);
          for (let i = 0; i < count; i++) {
            const ord = ords.at(i);
            const slot = ord === MISSING_ORD ? ords.valueCount : ord;
            let id = ids[slot]!;
            if (id === -1) {
              const term = ords.lookup(ord);
              id = accept === null || accept(term) ? this.termId(term) : -2;
              ids[slot] = id;
            }
            if (id < 0) continue;
            this.collectBucket(subs, doc, this.bucketOrd(owner, id));
          }
        },
      };
    }
    const values = config.numbers(segment);
    return {
      collect: (doc, owner) => {
        const count = values.read(doc);
        let previous = NaN;
        for (let i = 0; i < count; i++) {
          const value = values.at(i);
          if (i > 0 && value === previous) continue;
          previous = value;
          if (accept !== null && !accept(value)) continue;
          this.collectBucket(subs, doc, this.bucketOrd(owner, value));
        }
      },
    };
  }

  /** min_doc_count 0: every term of the shard becomes a (possibly empty) bucket of this owner. */
  private addZeroDocEntries(owner: number): void {
    const config = this.config;
    for (const segment of this.env.ctx.segments ?? this.segments) {
      if (usesOrds(config.kind)) {
        const ords = config.ords(segment);
        for (let ord = 0; ord < ords.valueCount; ord++) {
          const term = ords.lookup(ord);
          if (this.accept === null || this.accept(term)) this.bucketOrds.add(owner, this.termId(term));
        }
        continue;
      }
      const values = config.numbers(segment);
      const live = segment.liveDocs;
      for (let doc = 0; doc < segment.maxDoc; doc++) {
        if (live !== null && !live.isLive(doc)) continue;
        const count = values.read(doc);
        for (let i = 0; i < count; i++) {
          const value = values.at(i);
          if (this.accept === null || this.accept(value)) this.bucketOrds.add(owner, value);
        }
      }
    }
  }

  private keyOf(ord: number): string | number {
    const key = this.bucketOrds.keyOf(ord);
    return usesOrds(this.config.kind) ? this.terms[key]! : key;
  }

  private compareKeys(a: number, b: number): number {
    if (usesOrds(this.config.kind)) return compareTerms(this.terms[this.bucketOrds.keyOf(a)]!, this.terms[this.bucketOrds.keyOf(b)]!);
    return compareDoubles(this.bucketOrds.keyOf(a), this.bucketOrds.keyOf(b));
  }

  /** The shard's order over bucket ordinals, ending in the key tie-break. */
  private compareBuckets(a: number, b: number): number {
    const elements = this.spec.order.elements;
    for (let i = 0; i < elements.length; i++) {
      const element = elements[i]!;
      let result: number;
      if (element.kind === 'count') result = this.docCount(a) - this.docCount(b);
      else if (element.kind === 'key') result = this.compareKeys(a, b);
      else result = compareDoubles(this.orderGetters[i]!(a), this.orderGetters[i]!(b));
      if (result !== 0) return element.asc ? result : -result;
    }
    return 0;
  }

  private valueType(): InternalTerms['valueType'] {
    switch (this.config.kind) {
      case null:
        return 'unmapped';
      case 'keyword':
      case 'bytes':
        return 'string';
      case 'double':
        return 'double';
      default:
        return 'long';
    }
  }

  private result(buckets: TermsBucket[], otherDocCount: number): InternalTerms {
    const spec = this.spec;
    return {
      name: spec.name,
      meta: spec.meta,
      type: 'terms',
      valueType: this.valueType(),
      format: this.config.format,
      order: spec.order,
      requiredSize: spec.size,
      shardSize: this.shardSize,
      minDocCount: spec.minDocCount,
      showTermDocCountError: spec.showTermDocCountError,
      otherDocCount,
      docCountError: null,
      buckets,
    };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((owner) => {
      if (this.config.kind === null) return this.result([], 0);
      if (this.spec.minDocCount === 0) this.addZeroDocEntries(owner);
      let otherDocCount = 0;
      const candidates: number[] = [];
      for (const ord of this.bucketOrds.ordsOf(owner)) {
        const docCount = this.docCount(ord);
        otherDocCount += docCount;
        if (docCount >= this.shardMinDocCount) candidates.push(ord);
      }
      const top = firstK(candidates, this.shardSize, (a, b) => this.compareBuckets(a, b));
      for (const ord of top) otherDocCount -= this.docCount(ord);
      this.env.consumer.release(this.pledged);
      this.pledged = 0;
      this.env.consumer.accept(top.length);
      // Shards return buckets sorted by key so the coordinating node can merge them.
      top.sort((a, b) => this.compareKeys(a, b));
      const subAggs = this.buildSubAggregations(top);
      const buckets = top.map((ord, i) => ({ key: this.keyOf(ord), docCount: this.docCount(ord), docCountError: 0, aggs: subAggs[i]! }));
      return this.result(buckets, otherDocCount);
    });
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.result([], 0);
  }
}
