/**
 * Scores a phrase in one segment (Lucene's PhraseScorer): walks the docs that contain every term, keeps
 * those where the matcher finds at least one occurrence, and scores the phrase frequency (the sum of the
 * occurrences' sloppy weights, added in float) with the phrase's BM25 scorer.
 *
 * Exact phrases also skip blocks under a minimum competitive score: an exact phrase occurs at most as often
 * in a doc as each of its terms, so its score there is at most what any one term's (freq, norm) impacts give
 * under the phrase's scorer; the smallest of those per-term block bounds bounds the phrase (Lucene merges the
 * terms' impacts for the same purpose).
 */
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer } from '../../core/scorer.js';
import { fround } from '../../float32.js';
import type { SimScorer } from '../../similarity/similarity.js';
import type { BlockMaxScores } from '../term/block-max-scores.js';
import { DEFAULT_NORM } from '../term/term-scorer-norm.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import type { PostingsConjunction } from './postings-conjunction.js';

export class PhraseScorer extends Scorer {
  private doc = -1;
  private phraseFreq = 0;
  private minCompetitiveScore = 0;
  private upTo = -1;
  private termBlocks: readonly BlockMaxScores[] | null = null;

  constructor(
    private readonly approximation: PostingsConjunction,
    private readonly matcher: PhraseMatcher,
    private readonly simScorer: SimScorer,
    private readonly norms: Uint8Array | null,
    /** Per-term block bounds, for exact phrases only (null: no score bounds). */
    private readonly loadTermBlocks: (() => readonly BlockMaxScores[]) | null = null,
  ) {
    super();
  }

  docID(): number {
    return this.doc;
  }

  cost(): number {
    return this.approximation.cost();
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    const skipping = this.minCompetitiveScore > 0 && this.loadTermBlocks !== null;
    outer: for (;;) {
      if (skipping && target > this.upTo) {
        target = this.competitiveTarget(target);
        if (target === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      }
      let doc = this.approximation.advance(target);
      while (doc !== NO_MORE_DOCS) {
        if (skipping && doc > this.upTo) {
          target = doc;
          continue outer;
        }
        if (this.matchesCurrent()) break;
        doc = this.approximation.nextDoc();
      }
      return (this.doc = doc);
    }
  }

  /** The first doc >= target of a window whose bound reaches the minimum competitive score. */
  private competitiveTarget(target: number): number {
    for (;;) {
      const upTo = this.advanceShallow(target);
      if (this.getMaxScore(upTo) >= this.minCompetitiveScore) {
        this.upTo = upTo;
        return target;
      }
      if (upTo === NO_MORE_DOCS) return NO_MORE_DOCS;
      target = upTo + 1;
    }
  }

  /** Counts the occurrences in the approximation's current doc; false when there are none. */
  private matchesCurrent(): boolean {
    const matcher = this.matcher;
    matcher.reset();
    if (this.minCompetitiveScore > 0) {
      // Skip reading positions when even the best possible frequency cannot compete (as Lucene's matches()).
      const norm = this.norms === null ? DEFAULT_NORM : this.norms[this.approximation.docID()]!;
      if (this.simScorer.score(matcher.maxFreq(), norm) < this.minCompetitiveScore) return false;
    }
    if (!matcher.nextMatch()) return false;
    let freq = matcher.sloppyWeight();
    while (matcher.nextMatch()) freq = fround(freq + matcher.sloppyWeight());
    this.phraseFreq = freq;
    return true;
  }

  /** The phrase frequency of the current doc. */
  freq(): number {
    return this.phraseFreq;
  }

  score(): number {
    return this.simScorer.score(this.phraseFreq, this.norms === null ? DEFAULT_NORM : this.norms[this.doc]!);
  }

  private blocks(): readonly BlockMaxScores[] | null {
    if (this.termBlocks === null && this.loadTermBlocks !== null) this.termBlocks = this.loadTermBlocks();
    return this.termBlocks;
  }

  override advanceShallow(target: number): number {
    const blocks = this.blocks();
    if (blocks === null) return NO_MORE_DOCS;
    let upTo = NO_MORE_DOCS;
    for (const term of blocks) upTo = Math.min(upTo, term.advanceShallow(target));
    return upTo;
  }

  override getMaxScore(upTo: number): number {
    const blocks = this.blocks();
    if (blocks === null) return Infinity;
    let bound = Infinity;
    for (const term of blocks) bound = Math.min(bound, term.maxScore(upTo));
    return bound;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore <= this.minCompetitiveScore) return;
    this.minCompetitiveScore = minScore;
    this.upTo = -1;
  }
}
