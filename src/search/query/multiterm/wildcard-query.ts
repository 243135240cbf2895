/**
 * Terms matching a wildcard pattern (Lucene's WildcardQuery, ES `wildcard`): `*` any sequence of
 * characters, `?` exactly one character (a Unicode code point), `\` escapes the next character. The
 * literal text before the first wildcard narrows the walk of the term dictionary.
 */
import type { Query } from '../../core/query.js';
import { MultiTermQuery } from './multi-term-query.js';
import type { RewriteMethod } from './rewrite-method.js';
import type { TermMatcher } from './term-matcher.js';

export interface WildcardOptions {
  readonly rewriteMethod?: RewriteMethod;
  /** ES `case_insensitive`: ASCII and Unicode letters match regardless of case. */
  readonly caseInsensitive?: boolean;
}

/** The pattern as a RegExp over the term text, plus its literal prefix. */
export function compileWildcard(pattern: string, caseInsensitive = false): { regexp: RegExp; prefix: string } {
  let source = '';
  let prefix = '';
  let literal = true;
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (char === '*') {
      source += '.*';
      literal = false;
    } else if (char === '?') {
      source += '.';
      literal = false;
    } else {
      // A trailing backslash stands for itself, as in Lucene.
      const text = char === '\\' && i + 1 < chars.length ? chars[++i]! : char;
      source += text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      if (literal) prefix += text;
    }
  }
  const flags = caseInsensitive ? 'isu' : 'su';
  return { regexp: new RegExp(`^(?:${source})$`, flags), prefix: caseInsensitive ? '' : prefix };
}

export class WildcardQuery extends MultiTermQuery {
  private readonly compiled: { regexp: RegExp; prefix: Buffer };
  readonly caseInsensitive: boolean;

  constructor(
    field: string,
    readonly pattern: string,
    options: WildcardOptions = {},
  ) {
    super(field, options.rewriteMethod);
    this.caseInsensitive = options.caseInsensitive ?? false;
    const { regexp, prefix } = compileWildcard(pattern, this.caseInsensitive);
    this.compiled = { regexp, prefix: Buffer.from(prefix, 'utf8') };
  }

  matcher(): TermMatcher {
    const { regexp, prefix } = this.compiled;
    return { prefix, accept: (term) => (regexp.test(term.toString('utf8')) ? 1 : -1) };
  }

  toString(field?: string): string {
    return `${this.field === field ? '' : `${this.field}:`}${this.pattern}`;
  }

  equals(other: Query): boolean {
    return (
      other instanceof WildcardQuery &&
      other.field === this.field &&
      other.pattern === this.pattern &&
      other.caseInsensitive === this.caseInsensitive &&
      other.rewriteMethod.kind === this.rewriteMethod.kind
    );
  }
}
