/**
 * Scores a phrase in one segment (Lucene's PhraseScorer): walks the docs that contain every term, keeps
 * those where the matcher finds at least one occurrence, and scores the phrase frequency (the sum of the
 * occurrences' sloppy weights, added in float) with the phrase's BM25 scorer.
 */
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer } from '../../core/scorer.js';
import { fround } from '../../float32.js';
import type { SimScorer } from '../../similarity/similarity.js';
import { DEFAULT_NORM } from '../term/term-scorer.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import type { PostingsConjunction } from './postings-conjunction.js';

export class PhraseScorer extends Scorer {
  private doc = -1;
  private phraseFreq = 0;

  constructor(
    private readonly approximation: PostingsConjunction,
    private readonly matcher: PhraseMatcher,
    private readonly simScorer: SimScorer,
    private readonly norms: Uint8Array | null,
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
    let doc = this.approximation.advance(target);
    while (doc !== NO_MORE_DOCS) {
      if (this.matchesCurrent()) break;
      doc = this.approximation.nextDoc();
    }
    return (this.doc = doc);
  }

  /** Counts the occurrences in the approximation's current doc; false when there are none. */
  private matchesCurrent(): boolean {
    const matcher = this.matcher;
    matcher.reset();
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
}
