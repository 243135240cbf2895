/** Terms matching a Lucene regular expression over the whole term (ES `regexp`): `field:/pattern/`. */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import { compileLuceneRegexp } from './regexp-syntax.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export interface RegexpOptions {
  readonly rewriteMethod?: RewriteMethod;
  readonly caseInsensitive?: boolean;
}

const NO_PREFIX = Buffer.alloc(0);

export class RegexpQuery extends MultiTermQuery {
  private readonly regexp: RegExp;
  readonly caseInsensitive: boolean;

  constructor(
    field: string,
    readonly pattern: string,
    options: RegexpOptions = {},
  ) {
    super(field, options.rewriteMethod);
    this.caseInsensitive = options.caseInsensitive ?? false;
    this.regexp = compileLuceneRegexp(pattern, this.caseInsensitive);
  }

  matcher(): TermMatcher {
    const regexp = this.regexp;
    return { prefix: NO_PREFIX, accept: (term) => (regexp.test(term.toString('utf8')) ? 1 : -1) };
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
      other.rewriteMethod.kind === this.rewriteMethod.kind
    );
  }
}
