/**
 * Documents containing any of a set of terms of one field, every match scoring the boost (Lucene's
 * TermInSetQuery, ES `terms`). Per segment, the terms' postings are unioned into a bit set.
 */
import { POSTINGS_DOCS } from '../../../engine/codec/index.js';
import { BitSetIterator, FixedBitSet } from '../../core/bitset.js';
import { ConstantScoreWeight } from '../../core/constant-score-weight.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';

export class TermInSetQuery extends Query {
  /** Distinct, in byte order. */
  readonly terms: readonly Buffer[];

  constructor(
    readonly field: string,
    terms: readonly (string | Uint8Array)[],
  ) {
    super();
    const unique = new Map<string, Buffer>();
    for (const term of terms) {
      const bytes = typeof term === 'string' ? Buffer.from(term, 'utf8') : Buffer.from(term);
      unique.set(bytes.toString('latin1'), bytes);
    }
    this.terms = [...unique.values()].sort(Buffer.compare);
  }

  override rewrite(_searcher: IndexSearcher): Query {
    return this.terms.length === 0 ? new MatchNoDocsQuery('empty TermInSetQuery') : this;
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new TermInSetWeight(this, boost);
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}(${this.terms.map((term) => term.toString('utf8')).join(' ')})`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof TermInSetQuery &&
      other.field === this.field &&
      other.terms.length === this.terms.length &&
      other.terms.every((term, i) => term.equals(this.terms[i]!))
    );
  }
}

class TermInSetWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: TermInSetQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const fieldTerms = leaf.readers.terms.terms(this.query.field);
    if (fieldTerms === undefined) return null;
    const bits = new FixedBitSet(leaf.maxDoc);
    let any = false;
    for (const term of this.query.terms) {
      const state = fieldTerms.seekExact(term);
      if (state === null) continue;
      any = true;
      const postings = fieldTerms.postings(state, POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) bits.set(doc);
    }
    return any ? new BitSetIterator(bits) : null;
  }
}
