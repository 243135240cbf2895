/**
 * The grammar of Lucene's classic QueryParser (QueryParser.jj, splitOnWhitespace=false as in Lucene 9),
 * producing a syntax tree: clauses with their conjunction (AND/OR) and modifiers (+, -, NOT), fields,
 * groups, boosts, and the term forms (plain, phrase, prefix, wildcard, regexp, fuzzy, range). The meaning
 * (analysis, fields, occur rules) is applied by the builder, as QueryParserBase does.
 */
import { QueryStringLexicalError, tokenize, TOKEN_IMAGES, type Token, type TokenKind } from './query-string-lexer.js';

export type Conjunction = 'none' | 'and' | 'or';
export type Modifier = 'none' | 'req' | 'not';

/** One `Conjunction Modifiers Clause` of a Query production, or a run of bare terms (MultiTerm). */
export type QsItem =
  | { readonly kind: 'clause'; readonly conjunction: Conjunction; readonly modifier: Modifier; readonly clause: QsClause }
  | { readonly kind: 'multi_term'; readonly field: string | undefined; readonly text: string };

export interface QsQuery {
  readonly items: readonly QsItem[];
  /** Query() returns its first clause alone when it is the only one and has no modifier. */
  readonly firstIsBare: boolean;
}

export type QsTerm =
  /** A bare token: TERM/NUMBER/BAREOPER (plain), STAR/WILDTERM (wildcard), PREFIXTERM, REGEXPTERM, with `~` if fuzzy. */
  | { readonly kind: 'plain'; readonly image: string; readonly fuzzySlop?: string }
  | { readonly kind: 'wildcard'; readonly image: string }
  | { readonly kind: 'prefix'; readonly image: string }
  | { readonly kind: 'regexp'; readonly image: string }
  | { readonly kind: 'quoted'; readonly image: string; readonly fuzzySlop?: string }
  | {
      readonly kind: 'range';
      readonly lower: string | null;
      readonly upper: string | null;
      readonly includeLower: boolean;
      readonly includeUpper: boolean;
    };

export type QsClause =
  | { readonly kind: 'term'; readonly field: string | undefined; readonly term: QsTerm; readonly boost?: string }
  | { readonly kind: 'group'; readonly field: string | undefined; readonly query: QsQuery; readonly boost?: string };

/** Lucene's ParseException, with JavaCC's "Encountered ..." wording (without the expected-token list). */
export class QueryStringSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueryStringSyntaxError';
  }
}

/** Tokens that may not follow a term inside a MultiTerm run (QueryParser.disallowedPostMultiTerm). */
const DISALLOWED_POST_MULTI_TERM = new Set<TokenKind>(['COLON', 'STAR', 'FUZZY_SLOP', 'CARAT', 'AND', 'OR']);
const CLAUSE_START = new Set<TokenKind>([
  'TERM', 'STAR', 'PREFIXTERM', 'WILDTERM', 'REGEXPTERM', 'NUMBER', 'BAREOPER', 'LPAREN', 'QUOTED', 'RANGEIN_START', 'RANGEEX_START',
]);
const MODIFIER_START = new Set<TokenKind>(['PLUS', 'MINUS', 'NOT']);

/** Parses a query string (QueryParser.TopLevelQuery: a Query, then end of input). */
export function parseQueryStringSyntax(text: string, defaultField: string | undefined): QsQuery {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (err) {
    if (err instanceof QueryStringLexicalError) throw new QueryStringSyntaxError(`Cannot parse '${text}': ${err.message}`);
    throw err;
  }
  const parser = new SyntaxParser(tokens, text);
  const query = parser.query(defaultField);
  parser.expect('EOF');
  return query;
}

