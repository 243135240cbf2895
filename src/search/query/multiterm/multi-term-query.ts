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
import type { IndexSearcher, Prefetchable } from '../../searcher/index-searcher.js';
import { TermStates } from '../../searcher/term-states.js';
import { BooleanQuery } from '../boolean/boolean-query.js';
import { BoostQuery } from '../boost-query.js';
import { ConstantScoreQuery } from '../constant-score-query.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import { Term } from '../term/term.js';
import { TermQuery } from '../term/term-query.js';
import { CONSTANT_SCORE, type RewriteMethod } from './rewrite-method.js';
import { forEachMatchingTerm, forEachMatchingTermSliced, type TermMatcher } from './term-matcher.js';

interface CollectedTerm {
  readonly bytes: Buffer;
  readonly boost: number;
  readonly states: (TermState | null)[];
  docFreq: number;
  totalTermFreq: number;
}

/** Each searcher's expansions of the multi-term queries run on it (gathered ahead in slices, or on first use). */
const EXPANSIONS = new WeakMap<IndexSearcher, Map<MultiTermQuery, CollectedTerm[]>>();

function expansionsOf(searcher: IndexSearcher): Map<MultiTermQuery, CollectedTerm[]> {
  let map = EXPANSIONS.get(searcher);
  if (map === undefined) EXPANSIONS.set(searcher, (map = new Map()));
  return map;
}

export abstract class MultiTermQuery extends Query implements Prefetchable {
  constructor(
    readonly field: string,
    readonly rewriteMethod: RewriteMethod = CONSTANT_SCORE,
  ) {
    super();
  }

  abstract matcher(): TermMatcher;

  override rewrite(searcher: IndexSearcher): Query {
    const method = this.rewriteMethod;
    const known = expansionsOf(searcher).get(this);
    // In a prefetch pass the terms are gathered later, in slices (IndexSearcher.rewriteSliced).
    if (known === undefined && searcher.deferToPrefetch(this)) return this;
    if (method.kind === 'constant_score') return this;
    let terms = known ?? this.expandOn(searcher);
    if (method.kind === 'top_terms' || method.kind === 'top_terms_boost' || method.kind === 'top_terms_blended_freqs') {
      terms = topTerms(terms, Math.min(method.size, searcher.maxClauseCount));
    } else if (terms.length > searcher.maxClauseCount) {
      throw errors.rewriteTooManyClauses(searcher.maxClauseCount);
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

  /** The matching terms of every segment, gathered at once and kept for this searcher. */
  private expandOn(searcher: IndexSearcher): CollectedTerm[] {
    const collector = new TermCollector(searcher.leaves.length);
    for (const leaf of searcher.leaves) {
      const fieldTerms = leaf.readers.terms.terms(this.field);
      if (fieldTerms !== undefined) forEachMatchingTerm(fieldTerms, this.matcher(), collector.visitor(leaf.ord));
    }
    const terms = collector.terms();
    expansionsOf(searcher).set(this, terms);
    return terms;
  }

  /** The same expansion, walked in slices with `pause` between them (a fuzzy or regexp walk can be long). */
  async prefetch(searcher: IndexSearcher, pause: () => Promise<void>): Promise<void> {
    if (expansionsOf(searcher).has(this)) return;
    const collector = new TermCollector(searcher.leaves.length);
    for (const leaf of searcher.leaves) {
      const fieldTerms = leaf.readers.terms.terms(this.field);
      if (fieldTerms !== undefined) await forEachMatchingTermSliced(fieldTerms, this.matcher(), collector.visitor(leaf.ord), pause);
    }
    expansionsOf(searcher).set(this, collector.terms());
  }

  /** The expansion kept for `searcher`, if one was gathered (the constant-score weight reads it per segment). */
  expansionOn(searcher: IndexSearcher): readonly CollectedTerm[] | undefined {
    return expansionsOf(searcher).get(this);
  }

  createWeight(searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): Weight {
    if (this.rewriteMethod.kind !== 'constant_score') throw new Error(`${this.toString()} must be rewritten before it is run`);
    return new MultiTermConstantScoreWeight(this, boost, this.expansionOn(searcher));
  }
}

/** Matching terms over every segment, merged by term, with their per-segment states. */
class TermCollector {
  private readonly byTerm = new Map<string, CollectedTerm>();

  constructor(private readonly leafCount: number) {}

  visitor(ord: number): (bytes: Buffer, state: TermState, boost: number) => void {
    return (bytes, state, boost) => {
      const key = bytes.toString('latin1');
      let collected = this.byTerm.get(key);
      if (collected === undefined) {
        collected = { bytes, boost, states: new Array<TermState | null>(this.leafCount).fill(null), docFreq: 0, totalTermFreq: 0 };
        this.byTerm.set(key, collected);
      }
      collected.states[ord] = state;
      collected.docFreq += state.docFreq;
      collected.totalTermFreq += state.totalTermFreq;
    };
  }

  /** In term order. */
  terms(): CollectedTerm[] {
    return [...this.byTerm.values()].sort((a, b) => Buffer.compare(a.bytes, b.bytes));
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
    /** The terms gathered ahead for this searcher, when they were. */
    private readonly expansion: readonly CollectedTerm[] | undefined,
  ) {
    super(query, boost);
  }

  iterator(leaf: LeafContext): DocIdSetIterator | null {
    const fieldTerms = leaf.readers.terms.terms(this.query.field);
    if (fieldTerms === undefined) return null;
    const bits = new FixedBitSet(leaf.maxDoc);
    let any = false;
    const addPostings = (state: TermState): void => {
      any = true;
      const postings = fieldTerms.postings(state, POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) bits.set(doc);
    };
    if (this.expansion !== undefined) {
      for (const term of this.expansion) {
        const state = term.states[leaf.ord];
        if (state !== null && state !== undefined) addPostings(state);
      }
    } else {
      forEachMatchingTerm(fieldTerms, this.query.matcher(), (_term, state) => addPostings(state));
    }
    return any ? new BitSetIterator(bits) : null;
  }
}
