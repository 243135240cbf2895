/**
 * Ranges over the raw byte terms of sorted set doc values (Lucene's SortedSetDocValuesRangeQuery, what ES runs
 * for an ip field's term, terms, CIDR and range queries when it reads doc values): a document matches when one
 * of its terms lies in one of the inclusive byte ranges. Per segment each range becomes an interval of
 * ordinals (two lookups in the sorted terms), so matching compares integers. Every match scores the boost.
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

/** An inclusive range of terms. */
export interface BytesRange {
  readonly lower: Uint8Array;
  readonly upper: Uint8Array;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export class SortedSetRangesQuery extends Query {
  readonly ranges: readonly BytesRange[];

  constructor(
    readonly field: string,
    ranges: readonly BytesRange[],
    /** How toString prints a term (ip fields print addresses). */
    private readonly printTerm: (term: Uint8Array) => string = (term) => Buffer.from(term).toString('hex'),
  ) {
    super();
    this.ranges = ranges.filter((range) => compareBytes(range.lower, range.upper) <= 0);
  }

  override rewrite(_searcher: IndexSearcher): Query {
    return this.ranges.length === 0 ? new MatchNoDocsQuery('no range to match') : this;
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new RangesWeight(this, boost);
  }

  toString(field?: string): string {
    const prefix = this.field === field ? '' : `${this.field}:`;
    const one = (range: BytesRange): string =>
      compareBytes(range.lower, range.upper) === 0 ? `${prefix}${this.printTerm(range.lower)}` : `${prefix}[${this.printTerm(range.lower)} TO ${this.printTerm(range.upper)}]`;
    return this.ranges.length === 1 ? one(this.ranges[0]!) : `(${this.ranges.map(one).join(' ')})`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof SortedSetRangesQuery &&
      other.field === this.field &&
      other.ranges.length === this.ranges.length &&
      other.ranges.every((range, i) => compareBytes(range.lower, this.ranges[i]!.lower) === 0 && compareBytes(range.upper, this.ranges[i]!.upper) === 0)
    );
  }
}

class RangesWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: SortedSetRangesQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const values = leaf.readers.docValues.sortedSet(this.query.field);
    if (values === undefined || values.valueCount === 0) return null;
    // Each range as the inclusive ordinals [low, high] of the segment's terms inside it.
    const lows: number[] = [];
    const highs: number[] = [];
    for (const range of this.query.ranges) {
      const lowFound = values.lookupTerm(range.lower);
      const low = lowFound >= 0 ? lowFound : -lowFound - 1;
      const highFound = values.lookupTerm(range.upper);
      const high = highFound >= 0 ? highFound : -highFound - 2;
      if (low <= high) {
        lows.push(low);
        highs.push(high);
      }
    }
    if (lows.length === 0) return null;
    const count = lows.length;
    return new PredicateIterator(leaf.maxDoc, (doc) => {
      const end = values.docEnd(doc);
      for (let i = values.docStart(doc); i < end; i++) {
        const ord = values.ordAt(i);
        for (let r = 0; r < count; r++) if (ord >= lows[r]! && ord <= highs[r]!) return true;
      }
      return false;
    });
  }
}
