/**
 * cardinality on one shard: a HyperLogLog++ sketch of value hashes per bucket ordinal, shipped whole to the
 * coordinating node, which merges them (percentiles and percentile_ranks: tdigest-aggregators.ts).
 *
 * Cardinality hashes values as ES does: terms by MurmurHash3 x64-128 (h1) of their UTF-8 bytes, computed
 * once per segment ordinal; longs, dates and booleans by BitMixer.mix64; doubles by mix64 of their bits.
 */
import { Aggregator, type AggregatorEnv, type LeafCollector, type SortValueGetter } from '../aggregator.js';
import type { InternalAggregation } from '../internal.js';
import type { CardinalitySpec } from '../spec.js';
import { hashDouble, hashLong, murmur3x64h1, newHash64 } from '../support/hash64.js';
import type { PathElement } from '../support/order-path.js';
import { usesOrds, type ValuesSourceConfig } from '../support/values-source-config.js';
import { MISSING_ORD, type AggregationSegment } from '../support/values.js';
import { DEFAULT_PRECISION, HyperLogLogPlusPlus, precisionFromThreshold } from './hyperloglog.js';
import { singleValueKeyError } from './numeric-metrics.js';

export class CardinalityAggregator extends Aggregator {
  private readonly sketches: Array<HyperLogLogPlusPlus | undefined> = [];
  private readonly precision: number;

  constructor(
    override readonly spec: CardinalitySpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
    this.precision = spec.precisionThreshold === null ? DEFAULT_PRECISION : precisionFromThreshold(spec.precisionThreshold);
  }

  private sketch(bucket: number): HyperLogLogPlusPlus {
    let sketch = this.sketches[bucket];
    if (sketch === undefined) {
      sketch = new HyperLogLogPlusPlus(this.precision);
      this.sketches[bucket] = sketch;
    }
    return sketch;
  }

  getLeafCollector(segment: AggregationSegment): LeafCollector {
    const config = this.config;
    if (config.kind === null) return { collect() {} };
    const hash = newHash64();
    if (usesOrds(config.kind)) {
      const ords = config.ords(segment);
      // Hashes of the segment's terms, computed on first use: [hi, lo] per ordinal, plus one for `missing`.
      const his = new Uint32Array(ords.valueCount + 1);
      const los = new Uint32Array(ords.valueCount + 1);
      const known = new Uint8Array(ords.valueCount + 1);
      return {
        collect: (doc, bucket) => {
          const count = ords.read(doc);
          for (let i = 0; i < count; i++) {
            const ord = ords.at(i);
            const slot = ord === MISSING_ORD ? ords.valueCount : ord;
            if (known[slot] === 0) {
              murmur3x64h1(ords.lookupBytes(ord), hash);
              his[slot] = hash[0]!;
              los[slot] = hash[1]!;
              known[slot] = 1;
            }
            this.sketch(bucket).collect(his[slot]!, los[slot]!);
          }
        },
      };
    }
    const values = config.numbers(segment);
    const hashValue = config.kind === 'double' ? hashDouble : hashLong;
    return {
      collect: (doc, bucket) => {
        const count = values.read(doc);
        for (let i = 0; i < count; i++) {
          hashValue(values.at(i), hash);
          this.sketch(bucket).collect(hash[0]!, hash[1]!);
        }
      },
    };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((ord) => ({
      name: this.name,
      meta: this.spec.meta,
      type: 'cardinality' as const,
      sketch: this.config.kind === null ? null : (this.sketches[ord] ?? new HyperLogLogPlusPlus(this.precision)).state(),
    }));
  }

  buildEmptyAggregation(): InternalAggregation {
    return { name: this.name, meta: this.spec.meta, type: 'cardinality', sketch: null };
  }

  override sortValueGetter(path: readonly PathElement[], index: number): SortValueGetter {
    if (index < path.length - 1) return super.sortValueGetter(path, index);
    const key = path[index]!.key;
    if (key !== null && key !== 'value') throw singleValueKeyError(path, this.name);
    return (ord) => this.sketches[ord]?.cardinality() ?? 0;
  }
}
