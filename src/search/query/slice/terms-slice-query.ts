/**
 * Slices a shard by the hash of each document's term in a field (ES's TermsSliceQuery, used for `_id`):
 * per segment, walk the term dictionary, hash every term (see slice-hash.ts) and collect the postings of
 * the terms that fall in this slice. Costs one pass over the field's terms per segment; documents without
 * a term are in no slice.
 */
import { POSTINGS_DOCS } from '../../../engine/codec/index.js';
import { ID_FIELD } from '../../../engine/searcher.js';
import { BitSetIterator, FixedBitSet } from '../../core/bitset.js';
import { ConstantScoreWeight } from '../../core/constant-score-weight.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import type { LeafContext } from '../../core/leaf-context.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { idSliceHash, TERMS_SLICE_SEED } from './slice-hash.js';
import { murmur3 } from '../../../engine/segments/id-filter.js';
import { SliceQuery } from './slice-query.js';

export class TermsSliceQuery extends SliceQuery {
  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    return new TermsSliceWeight(this, boost);
  }

  /** Whether the term (its UTF-8 bytes) belongs to this slice. */
  containsTerm(term: Buffer): boolean {
    // `_id` terms are hashed in ES's Uid encoding; any other field as its raw bytes, as ES hashes them.
    const hash = this.field === ID_FIELD ? idSliceHash(term.toString('utf8')) : murmur3(term, TERMS_SLICE_SEED) | 0;
    return this.contains(hash);
  }
}

class TermsSliceWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: TermsSliceQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const fieldTerms = leaf.readers.terms.terms(this.query.field);
    if (fieldTerms === undefined) return null;
    const bits = new FixedBitSet(leaf.maxDoc);
    const termsEnum = fieldTerms.iterator();
    while (termsEnum.next()) {
      if (!this.query.containsTerm(termsEnum.term())) continue;
      const postings = termsEnum.postings(POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) bits.set(doc);
    }
    return new BitSetIterator(bits);
  }
}
