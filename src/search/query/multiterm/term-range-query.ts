/**
 * Terms between two bounds in byte order (Lucene's TermRangeQuery, what ES's `range` runs on keyword, text
 * and boolean fields): `field:[a TO m}`. A missing bound is open. Like every multi-term query it scores the
 * boost under the default constant_score rewrite. Terms compare as unsigned bytes of their UTF-8 form, as
 * Lucene's BytesRef does (so "Z" < "a" and supplementary characters sort after U+FFFF).
 */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export interface TermRangeBounds {
  /** Undefined: no lower bound. */
  readonly lower?: string | Uint8Array;
  readonly upper?: string | Uint8Array;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;
}

const NO_PREFIX = Buffer.alloc(0);

function toBytes(value: string | Uint8Array | undefined): Buffer | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
}

/** Whether `term` lies within the bounds (the predicate the tests check against a brute force). */
export function termInRange(term: Uint8Array, lower: Uint8Array | undefined, upper: Uint8Array | undefined, includeLower: boolean, includeUpper: boolean): boolean {
  if (lower !== undefined) {
    const cmp = Buffer.compare(term, lower);
    if (cmp < 0 || (cmp === 0 && !includeLower)) return false;
  }
  if (upper !== undefined) {
    const cmp = Buffer.compare(term, upper);
    if (cmp > 0 || (cmp === 0 && !includeUpper)) return false;
  }
  return true;
}

export class TermRangeQuery extends MultiTermQuery {
  readonly lower: Buffer | undefined;
  readonly upper: Buffer | undefined;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;

  constructor(field: string, bounds: TermRangeBounds, rewriteMethod?: RewriteMethod) {
    super(field, rewriteMethod);
    this.lower = toBytes(bounds.lower);
    this.upper = toBytes(bounds.upper);
    this.includeLower = bounds.includeLower;
    this.includeUpper = bounds.includeUpper;
  }

  matcher(): TermMatcher {
    const { lower, upper, includeLower, includeUpper } = this;
    return {
      prefix: NO_PREFIX,
      ...(lower !== undefined && { start: lower }),
      ...(upper !== undefined && { pastEnd: (term: Buffer) => Buffer.compare(term, upper) > 0 }),
      accept: (term) => (termInRange(term, lower, upper, includeLower, includeUpper) ? 1 : -1),
    };
  }

  /** Lucene's TermRangeQuery.toString: `[` `]` inclusive, `{` `}` exclusive, `*` open, a literal `*` escaped. */
  toString(field?: string): string {
    const bound = (value: Buffer | undefined): string => {
      if (value === undefined) return '*';
      const text = value.toString('utf8');
      return text === '*' ? '\\*' : text;
    };
    return (
      `${this.field === field ? '' : `${this.field}:`}${this.includeLower ? '[' : '{'}` +
      `${bound(this.lower)} TO ${bound(this.upper)}${this.includeUpper ? ']' : '}'}`
    );
  }

  equals(other: Query): boolean {
    const same = (a: Buffer | undefined, b: Buffer | undefined): boolean => (a === undefined ? b === undefined : b !== undefined && a.equals(b));
    return (
      other instanceof TermRangeQuery &&
      other.field === this.field &&
      same(other.lower, this.lower) &&
      same(other.upper, this.upper) &&
      other.includeLower === this.includeLower &&
      other.includeUpper === this.includeUpper &&
      other.rewriteMethod.kind === this.rewriteMethod.kind
    );
  }
}
