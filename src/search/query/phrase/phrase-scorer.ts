/**
 * Scores a phrase in one segment (Lucene's PhraseScorer): walks the docs that contain every term, keeps
 * those where the matcher finds at least one occurrence, and scores the phrase frequency (the sum of the
 * occurrences' sloppy weights, added in float) with the phrase's BM25 scorer.
 *
 * Exact phrases also skip blocks under a minimum competitive score: an exact phrase occurs at most as often
 * in a doc as each of its terms, so its terms' block impacts, merged (phrase-impacts.ts), bound its score.
 */
import type { LiveDocs } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer, type ScoredCollector } from '../../core/scorer.js';
import { fround } from '../../float32.js';
import type { SimScorer } from '../../similarity/similarity.js';
import { DEFAULT_NORM } from '../term/term-scorer-norm.js';
import type { PhraseImpacts } from './phrase-impacts.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import type { PostingsConjunction } from './postings-conjunction.js';

export class PhraseScorer extends Scorer {
  private doc = -1;
  private phraseFreq = 0;
  private minCompetitiveScore = 0;
  private upTo = -1;
  private impacts: PhraseImpacts | null = null;

  constructor(
    private readonly approximation: PostingsConjunction,
    private readonly matcher: PhraseMatcher,
    private readonly simScorer: SimScorer,
    private readonly norms: Uint8Array | null,
    /** The terms' merged impacts, for exact phrases only (null: no score bounds). */
    private readonly loadImpacts: (() => PhraseImpacts) | null = null,
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
    const approximation = this.approximation;
    if (this.minCompetitiveScore === 0 || this.loadImpacts === null) {
      // No score bounds: every approximation doc is a candidate.
      let doc = this.approximationTo(target);
      while (doc !== NO_MORE_DOCS && !this.matchesCurrent()) doc = approximation.nextDoc();
      return (this.doc = doc);
    }
    for (;;) {
      if (target > this.upTo) {
        target = this.competitiveTarget(target);
        if (target === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      }
      // Inside a window known to be competitive the approximation steps (Lucene's ImpactsDISI.nextDoc).
      let doc = this.approximationTo(target);
      const upTo = this.upTo;
      while (doc <= upTo) {
        if (this.matchesCurrent()) return (this.doc = doc);
        doc = approximation.nextDoc();
      }
      if (doc === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      // The approximation stands on a doc past the competitive window: check that doc's window first.
      target = doc;
    }
  }

  /** The approximation's first doc >= target: stepped when it is just before, advanced otherwise. */
  private approximationTo(target: number): number {
    const approximation = this.approximation;
    const current = approximation.docID();
    if (current >= target) return current;
    return current === target - 1 ? approximation.nextDoc() : approximation.advance(target);
  }

  /** The first doc >= target of a window whose bound reaches the minimum competitive score. */
  private competitiveTarget(target: number): number {
    const impacts = this.phraseImpacts()!;
    const minScore = this.minCompetitiveScore;
    for (;;) {
      const upTo = impacts.advanceShallow(target);
      // NO_MORE_DOCS: some term has no doc left, so neither has the phrase.
      if (upTo === NO_MORE_DOCS) return NO_MORE_DOCS;
      if (impacts.maxScore(upTo, minScore) >= minScore) {
        this.upTo = upTo;
        return target;
      }
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

  override scoreRange(collector: ScoredCollector, liveDocs: LiveDocs | null, doc: number, end: number): number {
    // This class's own copy of the loop, on purpose: see Scorer.scoreRange.
    while (doc < end) {
      if (liveDocs === null || liveDocs.isLive(doc)) collector.collectScored(doc, this.score());
      doc = this.nextDoc();
    }
    return doc;
  }

  private phraseImpacts(): PhraseImpacts | null {
    if (this.impacts === null && this.loadImpacts !== null) this.impacts = this.loadImpacts();
    return this.impacts;
  }

  override advanceShallow(target: number): number {
    return this.phraseImpacts()?.advanceShallow(target) ?? NO_MORE_DOCS;
  }

  override getMaxScore(upTo: number): number {
    return this.phraseImpacts()?.maxScore(upTo) ?? Infinity;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore <= this.minCompetitiveScore) return;
    this.minCompetitiveScore = minScore;
    this.upTo = -1;
  }
}
