/** A phrase bound to the searcher: BM25 with the summed idf of its terms, and one scorer per segment. */
import { EsError } from '../../../common/errors.js';
import { POSTINGS_POSITIONS, type PostingsEnum } from '../../../engine/codec/index.js';
import type { LeafContext } from '../../core/leaf-context.js';
import { needsScores, type ScoreMode } from '../../core/score-mode.js';
import { Weight } from '../../core/weight.js';
import { Explanation } from '../../explanation.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import type { TermStates } from '../../searcher/term-states.js';
import type { SimScorer, TermStatistics } from '../../similarity/similarity.js';
import { DEFAULT_NORM } from '../term/term-scorer-norm.js';
import { ExactPhraseMatcher } from './exact-phrase-matcher.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import type { PhraseQuery } from './phrase-query.js';
import { explainPhrase } from './phrase-explain.js';
import { PhraseImpacts } from './phrase-impacts.js';
import { PhraseScorer } from './phrase-scorer.js';
import { PostingsConjunction } from './postings-conjunction.js';
import { SloppyPhraseMatcher } from './sloppy-phrase-matcher.js';

export class PhraseWeight extends Weight {
  private readonly states: readonly TermStates[];
  private readonly simScorer: SimScorer | null;
  private readonly explainName: string;

  constructor(
    override readonly query: PhraseQuery,
    searcher: IndexSearcher,
    scoreMode: ScoreMode,
    boost: number,
  ) {
    super(query);
    this.explainName = searcher.similarity.explainName;
    this.states = query.terms.map((term) => searcher.termStates(query.field, term.bytes));
    const collection = needsScores(scoreMode) ? searcher.collectionStatistics(query.field) : null;
    const termStats: TermStatistics[] = [];
    query.terms.forEach((term, i) => {
      const stats = searcher.termStatistics(query.field, term.bytes, this.states[i]!);
      if (stats !== null) termStats.push(stats);
    });
    // Unscored phrases still need a scorer object; any statistics do.
    this.simScorer =
      termStats.length === 0
        ? null
        : searcher.similarity.scorer(boost, collection ?? { field: query.field, maxDoc: 1, docCount: 1, sumTotalTermFreq: 1, sumDocFreq: 1 }, termStats);
  }

  private matcherParts(leaf: LeafContext): { approximation: PostingsConjunction; matcher: PhraseMatcher; postings: PostingsEnum[] } | null {
    const query = this.query;
    const fieldTerms = leaf.readers.terms.terms(query.field);
    if (fieldTerms === undefined) return null;
    if (!fieldTerms.hasPositions) {
      throw new EsError(
        'illegal_state_exception',
        `field "${query.field}" was indexed without position data; cannot run PhraseQuery (phrase=${query.toString()})`,
      );
    }
    const postings: PostingsEnum[] = [];
    for (const states of this.states) {
      const state = states.get(leaf.ord);
      if (state === null) return null;
      postings.push(fieldTerms.postings(state, POSTINGS_POSITIONS));
    }
    const matcher =
      query.slop === 0
        ? new ExactPhraseMatcher(postings, query.positions)
        : new SloppyPhraseMatcher(postings, query.positions, query.terms.map((term) => term.text), query.slop);
    return { approximation: new PostingsConjunction(postings), matcher, postings };
  }

  scorer(leaf: LeafContext): PhraseScorer | null {
    if (this.simScorer === null) return null;
    const parts = this.matcherParts(leaf);
    if (parts === null) return null;
    const norms = leaf.readers.norms.get(this.query.field) ?? null;
    const simScorer = this.simScorer;
    const impacts =
      this.query.slop === 0
        ? () =>
            new PhraseImpacts(
              parts.postings.map((postings) => postings.impacts()),
              (freq, norm) => simScorer.score(freq, norms === null ? DEFAULT_NORM : norm),
            )
        : null;
    return new PhraseScorer(parts.approximation, parts.matcher, simScorer, norms, impacts);
  }

  explain(leaf: LeafContext, doc: number): Explanation {
    const parts = this.simScorer === null ? null : this.matcherParts(leaf);
    return explainPhrase(parts, this.simScorer, leaf, doc, this.query.field, `weight(${this.query.toString()} in ${doc}) [${this.explainName}]`);
  }
}
