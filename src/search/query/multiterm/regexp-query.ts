/** Terms matching a Lucene regular expression over the whole term (ES `regexp`): `field:/pattern/` (syntax: lucene-regexp.ts). */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import { LuceneRegexp, REGEXP_ALL } from './lucene-regexp.js';
import { prefixSuccessor } from './automaton.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export interface RegexpOptions {
  readonly rewriteMethod?: RewriteMethod;
  readonly caseInsensitive?: boolean;
  /** Lucene RegExp syntax flags (RegExp.ALL by default): which optional operators are operators. */
  readonly flags?: number;
  readonly maxDeterminizedStates?: number;
}

export class RegexpQuery extends MultiTermQuery {
  private readonly regexp: LuceneRegexp;
  readonly caseInsensitive: boolean;
  readonly flags: number;

  constructor(
    field: string,
    readonly pattern: string,
    options: RegexpOptions = {},
  ) {
    super(field, options.rewriteMethod);
    this.caseInsensitive = options.caseInsensitive ?? false;
    this.flags = (options.flags ?? REGEXP_ALL) & REGEXP_ALL;
    this.regexp = new LuceneRegexp(pattern, this.flags, this.caseInsensitive, options.maxDeterminizedStates);
  }

  matcher(): TermMatcher {
    const dfa = this.regexp.dfa;
    let deadAfter = 0;
    return {
      prefix: this.regexp.prefix,
      accept: (term) => {
        const outcome = dfa.run(term);
        deadAfter = outcome < 0 ? -outcome - 1 : 0;
        return outcome === 1 ? 1 : -1;
      },
      // The automaton died inside the term: no term sharing the bytes read so far can match.
      skipTo: (term) => (deadAfter > 0 ? prefixSuccessor(term.subarray(0, deadAfter)) : undefined),
    };
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}/${this.pattern}/`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof RegexpQuery &&
      other.field === this.field &&
      other.pattern === this.pattern &&
      other.caseInsensitive === this.caseInsensitive &&
      other.flags === this.flags &&
      other.rewriteMethod.kind === this.rewriteMethod.kind
    );
  }
}
