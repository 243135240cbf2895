/**
 * Explains a phrase weight's match of one doc, as Lucene's PhraseWeight.explain: the phrase frequency the
 * matcher finds there, scored by the weight's similarity. Shared by the phrase and multi-phrase weights.
 */
import type { LeafContext } from '../../core/leaf-context.js';
import { Explanation } from '../../explanation.js';
import { floatToString } from '../../float32.js';
import type { SimScorer } from '../../similarity/similarity.js';
import { DEFAULT_NORM } from '../term/term-scorer-norm.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import { PhraseScorer } from './phrase-scorer.js';
import type { PostingsConjunction } from './postings-conjunction.js';

export interface PhraseMatchParts {
  readonly approximation: PostingsConjunction;
  readonly matcher: PhraseMatcher;
}

/** `parts` null (or a null scorer) means a term of the phrase is missing from the segment. */
export function explainPhrase(
  parts: PhraseMatchParts | null,
  simScorer: SimScorer | null,
  leaf: LeafContext,
  doc: number,
  field: string,
  description: string,
): Explanation {
  if (parts === null || simScorer === null || parts.approximation.advance(doc) !== doc) return Explanation.noMatch('no matching terms');
  const scorer = new PhraseScorer(parts.approximation, parts.matcher, simScorer, null);
  // The approximation is on `doc`: ask the scorer to check it without moving.
  if (scorer.advance(doc) !== doc) return Explanation.noMatch('no matching phrase');
  const freq = scorer.freq();
  const norms = leaf.readers.norms.get(field);
  const score = simScorer.explain(Explanation.match(freq, `phraseFreq=${floatToString(freq)}`), norms === undefined ? DEFAULT_NORM : norms[doc]!);
  return Explanation.match(score.value, `${description}, result of:`, [score]);
}
