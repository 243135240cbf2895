/**
 * An inclusive range over long doc values with exact 64-bit bounds (SortedNumericDocValuesField.newSlowRangeQuery
 * on longs beyond 2^53: date_nanos timestamps, large longs). DocValuesRangeQuery compares JS numbers, which
 * round such values to a few hundred nanoseconds; this one never does. Per segment the bounds become an
 * interval of the column's deltas ((value - min) / gcd), so matching compares plain numbers whenever a
 * segment's spread of values fits 2^53, and BigInts otherwise. Every match scores the boost.
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

export class ExactLongRangeQuery extends Query {
  constructor(
    readonly field: string,
    readonly lower: bigint,
    readonly upper: bigint,
  ) {
    super();
  }

  override rewrite(_searcher: IndexSearcher): Query {
    return this.lower > this.upper ? new MatchNoDocsQuery('range is empty') : this;
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new ExactRangeWeight(this, boost);
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}[${this.lower} TO ${this.upper}]`;
  }

  equals(other: Query): boolean {
    return other instanceof ExactLongRangeQuery && other.field === this.field && other.lower === this.lower && other.upper === this.upper;
  }
}

class ExactRangeWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: ExactLongRangeQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const { field, lower, upper } = this.query;
    const docValues = leaf.readers.docValues;
    const multi = docValues.sortedNumeric(field);
    if (multi !== undefined) {
      if (multi.kind !== 'long') {
        const low = Number(lower);
        const high = Number(upper);
        return new PredicateIterator(leaf.maxDoc, (doc) => {
          const end = multi.docEnd(doc);
          for (let i = multi.docStart(doc); i < end; i++) {
            const value = multi.valueAt(i);
            if (value >= low && value <= high) return true;
          }
          return false;
        });
      }
      if (multi.deltasExact) {
        const { low, high } = multi.deltaRange(lower, upper);
        if (low > high) return null;
        return new PredicateIterator(leaf.maxDoc, (doc) => {
          const end = multi.docEnd(doc);
          for (let i = multi.docStart(doc); i < end; i++) {
            const delta = multi.deltaAt(i);
            if (delta >= low && delta <= high) return true;
            if (delta > high) return false; // values are sorted
          }
          return false;
        });
      }
      return new PredicateIterator(leaf.maxDoc, (doc) => {
        const end = multi.docEnd(doc);
        for (let i = multi.docStart(doc); i < end; i++) {
          const value = multi.bigIntAt(i);
          if (value >= lower && value <= upper) return true;
          if (value > upper) return false;
        }
        return false;
      });
    }
    const single = docValues.numeric(field);
    if (single === undefined || single.docCount === 0) return null;
    if (single.kind === 'double') {
      const low = Number(lower);
      const high = Number(upper);
      return new PredicateIterator(leaf.maxDoc, (doc) => single.has(doc) && single.get(doc) >= low && single.get(doc) <= high);
    }
    return new PredicateIterator(leaf.maxDoc, (doc) => {
      if (!single.has(doc)) return false;
      const value = single.getBigInt(doc);
      return value >= lower && value <= upper;
    });
  }
}
