/** A term bound to the searcher's statistics: its BM25 scorer and where it lives in each segment. */
import { POSTINGS_DOCS, POSTINGS_FREQS } from '../../../engine/codec/index.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import { Weight } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import type { TermStates } from '../../searcher/term-states.js';
import type { SimScorer } from '../../similarity/similarity.js';
import type { TermQuery } from './term-query.js';
import { DEFAULT_NORM, TermScorer } from './term-scorer.js';

/** Statistics Lucene substitutes when scores are not needed (docFreq = docCount = 1). */
const UNSCORED_STATS = { docFreq: 1, docCount: 1, sumTotalTermFreq: 1 };

export class TermWeight extends Weight {
  private readonly simScorer: SimScorer | null;
  private readonly explainName: string;

  constructor(
    override readonly query: TermQuery,
    searcher: IndexSearcher,
    private readonly scoreMode: ScoreMode,
    boost: number,
    private readonly states: TermStates,
  ) {
    super(query);
    const term = query.term;
    this.explainName = searcher.similarity.explainName;
    if (needsScores(scoreMode)) {
      const collection = searcher.collectionStatistics(term.field);
      const termStats = searcher.termStatistics(term.field, term.bytes, states);
      this.simScorer = collection === null || termStats === null ? null : searcher.similarity.scorer(boost, collection, [termStats]);
    } else {
      this.simScorer = searcher.similarity.scorer(
        boost,
        { field: term.field, maxDoc: 1, docCount: UNSCORED_STATS.docCount, sumTotalTermFreq: UNSCORED_STATS.sumTotalTermFreq, sumDocFreq: 1 },
        [{ term: term.bytes, docFreq: UNSCORED_STATS.docFreq, totalTermFreq: 1 }],
      );
    }
  }

  scorer(leaf: LeafContext): TermScorer | null {
    const state = this.states.get(leaf.ord);
    if (state === null || this.simScorer === null) return null;
    const field = leaf.readers.terms.terms(this.query.term.field);
    if (field === undefined) return null;
    const scores = needsScores(this.scoreMode);
    const postings = field.postings(state, scores ? POSTINGS_FREQS : POSTINGS_DOCS);
    const norms = scores ? (leaf.readers.norms.get(this.query.term.field) ?? null) : null;
    return new TermScorer(postings, this.simScorer, norms);
  }

  override count(leaf: LeafContext): number {
    if (leaf.liveDocs !== null) return -1;
    return this.states.get(leaf.ord)?.docFreq ?? 0;
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const scorer = this.scorer(leaf);
    if (scorer !== null && this.simScorer !== null && scorer.advance(doc) === doc) {
      const freq = Explanation.match(scorer.freq(), 'freq, occurrences of term within document');
      const norms = leaf.readers.norms.get(this.query.term.field);
      const score = this.simScorer.explain(freq, norms === undefined ? DEFAULT_NORM : norms[doc]!);
      return Explanation.match(score.value, `weight(${this.query.toString()} in ${doc}) [${this.explainName}], result of:`, [score]);
    }
    return Explanation.noMatch('no matching term');
  }
}
