/**
 * Exact phrase occurrences (Lucene's ExactPhraseMatcher): the first term's positions lead; every other term
 * must sit at the lead's position shifted by its offset in the phrase. Each term has its own cursor even
 * when a term repeats, so "a a" occurs twice in "a a a", as in Lucene.
 */
import type { PostingsEnum } from '../../../engine/codec/index.js';
import type { PhraseMatcher } from './phrase-matcher.js';

interface PostingsAndPosition {
  readonly postings: PostingsEnum;
  readonly offset: number;
  freq: number;
  upTo: number;
  pos: number;
}

export class ExactPhraseMatcher implements PhraseMatcher {
  private readonly terms: PostingsAndPosition[];
  /** The smallest of the terms' freqs in the current doc (set by reset). */
  private minFreq = 0;

  /** `postings` and `offsets` in phrase order (sorted by offset). */
  constructor(postings: readonly PostingsEnum[], offsets: readonly number[]) {
    this.terms = postings.map((p, i) => ({ postings: p, offset: offsets[i]!, freq: 0, upTo: 0, pos: -1 }));
  }

  reset(): void {
    const terms = this.terms;
    let minFreq = 0x7fffffff;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      const freq = term.postings.freq();
      term.freq = freq;
      term.pos = -1;
      term.upTo = 0;
      if (freq < minFreq) minFreq = freq;
    }
    this.minFreq = minFreq;
  }

  nextMatch(): boolean {
    const terms = this.terms;
    const lead = terms[0]!;
    if (lead.upTo >= lead.freq) return false;
    lead.pos = lead.postings.nextPosition();
    lead.upTo++;
    advanceHead: for (;;) {
      const phrasePos = lead.pos - lead.offset;
      for (let j = 1; j < terms.length; j++) {
        const term = terms[j]!;
        const expected = phrasePos + term.offset;
        if (!advancePosition(term, expected)) return false;
        if (term.pos !== expected) {
          // This term's next position is beyond the expected one: move the lead to where it could match.
          if (advancePosition(lead, term.pos - term.offset + lead.offset)) continue advanceHead;
          return false;
        }
      }
      return true;
    }
  }

  sloppyWeight(): number {
    return 1;
  }

  /** Each occurrence uses one position of every term: at most the rarest term's frequency. */
  maxFreq(): number {
    return this.minFreq;
  }
}

function advancePosition(term: PostingsAndPosition, target: number): boolean {
  while (term.pos < target) {
    if (term.upTo === term.freq) return false;
    term.pos = term.postings.nextPosition();
    term.upTo++;
  }
  return true;
}
