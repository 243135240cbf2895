/** Terms matching a Lucene regular expression over the whole term (ES `regexp`): `field:/pattern/` (syntax: lucene-regexp.ts). */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import { LuceneRegexp, REGEXP_ALL } from './lucene-regexp.js';
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
    this.regexp = new LuceneRegexp(pattern, this.flags, this.caseInsensitive);
  }

  matcher(): TermMatcher {
    const regexp = this.regexp;
    return { prefix: regexp.prefix, accept: (term) => (regexp.matches(term.toString('utf8')) ? 1 : -1) };
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
