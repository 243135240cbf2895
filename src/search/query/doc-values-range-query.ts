/**
 * Numeric and date ranges over doc values (what ES's `range` runs for numeric and date fields when it reads
 * doc values; Lucene's SortedNumericDocValuesField.newSlowRangeQuery): a doc matches when any of its values
 * lies in the range. Every match scores the boost, as ES's range query does. Dates are epoch milliseconds.
 */
import { PredicateIterator } from '../core/bitset.js';
import { ConstantScoreWeight } from '../core/constant-score-weight.js';
import type { DocIdSetIterator } from '../core/doc-id-set-iterator.js';
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';
import { MatchNoDocsQuery } from './match-no-docs-query.js';

export interface RangeBounds {
  /** Inclusive lower bound; -Infinity for none. Exclusive bounds are expressed by the caller as the next value. */
  readonly lower: number;
  /** Inclusive upper bound; Infinity for none. */
  readonly upper: number;
}

export class DocValuesRangeQuery extends Query {
  constructor(
    readonly field: string,
    readonly lower: number,
    readonly upper: number,
  ) {
    super();
    if (Number.isNaN(lower) || Number.isNaN(upper)) throw new RangeError('range bounds must be numbers');
  }

  /** A range from ES-style bounds: `gt`/`lt` exclusive, for longs (next integer) or doubles (next double). */
  static fromBounds(field: string, kind: 'long' | 'double', bounds: { gte?: number; gt?: number; lte?: number; lt?: number }): DocValuesRangeQuery {
    const up = (value: number): number => (kind === 'long' ? Math.floor(value) + 1 : nextDouble(value, 1));
    const down = (value: number): number => (kind === 'long' ? Math.ceil(value) - 1 : nextDouble(value, -1));
    let lower = -Infinity;
    let upper = Infinity;
    if (bounds.gte !== undefined) lower = kind === 'long' ? Math.ceil(bounds.gte) : bounds.gte;
    if (bounds.gt !== undefined) lower = up(bounds.gt);
    if (bounds.lte !== undefined) upper = kind === 'long' ? Math.floor(bounds.lte) : bounds.lte;
    if (bounds.lt !== undefined) upper = down(bounds.lt);
    return new DocValuesRangeQuery(field, lower, upper);
  }

  override rewrite(_searcher: IndexSearcher): Query {
    return this.lower > this.upper ? new MatchNoDocsQuery('range is empty') : this;
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new RangeWeight(this, boost);
  }

  toString(field?: string): string {
    const bound = (value: number, open: string): string => (Number.isFinite(value) ? String(value) : open);
    return `${this.field === field ? '' : `${this.field}:`}[${bound(this.lower, '-Infinity')} TO ${bound(this.upper, 'Infinity')}]`;
  }

  equals(other: Query): boolean {
    return other instanceof DocValuesRangeQuery && other.field === this.field && other.lower === this.lower && other.upper === this.upper;
  }
}

const scratch = new Float64Array(1);
const scratchBits = new BigInt64Array(scratch.buffer);

/** The adjacent double above (direction 1) or below (-1). */
function nextDouble(value: number, direction: 1 | -1): number {
  if (!Number.isFinite(value)) return value;
  if (value === 0) return direction * Number.MIN_VALUE;
  scratch[0] = value;
  scratchBits[0] = scratchBits[0]! + BigInt((value > 0 ? 1 : -1) * direction);
  return scratch[0]!;
}

class RangeWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: DocValuesRangeQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const { field, lower, upper } = this.query;
    const docValues = leaf.readers.docValues;
    const single = docValues.numeric(field);
    if (single !== undefined) {
      if (single.docCount === 0) return null;
      return new PredicateIterator(leaf.maxDoc, (doc) => {
        if (!single.has(doc)) return false;
        const value = single.get(doc);
        return value >= lower && value <= upper;
      });
    }
    const multi = docValues.sortedNumeric(field);
    if (multi === undefined) return null;
    return new PredicateIterator(leaf.maxDoc, (doc) => {
      const end = multi.docEnd(doc);
      for (let i = multi.docStart(doc); i < end; i++) {
        const value = multi.valueAt(i);
        if (value >= lower && value <= upper) return true;
        if (value > upper) return false; // values are sorted
      }
      return false;
    });
  }
}
