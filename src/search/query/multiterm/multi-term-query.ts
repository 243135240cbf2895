/**
 * A query over every term of a field that a TermMatcher accepts (Lucene's MultiTermQuery): prefix,
 * wildcard, fuzzy. Under `constant_score` it runs directly: per segment, the matching terms' postings are
 * unioned into a bit set and every doc scores the boost. Under the other methods it rewrites into a
 * boolean query of term queries, with the terms collected over every segment (ES errors with "too many
 * clauses" beyond the limit, as Lucene does).
 */
import { errors } from '../../../common/errors.js';
import { POSTINGS_DOCS, type TermState } from '../../../engine/codec/index.js';
import { BitSetIterator, FixedBitSet } from '../../core/bitset.js';
import { ConstantScoreWeight } from '../../core/constant-score-weight.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../../core/doc-id-set-iterator.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { Weight } from '../../core/weight.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { TermStates } from '../../searcher/term-states.js';
import { BooleanQuery } from '../boolean/boolean-query.js';
import { BoostQuery } from '../boost-query.js';
import { ConstantScoreQuery } from '../constant-score-query.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import { Term } from '../term/term.js';
import { TermQuery } from '../term/term-query.js';
import { CONSTANT_SCORE, type RewriteMethod } from './rewrite-method.js';
import { forEachMatchingTerm, type TermMatcher } from './term-matcher.js';

interface CollectedTerm {
  readonly bytes: Buffer;
  readonly boost: number;
  readonly states: (TermState | null)[];
  docFreq: number;
  totalTermFreq: number;
}

export abstract class MultiTermQuery extends Query {
  constructor(
    readonly field: string,
    readonly rewriteMethod: RewriteMethod = CONSTANT_SCORE,
  ) {
    super();
  }

  abstract matcher(): TermMatcher;

  override rewrite(searcher: IndexSearcher): Query {
    const method = this.rewriteMethod;
    if (method.kind === 'constant_score') return this;
    let terms = this.collectTerms(searcher);
    if (method.kind === 'top_terms' || method.kind === 'top_terms_boost' || method.kind === 'top_terms_blended_freqs') {
      terms = topTerms(terms, Math.min(method.size, searcher.maxClauseCount));
    } else if (terms.length > searcher.maxClauseCount) {
      throw errors.illegalArgument(`maxClauseCount is set to ${searcher.maxClauseCount}`);
    }
    if (terms.length === 0) return new MatchNoDocsQuery(`no terms match ${this.toString()}`);
    let blendedDocFreq = 0;
    let blendedTotalTermFreq = 0;
    for (const term of terms) {
      blendedDocFreq = Math.max(blendedDocFreq, term.docFreq);
      blendedTotalTermFreq += term.totalTermFreq;
    }
    const clauses = terms.map((term) => {
      const states =
        method.kind === 'top_terms_blended_freqs'
          ? new TermStates(term.states, blendedDocFreq, blendedTotalTermFreq)
          : new TermStates(term.states, term.docFreq, term.totalTermFreq);
      let query: Query = new TermQuery(new Term(this.field, term.bytes), undefined, states);
      if (method.kind === 'top_terms_boost') query = new ConstantScoreQuery(query);
      if (term.boost !== 1) query = new BoostQuery(query, term.boost);
      return { query, occur: 'should' as const };
    });
    const bool = new BooleanQuery(clauses);
    return method.kind === 'constant_score_boolean' ? new ConstantScoreQuery(bool) : bool;
  }

  /** Matching terms over every segment, in term order, with their per-segment states. */
  private collectTerms(searcher: IndexSearcher): CollectedTerm[] {
    const byTerm = new Map<string, CollectedTerm>();
    const leaves = searcher.leaves;
    for (const leaf of leaves) {
      const fieldTerms = leaf.readers.terms.terms(this.field);
      if (fieldTerms === undefined) continue;
      forEachMatchingTerm(fieldTerms, this.matcher(), (bytes, state, boost) => {
        const key = bytes.toString('latin1');
        let collected = byTerm.get(key);
        if (collected === undefined) {
          collected = { bytes, boost, states: new Array<TermState | null>(leaves.length).fill(null), docFreq: 0, totalTermFreq: 0 };
          byTerm.set(key, collected);
        }
        collected.states[leaf.ord] = state;
        collected.docFreq += state.docFreq;
        collected.totalTermFreq += state.totalTermFreq;
      });
    }
    return [...byTerm.values()].sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  }

  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    if (this.rewriteMethod.kind !== 'constant_score') throw new Error(`${this.toString()} must be rewritten before it is run`);
    return new MultiTermConstantScoreWeight(this, boost);
  }
}

/** The `size` terms with the best boosts (ties: the smaller term), returned in term order (Lucene's TopTermsRewrite). */
function topTerms(terms: CollectedTerm[], size: number): CollectedTerm[] {
  const ranked = [...terms].sort((a, b) => (a.boost !== b.boost ? b.boost - a.boost : Buffer.compare(a.bytes, b.bytes)));
  return ranked.slice(0, size).sort((a, b) => Buffer.compare(a.bytes, b.bytes));
}

class MultiTermConstantScoreWeight extends ConstantScoreWeight {
  constructor(
    override readonly query: MultiTermQuery,
    boost: number,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const fieldTerms = leaf.readers.terms.terms(this.query.field);
    if (fieldTerms === undefined) return null;
    const bits = new FixedBitSet(leaf.maxDoc);
    let any = false;
    forEachMatchingTerm(fieldTerms, this.query.matcher(), (_term, state) => {
      any = true;
      const postings = fieldTerms.postings(state, POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) bits.set(doc);
    });
    return any ? new BitSetIterator(bits) : null;
  }
}
