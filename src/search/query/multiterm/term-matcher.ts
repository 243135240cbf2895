/**
 * Which terms of a field a multi-term query matches: a literal prefix every match starts with (so the
 * term dictionary is only walked from there) and a test of each term, which also gives the term's boost
 * (fuzzy matches are boosted by how similar they are).
 */
import type { FieldTerms, TermState } from '../../../engine/codec/index.js';

export interface TermMatcher {
  /** Every matching term starts with these bytes (may be empty). */
  readonly prefix: Uint8Array;
  /** The boost of a matching term (> 0), or -1 when `term` does not match. */
  accept(term: Buffer): number;
}

/** Calls `visit` for each matching term of the field, in term order. */
export function forEachMatchingTerm(
  fieldTerms: FieldTerms,
  matcher: TermMatcher,
  visit: (term: Buffer, state: TermState, boost: number) => void,
): void {
  const termsEnum = fieldTerms.iterator();
  const prefix = matcher.prefix;
  if (termsEnum.seekCeil(prefix) === 'end') return;
  do {
    if (!termsEnum.startsWith(prefix)) return;
    const term = termsEnum.term();
    const boost = matcher.accept(term);
    if (boost >= 0) visit(Buffer.from(term), termsEnum.termState(), boost);
  } while (termsEnum.next());
}
