/**
 * ip_range on one shard (ES's BinaryRangeAggregator over an ip field's sorted set doc values): ranges are sorted
 * by `from` (open first) then `to` (open last); a document counts once in every range [from, to) one of its
 * addresses falls in. Per segment each range becomes an interval of ordinals, found once by looking its bounds
 * up in the segment's sorted terms, so collecting compares small integers, not bytes.
 */
import { BucketsAggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import type { ScoreSource } from '../context.js';
import type { InternalAggregation, InternalIpRange, IpRangeBucket } from '../internal.js';
import type { IpRangeEntry, IpRangeSpec } from '../spec.js';
import type { ValuesSourceConfig } from '../support/values-source-config.js';
import { MISSING_ORD, type AggregationSegment } from '../support/values.js';

/** BinaryRangeAggregator.RANGE_COMPARATOR over hex bounds (hex sorts as the bytes do). */
function compareRanges(a: IpRangeEntry, b: IpRangeEntry): number {
  const bound = (x: string | null, y: string | null, nullSign: number): number => (x === null ? (y === null ? 0 : -nullSign) : y === null ? nullSign : x < y ? -1 : x > y ? 1 : 0);
  return bound(a.from, b.from, 1) || bound(a.to, b.to, -1);
}

/** Where `hex` falls among sorted terms: the ord of the first term >= it (or termCount). */
function ceilingOrd(lookupTerm: (bytes: Uint8Array) => number, hex: string): number {
  const found = lookupTerm(Buffer.from(hex, 'hex'));
  return found >= 0 ? found : -found - 1;
}

export class IpRangeAggregator extends BucketsAggregator {
  private readonly ranges: IpRangeEntry[];

  constructor(
    override readonly spec: IpRangeSpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
    this.ranges = [...spec.ranges].sort(compareRanges);
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    if (this.config.kind === null) return { collect() {} };
    const ords = this.config.ords(segment);
    const subs = this.subLeafCollectors(segment, scores);
    const ranges = this.ranges;
    const rangeCount = ranges.length;
    const sortedSet = this.config.field === null ? undefined : segment.readers.docValues.sortedSet(this.config.field);
    // Inclusive ordinal bounds per range in this segment, and whether the `missing` address falls in it.
    const lowOrd = new Float64Array(rangeCount);
    const highOrd = new Float64Array(rangeCount);
    const missingIn = new Uint8Array(rangeCount);
    const missingHex = this.config.missingTerm;
    for (let r = 0; r < rangeCount; r++) {
      const range = ranges[r]!;
      if (sortedSet !== undefined) {
        const lookup = (bytes: Uint8Array): number => sortedSet.lookupTerm(bytes);
        lowOrd[r] = range.from === null ? 0 : ceilingOrd(lookup, range.from);
        highOrd[r] = (range.to === null ? sortedSet.valueCount : ceilingOrd(lookup, range.to)) - 1;
      } else {
        lowOrd[r] = 0;
        highOrd[r] = -1;
      }
      if (missingHex !== null) missingIn[r] = (range.from === null || missingHex >= range.from) && (range.to === null || missingHex < range.to) ? 1 : 0;
    }
    // The last document each range collected, so a document with several addresses counts once per range.
    const lastDoc = new Float64Array(rangeCount).fill(-1);
    const lastOwner = new Float64Array(rangeCount).fill(-1);
    return {
      collect: (doc, owner) => {
        const count = ords.read(doc);
        for (let i = 0; i < count; i++) {
          const ord = ords.at(i);
          for (let r = 0; r < rangeCount; r++) {
            const inRange = ord === MISSING_ORD ? missingIn[r] === 1 : ord >= lowOrd[r]! && ord <= highOrd[r]!;
            if (inRange && (lastDoc[r] !== doc || lastOwner[r] !== owner)) {
              lastDoc[r] = doc;
              lastOwner[r] = owner;
              this.collectBucket(subs, doc, owner * rangeCount + r);
            }
          }
        }
      },
    };
  }

  private result(buckets: IpRangeBucket[]): InternalIpRange {
    return { name: this.name, meta: this.spec.meta, type: 'ip_range', keyed: this.spec.keyed, buckets };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    const rangeCount = this.ranges.length;
    return owningBucketOrds.map((owner) => {
      const ords = this.ranges.map((_, r) => owner * rangeCount + r);
      this.env.consumer.accept(ords.length);
      const subAggs = this.buildSubAggregations(ords);
      return this.result(this.ranges.map((range, r) => ({ ...range, docCount: this.docCount(ords[r]!), aggs: subAggs[r]! })));
    });
  }

  buildEmptyAggregation(): InternalAggregation {
    const subAggs = this.buildEmptySubAggregations();
    return this.result(this.ranges.map((range) => ({ ...range, docCount: 0, aggs: subAggs })));
  }
}
