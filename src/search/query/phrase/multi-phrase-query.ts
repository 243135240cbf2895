/**
 * A phrase whose positions may each accept several terms (Lucene's MultiPhraseQuery; what ES's
 * match_phrase_prefix rewrites to, the last position holding the prefix's expansions). Scored as a phrase
 * with BM25 over the idfs of every term of every position (a term listed twice counts twice, as in Lucene).
 */
import { EsError } from '../../../common/errors.js';
import { POSTINGS_POSITIONS, type PostingsEnum } from '../../../engine/codec/index.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { Query } from '../../core/query.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import { Weight } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import type { TermStates } from '../../searcher/term-states.js';
import type { SimScorer, TermStatistics } from '../../similarity/similarity.js';
import { BooleanQuery } from '../boolean/boolean-query.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import { Term } from '../term/term.js';
import { TermQuery } from '../term/term-query.js';
import { ExactPhraseMatcher } from './exact-phrase-matcher.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import { explainPhrase } from './phrase-explain.js';
import { PhraseScorer } from './phrase-scorer.js';
import { PostingsConjunction } from './postings-conjunction.js';
import { SloppyPhraseMatcher } from './sloppy-phrase-matcher.js';
import { UnionPostingsEnum } from './union-postings.js';

export class MultiPhraseQuery extends Query {
  readonly termArrays: readonly (readonly Term[])[];

  constructor(
    readonly field: string,
    termArrays: readonly (readonly (string | Uint8Array)[])[],
    readonly positions: readonly number[],
    readonly slop = 0,
  ) {
    super();
    this.termArrays = termArrays.map((terms) => terms.map((term) => new Term(field, term)));
    if (positions.length !== termArrays.length) throw new RangeError('a multi-phrase needs one position per term array');
    if (termArrays.some((terms) => terms.length === 0)) throw new RangeError('a multi-phrase position needs at least one term');
  }

  override rewrite(_searcher: IndexSearcher): Query {
    if (this.termArrays.length === 0) return new MatchNoDocsQuery('empty MultiPhraseQuery');
    // Lucene's one-position case: any of the terms.
    if (this.termArrays.length === 1) return BooleanQuery.of('should', this.termArrays[0]!.map((term) => new TermQuery(term)));
    return this;
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): Weight {
    return new MultiPhraseWeight(this, searcher, scoreMode, boost);
  }

  /** Lucene's `field:"a (b c) ? d"~2`. */
  toString(field?: string): string {
    let body = '';
    let lastPosition = -1;
    this.termArrays.forEach((terms, i) => {
      const position = this.positions[i]!;
      if (i !== 0) body += ' ' + '? '.repeat(Math.max(0, position - lastPosition - 1));
      body += terms.length > 1 ? `(${terms.map((term) => term.text).join(' ')})` : terms[0]!.text;
      lastPosition = position;
    });
    return `${this.field === field ? '' : `${this.field}:`}"${body}"${this.slop !== 0 ? `~${this.slop}` : ''}`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof MultiPhraseQuery &&
      other.field === this.field &&
      other.slop === this.slop &&
      other.termArrays.length === this.termArrays.length &&
      other.termArrays.every((terms, i) => other.positions[i] === this.positions[i] && terms.length === this.termArrays[i]!.length && terms.every((term, j) => term.equals(this.termArrays[i]![j]!)))
    );
  }
}

class MultiPhraseWeight extends Weight {
  private readonly states: readonly (readonly TermStates[])[];
  private readonly simScorer: SimScorer | null;
  private readonly explainName: string;

  constructor(
    override readonly query: MultiPhraseQuery,
    searcher: IndexSearcher,
    scoreMode: ScoreMode,
    boost: number,
  ) {
    super(query);
    this.explainName = searcher.similarity.explainName;
    this.states = query.termArrays.map((terms) => terms.map((term) => searcher.termStates(query.field, term.bytes)));
    const termStats: TermStatistics[] = [];
    query.termArrays.forEach((terms, i) =>
      terms.forEach((term, j) => {
        const stats = searcher.termStatistics(query.field, term.bytes, this.states[i]![j]!);
        if (stats !== null) termStats.push(stats);
      }),
    );
    const collection = needsScores(scoreMode) ? searcher.collectionStatistics(query.field) : null;
    this.simScorer =
      termStats.length === 0
        ? null
        : searcher.similarity.scorer(boost, collection ?? { field: query.field, maxDoc: 1, docCount: 1, sumTotalTermFreq: 1, sumDocFreq: 1 }, termStats);
  }

  private matcherParts(leaf: LeafContext): { approximation: PostingsConjunction; matcher: PhraseMatcher } | null {
    const query = this.query;
    const fieldTerms = leaf.readers.terms.terms(query.field);
    if (fieldTerms === undefined) return null;
    if (!fieldTerms.hasPositions) {
      throw new EsError('illegal_state_exception', `field "${query.field}" was indexed without position data; cannot run MultiPhraseQuery (phrase=${query.toString()})`);
    }
    const postings: PostingsEnum[] = [];
    for (const states of this.states) {
      const subs: PostingsEnum[] = [];
      for (const termStates of states) {
        const state = termStates.get(leaf.ord);
        if (state !== null) subs.push(fieldTerms.postings(state, POSTINGS_POSITIONS));
      }
      if (subs.length === 0) return null;
      postings.push(subs.length === 1 ? subs[0]! : new UnionPostingsEnum(subs));
    }
    // Positions sharing a term repeat each other: the sloppy matcher keeps them off the same document position.
    const terms = query.termArrays.map((array) => array.map((term) => term.text));
    const matcher = query.slop === 0 ? new ExactPhraseMatcher(postings, query.positions) : new SloppyPhraseMatcher(postings, query.positions, terms, query.slop);
    return { approximation: new PostingsConjunction(postings), matcher };
  }

  scorer(leaf: LeafContext): PhraseScorer | null {
    if (this.simScorer === null) return null;
    const parts = this.matcherParts(leaf);
    if (parts === null) return null;
    return new PhraseScorer(parts.approximation, parts.matcher, this.simScorer, leaf.readers.norms.get(this.query.field) ?? null);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const parts = this.simScorer === null ? null : this.matcherParts(leaf);
    return explainPhrase(parts, this.simScorer, leaf, doc, this.query.field, `weight(${this.query.toString()} in ${doc}) [${this.explainName}]`);
  }
}
