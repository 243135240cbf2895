/**
 * range and date_range on one shard (ES's RangeAggregator): ranges are sorted by (from, to); a document
 * counts once in every range [from, to) one of its values falls in. Bounds given as strings are parsed with
 * the field's format (date math and the time zone for dates), keys default to "from-to" printed with the
 * format, "*" for an open end.
 */
import { dateFormatter } from '../../../mapping/date/date-formatter.js';
import { parseDateMath } from '../../../mapping/date/date-math.js';
import { aggErrors } from '../agg-errors.js';
import { BucketsAggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import type { ScoreSource } from '../context.js';
import type { InternalAggregation, InternalRange, RangeBucket } from '../internal.js';
import type { RangeSpec } from '../spec.js';
import { formatDouble } from '../support/doc-value-format.js';
import { compareDoubles } from '../support/order-path.js';
import type { ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';

interface ResolvedRange {
  readonly key: string;
  readonly from: number;
  readonly to: number;
}

function parseBound(value: number | string | null, open: number, config: ValuesSourceConfig, now: number): number {
  if (value === null) return open;
  const format = config.format;
  if (format.kind === 'date') {
    const text = typeof value === 'number' ? String(Math.trunc(value)) : value;
    return parseDateMath(text, dateFormatter(format.pattern), { now: () => now, zone: config.zone });
  }
  if (typeof value === 'number') return value;
  const parsed = Number(value.trim());
  if (value.trim() === '' || Number.isNaN(parsed)) throw aggErrors.numberFormat(value);
  return parsed;
}

export class RangeAggregator extends BucketsAggregator {
  private readonly ranges: ResolvedRange[];

  constructor(
    override readonly spec: RangeSpec,
    env: AggregatorEnv,
    private readonly config: ValuesSourceConfig,
  ) {
    super(spec, env);
    const now = env.ctx.nowInMillis;
    const ranges = spec.ranges.map((range) => {
      const from = parseBound(range.from, -Infinity, config, now);
      const to = parseBound(range.to, Infinity, config, now);
      const key =
        range.key ??
        `${Number.isFinite(from) ? formatDouble(config.format, from) : '*'}-${Number.isFinite(to) ? formatDouble(config.format, to) : '*'}`;
      return { key, from, to };
    });
    ranges.sort((a, b) => compareDoubles(a.from, b.from) || compareDoubles(a.to, b.to));
    this.ranges = ranges;
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    if (this.config.kind === null) return { collect() {} };
    const values = this.config.numbers(segment);
    const subs = this.subLeafCollectors(segment, scores);
    const ranges = this.ranges;
    const rangeCount = ranges.length;
    // The last document each range collected, so a multi-valued document counts once per range.
    const lastDoc = new Float64Array(rangeCount).fill(-1);
    const lastOwner = new Float64Array(rangeCount).fill(-1);
    return {
      collect: (doc, owner) => {
        const count = values.read(doc);
        for (let i = 0; i < count; i++) {
          const value = values.at(i);
          for (let r = 0; r < rangeCount; r++) {
            const range = ranges[r]!;
            if (value >= range.from && value < range.to && (lastDoc[r] !== doc || lastOwner[r] !== owner)) {
              lastDoc[r] = doc;
              lastOwner[r] = owner;
              this.collectBucket(subs, doc, owner * rangeCount + r);
            }
          }
        }
      },
    };
  }

  private result(buckets: RangeBucket[]): InternalRange {
    return { name: this.name, meta: this.spec.meta, type: this.spec.type, format: this.config.format, keyed: this.spec.keyed, buckets };
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
