/**
 * Which terms of a field a multi-term query matches: a literal prefix every match starts with (so the
 * term dictionary is only walked from there) and a test of each term, which also gives the term's boost
 * (fuzzy matches are boosted by how similar they are).
 */
import type { FieldTerms, TermState } from '../../../engine/codec/index.js';

export interface TermMatcher {
  /** Every matching term starts with these bytes (may be empty). */
  readonly prefix: Uint8Array;
  /** Where the walk may start when that is past the prefix (a range's lower bound). */
  readonly start?: Uint8Array;
  /** True once no later term (in byte order) can match: the walk stops there. */
  pastEnd?(term: Buffer): boolean;
  /** The boost of a matching term (> 0), or -1 when `term` does not match. */
  accept(term: Buffer): number;
  /**
   * After `accept` refused `term`: the next term worth looking at, when the matcher knows that every term up to
   * it fails too (a dead automaton prefix); null when no later term can match; undefined to just step on.
   */
  skipTo?(term: Buffer): Uint8Array | null | undefined;
}

/** Terms a walk looks at between two pauses of a sliced walk. */
const TERMS_PER_STEP = 512;

/** The walk over a field's matching terms, pausing (yield) every few hundred terms looked at. */
function* matchingTermSteps(
  fieldTerms: FieldTerms,
  matcher: TermMatcher,
  visit: (term: Buffer, state: TermState, boost: number) => void,
): Generator<void, void> {
  const termsEnum = fieldTerms.iterator();
  const prefix = matcher.prefix;
  const start = matcher.start !== undefined && Buffer.compare(matcher.start, prefix) > 0 ? matcher.start : prefix;
  if (termsEnum.seekCeil(start) === 'end') return;
  for (let seen = 1; ; seen++) {
    if (seen % TERMS_PER_STEP === 0) yield;
    if (!termsEnum.startsWith(prefix)) return;
    const term = termsEnum.term();
    if (matcher.pastEnd !== undefined && matcher.pastEnd(term)) return;
    const boost = matcher.accept(term);
    if (boost >= 0) visit(Buffer.from(term), termsEnum.termState(), boost);
    else if (matcher.skipTo !== undefined) {
      const target = matcher.skipTo(term);
      if (target === null) return;
      if (target !== undefined) {
        if (termsEnum.seekCeil(target) === 'end') return;
        continue;
      }
    }
    if (!termsEnum.next()) return;
  }
}

/** Calls `visit` for each matching term of the field, in term order. */
export function forEachMatchingTerm(fieldTerms: FieldTerms, matcher: TermMatcher, visit: (term: Buffer, state: TermState, boost: number) => void): void {
  const steps = matchingTermSteps(fieldTerms, matcher, visit);
  while (steps.next().done !== true);
}

/** forEachMatchingTerm with `pause` awaited every few hundred terms (a search phase's checkpoint). */
export async function forEachMatchingTermSliced(
  fieldTerms: FieldTerms,
  matcher: TermMatcher,
  visit: (term: Buffer, state: TermState, boost: number) => void,
  pause: () => Promise<void>,
): Promise<void> {
  const steps = matchingTermSteps(fieldTerms, matcher, visit);
  while (steps.next().done !== true) await pause();
}
