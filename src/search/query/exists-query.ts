/**
 * Documents that have a value in a field (ES `exists`; Lucene's FieldExistsQuery): read from doc values
 * when the field has them, else from norms (a text field with at least one token), else from the inverted
 * index (any term). Every match scores the boost.
 */
import { POSTINGS_DOCS } from '../../engine/codec/index.js';
import { BitSetIterator, FixedBitSet, PredicateIterator } from '../core/bitset.js';
import { ConstantScoreWeight } from '../core/constant-score-weight.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../core/doc-id-set-iterator.js';
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';

export class ExistsQuery extends Query {
  constructor(readonly field: string) {
    super();
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new ExistsWeight(this, boost);
  }

  toString(): string {
    return `FieldExistsQuery [field=${this.field}]`;
  }

  equals(other: Query): boolean {
    return other instanceof ExistsQuery && other.field === this.field;
  }
}

class ExistsWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: ExistsQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const field = this.query.field;
    const readers = leaf.readers;
    const info = readers.field(field);
    if (info === undefined) return null;
    const docValues = readers.docValues;
    const numeric = docValues.numeric(field);
    if (numeric !== undefined) return new PredicateIterator(leaf.maxDoc, (doc) => numeric.has(doc), numeric.docCount);
    const multiNumeric = docValues.sortedNumeric(field);
    if (multiNumeric !== undefined) return new PredicateIterator(leaf.maxDoc, (doc) => multiNumeric.docEnd(doc) > multiNumeric.docStart(doc));
    const sorted = docValues.sorted(field);
    if (sorted !== undefined) return new PredicateIterator(leaf.maxDoc, (doc) => sorted.ord(doc) >= 0);
    const sortedSet = docValues.sortedSet(field);
    if (sortedSet !== undefined) return new PredicateIterator(leaf.maxDoc, (doc) => sortedSet.docEnd(doc) > sortedSet.docStart(doc));
    const norms = readers.norms.get(field);
    // A norm of 0 means the field was present but produced no token: Lucene writes no norm then.
    if (norms !== undefined) return new PredicateIterator(leaf.maxDoc, (doc) => norms[doc] !== 0);
    const fieldTerms = readers.terms.terms(field);
    if (fieldTerms === undefined) return null;
    const bits = new FixedBitSet(leaf.maxDoc);
    const termsEnum = fieldTerms.iterator();
    while (termsEnum.next()) {
      const postings = termsEnum.postings(POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) bits.set(doc);
    }
    return new BitSetIterator(bits);
  }
}
