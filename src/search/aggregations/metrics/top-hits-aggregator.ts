/**
 * top_hits on one shard (ES's TopHitsAggregator): per bucket the best from + size documents by the requested
 * sort (score descending by default; fields sort ascending by their smallest value, descending by their
 * largest, missing values last), the number of documents collected and the best score. At build time the
 * kept documents are fetched (by the search layer's fetch when it provides one) and travel rendered.
 * An ip field sorts by its bytes (carried as hex, printed as the address, as ES formats a BytesRef sort value);
 * a date_nanos field sorts by its exact nanoseconds (BigInt), printed as that long, as ES does.
 */
import { filterSource } from '../../../mapping/source-filter.js';
import { ID_FIELD, SOURCE_FIELD } from '../../../engine/searcher.js';
import { EsError } from '../../../common/errors.js';
import { formatIp, hexToIp } from '../../../mapping/ip-address.js';
import { exactLongValues } from '../../fetch/doc-value-reader.js';
import { jsonFloat } from '../../../common/json-float.js';
import { aggErrors } from '../agg-errors.js';
import { Aggregator, type AggregatorEnv, type LeafCollector } from '../aggregator.js';
import { DEFAULT_MAX_INNER_RESULT_WINDOW, type ScoreSource, type TopHitRef } from '../context.js';
import type { InternalAggregation, TopHit } from '../internal.js';
import type { SortSpec, TopHitsSpec } from '../spec.js';
import { compareDoubles, compareTerms } from '../support/order-path.js';
import { resolveValuesSource, type ValuesSourceConfig } from '../support/values-source-config.js';
import type { AggregationSegment } from '../support/values.js';

type SortValue = number | bigint | string | null;

interface Candidate {
  readonly segment: AggregationSegment;
  readonly doc: number;
  readonly score: number;
  readonly sortValues: SortValue[];
}

/** Compares two sort value lists under the sort specs; null (missing) sorts last unless `missing: _first`. */
export function compareSortValues(sort: readonly SortSpec[], a: readonly SortValue[], b: readonly SortValue[]): number {
  for (let i = 0; i < sort.length; i++) {
    const spec = sort[i]!;
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null || y === null) {
      if (x === y) continue;
      const missingFirst = spec.missing === 'first';
      return (x === null) === missingFirst ? -1 : 1;
    }
    const result =
      typeof x === 'string' || typeof y === 'string'
        ? compareTerms(String(x), String(y))
        : typeof x === 'bigint' && typeof y === 'bigint'
          ? (x < y ? -1 : x > y ? 1 : 0)
          : compareDoubles(Number(x), Number(y));
    if (result !== 0) return spec.asc ? result : -result;
  }
  return 0;
}

/** The sort a top_hits uses: `_score` descending when none is given. */
export function effectiveSort(spec: TopHitsSpec): readonly SortSpec[] {
  return spec.sort.length === 0 ? [{ field: '_score', asc: false, missing: null }] : spec.sort;
}

export class TopHitsAggregator extends Aggregator {
  private readonly perBucket: Array<Candidate[] | undefined> = [];
  private readonly totals: number[] = [];
  private readonly maxScores: number[] = [];
  private readonly sort: readonly SortSpec[];
  private readonly fieldSources: Array<ValuesSourceConfig | null>;
  /** Per sort: whether the field is a date_nanos field, sorted on its exact nanoseconds. */
  private readonly nanos: boolean[];
  private readonly keep: number;
  private readonly scored: boolean;