class SyntaxParser {
  private index = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
  ) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  expect(kind: TokenKind): Token {
    const token = this.peek();
    if (token.kind !== kind) this.fail(token);
    return this.next();
  }

  private fail(token: Token): never {
    const encountered = token.kind === 'EOF' ? '<EOF>' : ` ${TOKEN_IMAGES[token.kind]} "${token.image} "`;
    throw new QueryStringSyntaxError(`Cannot parse '${this.text}': Encountered "${encountered}" at line ${token.line}, column ${token.column}.`);
  }

  private isMultiTermStart(): boolean {
    return this.peek().kind === 'TERM' && this.peek(1).kind === 'TERM' && !DISALLOWED_POST_MULTI_TERM.has(this.peek(2).kind);
  }

  query(field: string | undefined): QsQuery {
    const items: QsItem[] = [];
    let firstIsBare = false;
    if (this.isMultiTermStart()) {
      items.push(this.multiTerm(field));
    } else {
      const modifier = this.modifiers();
      items.push({ kind: 'clause', conjunction: 'none', modifier, clause: this.clause(field) });
      firstIsBare = modifier === 'none';
    }
    for (;;) {
      if (this.isMultiTermStart()) {
        items.push(this.multiTerm(field));
        continue;
      }
      const kind = this.peek().kind;
      if (kind !== 'AND' && kind !== 'OR' && !MODIFIER_START.has(kind) && !CLAUSE_START.has(kind)) break;
      const conjunction = this.conjunction();
      const modifier = this.modifiers();
      items.push({ kind: 'clause', conjunction, modifier, clause: this.clause(field) });
    }
    return { items, firstIsBare };
  }

  private multiTerm(field: string | undefined): QsItem {
    const words = [this.next().image];
    while (this.peek().kind === 'TERM' && !DISALLOWED_POST_MULTI_TERM.has(this.peek(1).kind)) words.push(this.next().image);
    return { kind: 'multi_term', field, text: words.join(' ') };
  }

  private conjunction(): Conjunction {
    const kind = this.peek().kind;
    if (kind === 'AND') {
      this.next();
      return 'and';
    }
    if (kind === 'OR') {
      this.next();
      return 'or';
    }
    return 'none';
  }

  private modifiers(): Modifier {
    const kind = this.peek().kind;
    if (kind === 'PLUS') {
      this.next();
      return 'req';
    }
    if (kind === 'MINUS' || kind === 'NOT') {
      this.next();
      return 'not';
    }
    return 'none';
  }

  private clause(defaultField: string | undefined): QsClause {
    let field = defaultField;
    const first = this.peek();
    if ((first.kind === 'TERM' || first.kind === 'STAR') && this.peek(1).kind === 'COLON') {
      this.next();
      this.next();
      field = first.kind === 'STAR' ? '*' : discardEscapeChar(first.image, this.text);
    }
    if (this.peek().kind === 'LPAREN') {
      this.next();
      const query = this.query(field);
      this.expect('RPAREN');
      const boost = this.optionalBoost();
      return { kind: 'group', field, query, ...(boost !== undefined && { boost }) };
    }
    return this.term(field);
  }

  private optionalBoost(): string | undefined {
    if (this.peek().kind !== 'CARAT') return undefined;
    this.next();
    return this.expect('NUMBER').image;
  }

  /** `^boost` and `~slop` in either order after a term or a phrase. */
  private boostAndSlop(): { boost?: string; fuzzySlop?: string } {
    if (this.peek().kind === 'CARAT') {
      const boost = this.optionalBoost()!;
      if (this.peek().kind === 'FUZZY_SLOP') return { boost, fuzzySlop: this.next().image };
      return { boost };
    }
    if (this.peek().kind === 'FUZZY_SLOP') {
      const fuzzySlop = this.next().image;
      const boost = this.optionalBoost();
      return { fuzzySlop, ...(boost !== undefined && { boost }) };
    }
    return {};
  }

  private term(field: string | undefined): QsClause {
    const token = this.peek();
    switch (token.kind) {
      case 'TERM':
      case 'STAR':
      case 'PREFIXTERM':
      case 'WILDTERM':
      case 'REGEXPTERM':
      case 'NUMBER':
      case 'BAREOPER': {
        this.next();
        const { boost, fuzzySlop } = this.boostAndSlop();
        const image = token.kind === 'BAREOPER' ? token.image.slice(0, 1) : token.image;
        let term: QsTerm;
        if (token.kind === 'STAR' || token.kind === 'WILDTERM') term = { kind: 'wildcard', image };
        else if (token.kind === 'PREFIXTERM') term = { kind: 'prefix', image };
        else if (token.kind === 'REGEXPTERM') term = { kind: 'regexp', image };
        else term = { kind: 'plain', image, ...(fuzzySlop !== undefined && { fuzzySlop }) };
        // handleBareTokenQuery: a fuzzy slop only changes plain terms (wildcards and prefixes win).
        if (fuzzySlop !== undefined && term.kind === 'plain') term = { kind: 'plain', image, fuzzySlop };
        return { kind: 'term', field, term, ...(boost !== undefined && { boost }) };
      }
      case 'RANGEIN_START':
      case 'RANGEEX_START': {
        this.next();
        const includeLower = token.kind === 'RANGEIN_START';
        const lower = this.rangePart();
        this.expect('RANGE_TO');
        const upper = this.rangePart();
        const end = this.peek();
        if (end.kind !== 'RANGEIN_END' && end.kind !== 'RANGEEX_END') this.fail(end);
        this.next();
        const boost = this.optionalBoost();
        return {
          kind: 'term',
          field,
          term: { kind: 'range', lower, upper, includeLower, includeUpper: end.kind === 'RANGEIN_END' },
          ...(boost !== undefined && { boost }),
        };
      }
      case 'QUOTED': {
        this.next();
        const { boost, fuzzySlop } = this.boostAndSlop();
        const image = discardEscapeChar(token.image.slice(1, -1), this.text);
        return { kind: 'term', field, term: { kind: 'quoted', image, ...(fuzzySlop !== undefined && { fuzzySlop }) }, ...(boost !== undefined && { boost }) };
      }
      default:
        this.fail(token);
    }
  }

  /** A range bound: quoted (quotes dropped), `*` (open), or goop; escapes discarded. */
  private rangePart(): string | null {
    const token = this.peek();
    if (token.kind !== 'RANGE_GOOP' && token.kind !== 'RANGE_QUOTED' && token.kind !== 'RANGE_TO') this.fail(token);
    this.next();
    if (token.kind === 'RANGE_QUOTED') return discardEscapeChar(token.image.slice(1, -1), this.text);
    if (token.image === '*') return null;
    return discardEscapeChar(token.image, this.text);
  }
}

/** QueryParserBase.discardEscapeChar: `\x` becomes x, `\uXXXX` a character; a trailing `\` is an error. */
export function discardEscapeChar(input: string, query: string): string {
  let out = '';
  let index = 0;
  while (index < input.length) {
    const c = input[index]!;
    if (c !== '\\') {
      out += c;
      index++;
      continue;
    }
    const next = input[index + 1];
    if (next === undefined) throw new QueryStringSyntaxError(`Cannot parse '${query}': Term can not end with escape character.`);
    if (next === 'u') {
      const hex = input.slice(index + 2, index + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new QueryStringSyntaxError(`Cannot parse '${query}': Truncated unicode escape sequence.`);
      out += String.fromCharCode(parseInt(hex, 16));
      index += 6;
      continue;
    }
    out += next;
    index += 2;
  }
  return out;
}
