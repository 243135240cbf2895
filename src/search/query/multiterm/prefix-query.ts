/** Terms starting with a prefix (ES `prefix`): `field:pre*`. */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export class PrefixQuery extends MultiTermQuery {
  readonly prefix: Buffer;

  constructor(field: string, prefix: string | Uint8Array, rewriteMethod?: RewriteMethod) {
    super(field, rewriteMethod);
    this.prefix = typeof prefix === 'string' ? Buffer.from(prefix, 'utf8') : Buffer.from(prefix);
  }

  matcher(): TermMatcher {
    return { prefix: this.prefix, accept: () => 1 };
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}${this.prefix.toString('utf8')}*`;
  }

  equals(other: Query): boolean {
    return other instanceof PrefixQuery && other.field === this.field && other.prefix.equals(this.prefix) && other.rewriteMethod.kind === this.rewriteMethod.kind;
  }
}