  constructor(
    override readonly spec: TopHitsSpec,
    env: AggregatorEnv,
  ) {
    super(spec, env);
    const window = env.ctx.maxInnerResultWindow ?? DEFAULT_MAX_INNER_RESULT_WINDOW;
    if (spec.from + spec.size > window) {
      throw aggErrors.illegalArgument(
        `Top hits result window is too large, the top hits aggregator [${spec.name}]'s from + size must be less than or equal to: [${window}] but was [${spec.from + spec.size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
      );
    }
    this.sort = effectiveSort(spec);
    this.keep = spec.from + spec.size;
    this.scored = spec.trackScores || this.sort.some((s) => s.field === '_score');
    this.fieldSources = this.sort.map((s) => {
      if (s.field === '_score' || s.field === '_doc') return null;
      const fieldType = env.ctx.fieldType(s.field);
      if (fieldType === undefined) {
        throw new EsError('query_shard_exception', `No mapping found for [${s.field}] in order to sort on`);
      }
      const source = resolveValuesSource(
        { field: s.field, script: null, missing: undefined, format: null, timeZone: null, valueType: null },
        env.ctx,
        { aggregation: 'top_hits', allowed: ['keyword', 'long', 'double', 'date', 'boolean', 'bytes'], defaultKind: 'keyword' },
      );
      // Of the byte fields only ip sorts (binary fields have no sortable field data).
      if (source.kind === 'bytes' && source.format.kind !== 'ip') throw aggErrors.unsupportedFieldType(s.field, fieldType.typeName, 'top_hits');
      return source;
    });
    this.nanos = this.sort.map((s) => {
      const fieldType = s.field === '_score' || s.field === '_doc' ? undefined : env.ctx.fieldType(s.field);
      return fieldType?.family === 'date' && fieldType.nanos === true;
    });
  }

  override needsScores(): boolean {
    return this.scored;
  }

  getLeafCollector(segment: AggregationSegment, scores: ScoreSource): LeafCollector {
    const readers = this.sort.map((s, i) => {
      const source = this.fieldSources[i];
      if (source === null || source === undefined) return null;
      if (this.nanos[i] === true) {
        const exact = source.field === null ? null : exactLongValues(segment.readers, source.field, s.asc ? 'min' : 'max');
        return (doc: number): SortValue => exact?.value(doc) ?? (typeof s.missing === 'number' ? BigInt(Math.trunc(s.missing)) : null);
      }
      if (source.kind === 'keyword' || source.kind === 'bytes') {
        const ords = source.ords(segment);
        return (doc: number): SortValue => {
          const count = ords.read(doc);
          if (count === 0) return null;
          return ords.lookup(ords.at(s.asc ? 0 : count - 1));
        };
      }
      const numbers = source.numbers(segment);
      return (doc: number): SortValue => {
        const count = numbers.read(doc);
        if (count === 0) return typeof s.missing === 'number' ? s.missing : null;
        return numbers.at(s.asc ? 0 : count - 1);
      };
    });
    return {
      collect: (doc, bucket) => {
        this.totals[bucket] = (this.totals[bucket] ?? 0) + 1;
        const score = this.scored ? scores.score() : NaN;
        if (this.scored && !(score <= (this.maxScores[bucket] ?? -Infinity))) this.maxScores[bucket] = score;
        const sortValues = this.sort.map((s, i) => {
          if (s.field === '_score') return score;
          if (s.field === '_doc') return segment.docBase + doc;
          return readers[i]!(doc);
        });
        const candidate: Candidate = { segment, doc, score, sortValues };
        let hits = this.perBucket[bucket];
        if (hits === undefined) {
          hits = [];
          this.perBucket[bucket] = hits;
        }
        this.insert(hits, candidate);
      },
    };
  }

  private compare(a: Candidate, b: Candidate): number {
    const result = compareSortValues(this.sort, a.sortValues, b.sortValues);
    return result !== 0 ? result : a.segment.docBase + a.doc - (b.segment.docBase + b.doc);
  }

  /** Keeps the `from + size` best candidates, sorted. */
  private insert(hits: Candidate[], candidate: Candidate): void {
    if (this.keep === 0) return;
    if (hits.length === this.keep && this.compare(candidate, hits[hits.length - 1]!) >= 0) return;
    let i = hits.length;
    while (i > 0 && this.compare(candidate, hits[i - 1]!) < 0) i--;
    hits.splice(i, 0, candidate);
    if (hits.length > this.keep) hits.pop();
  }

  private fetch(hits: readonly Candidate[]): Array<Record<string, unknown>> {
    const refs: TopHitRef[] = hits.map((h) => ({ segment: h.segment, doc: h.doc, score: h.score, sortValues: h.sortValues }));
    const custom = this.env.ctx.fetchHits;
    if (custom !== undefined) return custom.call(this.env.ctx, refs, this.spec);
    return refs.map((ref) => this.defaultFetch(ref));
  }

  /** `_index`, `_id`, `_score`, `_source` (filtered) and `sort` from stored fields. */
  private defaultFetch(ref: TopHitRef): Record<string, unknown> {
    const stored = ref.segment.readers.stored.document(ref.doc);
    const hit: Record<string, unknown> = { _index: this.env.ctx.indexName };
    for (const field of stored) if (field.name === ID_FIELD) hit['_id'] = field.value;
    hit['_score'] = Number.isNaN(ref.score) ? null : jsonFloat(ref.score);
    const source = this.spec.fetchSource;
    if (source.fetch) {
      const raw = stored.find((f) => f.name === SOURCE_FIELD)?.value;
      if (raw instanceof Uint8Array) {
        const bytes = source.includes.length > 0 || source.excludes.length > 0 ? filterSource(raw, source.includes, source.excludes) : raw;
        hit['_source'] = JSON.parse(Buffer.from(bytes).toString('utf8'));
      }
    }
    if (this.spec.sort.length > 0) {
      // Doubles and scores are Java doubles on the wire ("10.0"); longs, dates and terms print as they are.
      hit['sort'] = ref.sortValues.map((value, i) => {
        const isDouble = this.sort[i]!.field === '_score' || this.fieldSources[i]?.kind === 'double';
        if (typeof value === 'string' && this.fieldSources[i]?.kind === 'bytes') return formatIp(hexToIp(value));
        return typeof value === 'number' && isDouble ? jsonFloat(value) : value;
      });
    }
    return hit;
  }

  private build(bucket: number): InternalAggregation {
    const hits = this.perBucket[bucket] ?? [];
    const rendered = this.fetch(hits);
    const topHits: TopHit[] = hits.map((h, i) => ({
      score: h.score,
      sortValues: h.sortValues,
      shardIndex: 0,
      docId: h.segment.docBase + h.doc,
      rendered: rendered[i]!,
    }));
    return {
      name: this.name,
      meta: this.spec.meta,
      type: 'top_hits',
      from: this.spec.from,
      size: this.spec.size,
      sort: this.sort,
      totalHits: this.totals[bucket] ?? 0,
      maxScore: this.scored ? (this.maxScores[bucket] ?? NaN) : NaN,
      hits: topHits,
    };
  }

  buildAggregations(owningBucketOrds: readonly number[]): InternalAggregation[] {
    return owningBucketOrds.map((ord) => this.build(ord));
  }

  buildEmptyAggregation(): InternalAggregation {
    return this.build(-1);
  }
}
