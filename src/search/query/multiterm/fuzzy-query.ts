/**
 * Terms within `maxEdits` (0-2) edits of a term (Lucene's FuzzyQuery, ES `fuzzy` and `match` fuzziness),
 * the first `prefixLength` code points fixed. Each matching term is boosted by its similarity,
 * 1 - edits / min(term length, query term length), and by default the 50 most similar terms are kept and
 * scored with blended frequencies (`top_terms_blended_freqs_50`), as Lucene and ES do.
 */
import { errors } from '../../../common/errors.js';
import type { Query } from '../../core/query.js';
import { fround } from '../../float32.js';
import { codePoints, MAX_EDITS, SortedTermsDistance } from './levenshtein.js';
import { prefixSuccessor } from './automaton.js';
import { MultiTermQuery } from './multi-term-query.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export interface FuzzyOptions {
  readonly maxEdits?: number;
  readonly prefixLength?: number;
  /** Kept terms under the default rewrite (ES `max_expansions`, default 50). */
  readonly maxExpansions?: number;
  /** Default true. */
  readonly transpositions?: boolean;
  readonly rewriteMethod?: RewriteMethod;
}

export const DEFAULT_MAX_EXPANSIONS = 50;

/** ES's `fuzziness: AUTO` (AUTO:3,6): 0 edits up to 2 characters, 1 up to 5, then 2. */
export function autoFuzziness(termLength: number, low = 3, high = 6): number {
  return termLength < low ? 0 : termLength < high ? 1 : 2;
}

export class FuzzyQuery extends MultiTermQuery {
  readonly maxEdits: number;
  readonly prefixLength: number;
  readonly transpositions: boolean;
  private readonly points: readonly number[];

  constructor(
    field: string,
    readonly text: string,
    options: FuzzyOptions = {},
  ) {
    const maxExpansions = options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS;
    super(field, options.rewriteMethod ?? { kind: 'top_terms_blended_freqs', size: maxExpansions });
    this.maxEdits = options.maxEdits ?? MAX_EDITS;
    this.prefixLength = options.prefixLength ?? 0;
    this.transpositions = options.transpositions ?? true;
    if (!Number.isInteger(this.maxEdits) || this.maxEdits < 0 || this.maxEdits > MAX_EDITS) {
      throw errors.illegalArgument(`maxEdits must be between 0 and ${MAX_EDITS}`);
    }
    if (!Number.isInteger(this.prefixLength) || this.prefixLength < 0) throw errors.illegalArgument('prefixLength cannot be negative.');
    if (!Number.isInteger(maxExpansions) || maxExpansions <= 0) throw errors.illegalArgument('maxExpansions must be positive.');
    this.points = codePoints(text);
  }

  matcher(): TermMatcher {
    const points = this.points;
    const prefixPoints = points.slice(0, this.prefixLength);
    const prefix = Buffer.from(String.fromCodePoint(...prefixPoints), 'utf8');
    const exact = Buffer.from(this.text, 'utf8');
    // No edits allowed, or the prefix covers the whole term: only the term itself matches.
    if (this.maxEdits === 0 || this.prefixLength >= points.length) {
      return { prefix: exact, accept: (term) => (term.equals(exact) ? 1 : -1) };
    }
    const suffix = points.slice(prefixPoints.length);
    const maxEdits = this.maxEdits;
    // Terms come in order: the walker reuses the rows of the code points a term shares with the previous one,
    // and a prefix that is already too far tells the walk to seek past every term that starts with it.
    const walker = new SortedTermsDistance(suffix, maxEdits, this.transpositions);
    let deadBytes = -1;
    return {
      prefix,
      accept(term) {
        const distance = walker.distance(term, prefix.length);
        if (distance > maxEdits) {
          deadBytes = walker.deadPrefixBytes();
          return -1;
        }
        deadBytes = -1;
        if (distance === 0) return 1;
        return fround(1 - fround(distance / Math.min(prefixPoints.length + walker.termLength, points.length)));
      },
      skipTo: (term) => (deadBytes > 0 ? prefixSuccessor(term.subarray(0, deadBytes)) : undefined),
    };
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}${this.text}~${this.maxEdits}`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof FuzzyQuery &&
      other.field === this.field &&
      other.text === this.text &&
      other.maxEdits === this.maxEdits &&
      other.prefixLength === this.prefixLength &&
      other.transpositions === this.transpositions &&
      JSON.stringify(other.rewriteMethod) === JSON.stringify(this.rewriteMethod)
    );
  }
}
