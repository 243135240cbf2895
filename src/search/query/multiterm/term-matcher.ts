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
}

/** Calls `visit` for each matching term of the field, in term order. */
export function forEachMatchingTerm(
  fieldTerms: FieldTerms,
  matcher: TermMatcher,
  visit: (term: Buffer, state: TermState, boost: number) => void,
): void {
  const termsEnum = fieldTerms.iterator();
  const prefix = matcher.prefix;
  const start = matcher.start !== undefined && Buffer.compare(matcher.start, prefix) > 0 ? matcher.start : prefix;
  if (termsEnum.seekCeil(start) === 'end') return;
  do {
    if (!termsEnum.startsWith(prefix)) return;
    const term = termsEnum.term();
    if (matcher.pastEnd !== undefined && matcher.pastEnd(term)) return;
    const boost = matcher.accept(term);
    if (boost >= 0) visit(Buffer.from(term), termsEnum.termState(), boost);
  } while (termsEnum.next());
}
