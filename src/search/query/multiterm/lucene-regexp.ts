/**
 * Lucene's regular expression language (org.apache.lucene.util.automaton.RegExp), what ES's `regexp` query
 * and query_string's `/re/` take: parsed with Lucene's grammar and syntax flags, matched against whole terms.
 *
 * The grammar, precedence lowest first: `|` union, `&` intersection (INTERSECTION flag), concatenation,
 * the postfix repeats `?` `*` `+` `{n}` `{n,}` `{n,m}`, `~` complement (COMPLEMENT), `[...]`/`[^...]`
 * classes, then `.`, `#` empty language (EMPTY), `@` any string (ANYSTRING), `"literal"`, `()` the empty
 * string, `( )` groups, `<n-m>` decimal intervals (INTERVAL), `\d \D \s \S \w \W` and `\`-escapes. A disabled
 * optional operator is an ordinary character, as in Lucene. `^` and `$` are ordinary characters.
 *
 * As Lucene, the expression is compiled to a DFA (automaton.ts), within ES's `max_determinized_states` work
 * limit. The tree matcher below (for each node and start offset, the end offsets it can reach, memoized) is an
 * independent way to the same answer, which the tests hold the DFA to.
 */
import { errors } from '../../../common/errors.js';
import { compileRegexpDfa, DEFAULT_DETERMINIZE_WORK_LIMIT, type Dfa } from './automaton.js';

export const REGEXP_INTERSECTION = 0x0001;
export const REGEXP_COMPLEMENT = 0x0002;
export const REGEXP_EMPTY = 0x0004;
export const REGEXP_ANYSTRING = 0x0008;
export const REGEXP_AUTOMATON = 0x0010;
export const REGEXP_INTERVAL = 0x0020;
export const REGEXP_ALL = 0xff;
export const REGEXP_NONE = 0;

export type RegexpNode =
  | { readonly kind: 'union' | 'concat' | 'intersection'; readonly left: RegexpNode; readonly right: RegexpNode }
  | { readonly kind: 'optional' | 'star' | 'complement'; readonly inner: RegexpNode }
  | { readonly kind: 'repeat'; readonly inner: RegexpNode; readonly min: number; readonly max: number }
  | { readonly kind: 'string'; readonly codePoints: readonly number[] }
  | { readonly kind: 'range'; readonly from: number; readonly to: number }
  | { readonly kind: 'anychar' | 'empty' | 'anystring' }
  | { readonly kind: 'interval'; readonly min: number; readonly max: number; readonly digits: number };

const cp = (char: string): number => char.codePointAt(0)!;

class RegexpParser {
  private readonly text: number[];
  private pos = 0;

  constructor(
    pattern: string,
    private readonly flags: number,
  ) {
    this.text = [...pattern].map(cp);
  }

  parse(): RegexpNode {
    if (this.text.length === 0) return { kind: 'string', codePoints: [] };
    const node = this.unionExp();
    if (this.pos < this.text.length) throw this.fail(`end-of-string expected at position ${this.offset()}`);
    return node;
  }

  /** Lucene reports positions in UTF-16 units. */
  private offset(): number {
    let units = 0;
    for (let i = 0; i < this.pos; i++) units += this.text[i]! > 0xffff ? 2 : 1;
    return units;
  }

  private fail(message: string) {
    return errors.illegalArgument(message);
  }

  private check(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private more(): boolean {
    return this.pos < this.text.length;
  }

  private peek(chars: string): boolean {
    return this.more() && chars.includes(String.fromCodePoint(this.text[this.pos]!));
  }

  private match(char: string): boolean {
    if (this.more() && this.text[this.pos] === cp(char)) {
      this.pos++;
      return true;
    }
    return false;
  }

  private next(): number {
    if (!this.more()) throw this.fail('unexpected end-of-string');
    return this.text[this.pos++]!;
  }

  private unionExp(): RegexpNode {
    const left = this.interExp();
    return this.match('|') ? { kind: 'union', left, right: this.unionExp() } : left;
  }

  private interExp(): RegexpNode {
    const left = this.concatExp();
    return this.check(REGEXP_INTERSECTION) && this.match('&') ? { kind: 'intersection', left, right: this.interExp() } : left;
  }

  private concatExp(): RegexpNode {
    const left = this.repeatExp();
    if (this.more() && !this.peek(')|') && (!this.check(REGEXP_INTERSECTION) || !this.peek('&'))) {
      return concat(left, this.concatExp());
    }
    return left;
  }

  private integer(): number {
    const start = this.pos;
    while (this.peek('0123456789')) this.pos++;
    if (start === this.pos) throw this.fail(`integer expected at position ${this.offset()}`);
    return Number(String.fromCodePoint(...this.text.slice(start, this.pos)));
  }

  private repeatExp(): RegexpNode {
    let node = this.complExp();
    while (this.peek('?*+{')) {
      if (this.match('?')) node = { kind: 'optional', inner: node };
      else if (this.match('*')) node = { kind: 'star', inner: node };
      else if (this.match('+')) node = { kind: 'repeat', inner: node, min: 1, max: -1 };
      else if (this.match('{')) {
        const min = this.integer();
        let max = min;
        if (this.match(',')) max = this.peek('0123456789') ? this.integer() : -1;
        if (!this.match('}')) throw this.fail(`expected '}' at position ${this.offset()}`);
        node = { kind: 'repeat', inner: node, min, max };
      }
    }
    return node;
  }

  private complExp(): RegexpNode {
    if (this.check(REGEXP_COMPLEMENT) && this.match('~')) return { kind: 'complement', inner: this.complExp() };
    return this.charClassExp();
  }

  private charClassExp(): RegexpNode {
    if (!this.match('[')) return this.simpleExp();
    const negate = this.match('^');
    let node = this.charClass();
    while (this.more() && !this.peek(']')) node = { kind: 'union', left: node, right: this.charClass() };
    if (negate) node = { kind: 'intersection', left: { kind: 'anychar' }, right: { kind: 'complement', inner: node } };
    if (!this.match(']')) throw this.fail(`expected ']' at position ${this.offset()}`);
    return node;
  }

  private charClass(): RegexpNode {
    const predefined = this.predefinedClass();
    if (predefined !== null) return predefined;
    const from = this.charExp();
    if (this.match('-')) {
      const to = this.charExp();
      if (from > to) throw this.fail(`invalid range: from (${from}) cannot be > to (${to})`);
      return { kind: 'range', from, to };
    }
    return { kind: 'string', codePoints: [from] };
  }

  /** `\d` and friends; consumes a backslash that escapes anything else (charExp then reads the character). */
  private predefinedClass(): RegexpNode | null {
    if (!this.match('\\')) return null;
    if (this.peek('dDwWsS')) return predefined(String.fromCodePoint(this.next()));
    if (this.peek('\\')) return { kind: 'string', codePoints: [this.next()] };
    if (this.peek('abcefghijklmnopqrtuvxyzABCEFGHIJKLMNOPQRTUVXYZ')) {
      throw this.fail(`invalid character class \\${String.fromCodePoint(this.next())}`);
    }
    return null;
  }

  private simpleExp(): RegexpNode {
    if (this.match('.')) return { kind: 'anychar' };
    if (this.check(REGEXP_EMPTY) && this.match('#')) return { kind: 'empty' };
    if (this.check(REGEXP_ANYSTRING) && this.match('@')) return { kind: 'anystring' };
    if (this.match('"')) {
      const start = this.pos;
      while (this.more() && !this.peek('"')) this.pos++;
      if (!this.match('"')) throw this.fail(`expected '"' at position ${this.offset()}`);
      return { kind: 'string', codePoints: this.text.slice(start, this.pos - 1) };
    }
    if (this.match('(')) {
      if (this.match(')')) return { kind: 'string', codePoints: [] };
      const inner = this.unionExp();
      if (!this.match(')')) throw this.fail(`expected ')' at position ${this.offset()}`);
      return inner;
    }
    if ((this.check(REGEXP_AUTOMATON) || this.check(REGEXP_INTERVAL)) && this.match('<')) return this.interval();
    const predefinedNode = this.predefinedClass();
    if (predefinedNode !== null) return predefinedNode;
    return { kind: 'string', codePoints: [this.charExp()] };
  }

  private interval(): RegexpNode {
    const start = this.pos;
    while (this.more() && !this.peek('>')) this.pos++;
    if (!this.match('>')) throw this.fail(`expected '>' at position ${this.offset()}`);
    const body = String.fromCodePoint(...this.text.slice(start, this.pos - 1));
    const dash = body.indexOf('-');
    const at = this.offset() - 1;
    if (dash === -1) {
      // Named automata need an automaton provider, which ES never passes.
      if (!this.check(REGEXP_AUTOMATON)) throw this.fail(`interval syntax error at position ${at}`);
      throw this.fail(`'${body}' not found`);
    }
    if (!this.check(REGEXP_INTERVAL)) throw this.fail(`illegal identifier at position ${at}`);
    const low = body.slice(0, dash);
    const high = body.slice(dash + 1);
    if (dash === 0 || dash === body.length - 1 || body.lastIndexOf('-') !== dash || !/^[+-]?\d+$/.test(low) || !/^[+-]?\d+$/.test(high)) {
      throw this.fail(`interval syntax error at position ${at}`);
    }
    let min = Number(low);
    let max = Number(high);
    if (min > 2147483647 || max > 2147483647) throw this.fail(`interval syntax error at position ${at}`);
    if (min > max) [min, max] = [max, min];
    return { kind: 'interval', min, max, digits: low.length === high.length ? low.length : 0 };
  }

  private charExp(): number {
    this.match('\\');
    return this.next();
  }
}

/** Lucene's makeConcatenation keeps literal runs together as strings. */
function concat(left: RegexpNode, right: RegexpNode): RegexpNode {
  if (left.kind === 'string' && right.kind === 'string') return { kind: 'string', codePoints: [...left.codePoints, ...right.codePoints] };
  return { kind: 'concat', left, right };
}

function predefined(name: string): RegexpNode {
  const digit: RegexpNode = { kind: 'range', from: cp('0'), to: cp('9') };
  const chars = (list: string): RegexpNode => [...list].map((c): RegexpNode => ({ kind: 'string', codePoints: [cp(c)] })).reduce((left, right) => ({ kind: 'union', left, right }));
  const space = chars(' \t\n\r');
  const word: RegexpNode = {
    kind: 'union',
    left: { kind: 'union', left: { kind: 'range', from: cp('a'), to: cp('z') }, right: { kind: 'range', from: cp('A'), to: cp('Z') } },
    right: { kind: 'union', left: { kind: 'string', codePoints: [cp('_')] }, right: digit },
  };
  const not = (node: RegexpNode): RegexpNode => ({ kind: 'intersection', left: { kind: 'anychar' }, right: { kind: 'complement', inner: node } });
  switch (name) {
    case 'd':
      return digit;
    case 'D':
      return not(digit);
    case 's':
      return space;
    case 'S':
      return not(space);
    case 'w':
      return word;
    default:
      return not(word);
  }
}

export function parseLuceneRegexp(pattern: string, flags = REGEXP_ALL): RegexpNode {
  return new RegexpParser(pattern, flags & REGEXP_ALL).parse();
}

/** Lucene's ASCII_CASE_INSENSITIVE: an ASCII letter also matches its other case (nothing else folds). */
function sameChar(expected: number, actual: number, caseInsensitive: boolean): boolean {
  if (expected === actual) return true;
  if (!caseInsensitive || expected > 127) return false;
  const char = String.fromCharCode(expected);
  const other = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
  return other.length === 1 && other.charCodeAt(0) === actual;
}

/** Whether the digits text[i, j) form a number of the interval (digits > 0: exactly that many digits). */
function inInterval(text: readonly number[], i: number, j: number, node: Extract<RegexpNode, { kind: 'interval' }>): boolean {
  if (j <= i) return false;
  if (node.digits > 0 && j - i !== node.digits) return false;
  let value = 0;
  for (let k = i; k < j; k++) {
    const c = text[k]!;
    if (c < 48 || c > 57) return false;
    value = value * 10 + (c - 48);
    if (value > node.max) return false;
  }
  return value >= node.min;
}

/** Whole-string matching on the tree: ends(node, i) = the offsets j where text[i, j) is in the node's language. */
class TreeMatcher {
  private readonly memo = new Map<RegexpNode, (Uint8Array | undefined)[]>();

  constructor(
    private readonly text: readonly number[],
    private readonly caseInsensitive: boolean,
  ) {}

  ends(node: RegexpNode, i: number): Uint8Array {
    let byStart = this.memo.get(node);
    if (byStart === undefined) {
      byStart = [];
      this.memo.set(node, byStart);
    }
    const cached = byStart[i];
    if (cached !== undefined) return cached;
    const result = this.compute(node, i);
    byStart[i] = result;
    return result;
  }

  private compute(node: RegexpNode, i: number): Uint8Array {
    const text = this.text;
    const n = text.length;
    const out = new Uint8Array(n + 1);
    switch (node.kind) {
      case 'string': {
        const codes = node.codePoints;
        if (i + codes.length > n) return out;
        for (let k = 0; k < codes.length; k++) if (!sameChar(codes[k]!, text[i + k]!, this.caseInsensitive)) return out;
        out[i + codes.length] = 1;
        return out;
      }
      case 'range':
        if (i < n && text[i]! >= node.from && text[i]! <= node.to) out[i + 1] = 1;
        return out;
      case 'anychar':
        if (i < n) out[i + 1] = 1;
        return out;
      case 'empty':
        return out;
      case 'anystring':
        out.fill(1, i);
        return out;
      case 'interval':
        for (let j = i + 1; j <= n; j++) if (inInterval(text, i, j, node)) out[j] = 1;
        return out;
      case 'union':
      case 'intersection': {
        const left = this.ends(node.left, i);
        const right = this.ends(node.right, i);
        for (let j = i; j <= n; j++) out[j] = node.kind === 'union' ? left[j]! | right[j]! : left[j]! & right[j]!;
        return out;
      }
      case 'complement': {
        const inner = this.ends(node.inner, i);
        for (let j = i; j <= n; j++) out[j] = inner[j] ? 0 : 1;
        return out;
      }
      case 'concat': {
        const left = this.ends(node.left, i);
        for (let k = i; k <= n; k++) {
          if (!left[k]) continue;
          const right = this.ends(node.right, k);
          for (let j = k; j <= n; j++) out[j] |= right[j]!;
        }
        return out;
      }
      case 'optional': {
        out[i] = 1;
        const inner = this.ends(node.inner, i);
        for (let j = i; j <= n; j++) out[j] |= inner[j]!;
        return out;
      }
      case 'star':
        return this.repeat(node.inner, i, 0, -1);
      case 'repeat':
        return this.repeat(node.inner, i, node.min, node.max);
    }
  }

  /** Offsets reachable from i by between min and max (-1: unbounded) repetitions of `inner`. */
  private repeat(inner: RegexpNode, i: number, min: number, max: number): Uint8Array {
    const n = this.text.length;
    const out = new Uint8Array(n + 1);
    if (max !== -1 && min > max) return out;
    // Offsets already expanded at a count >= min: expanding them again (later) can add nothing new.
    const expanded = new Uint8Array(n + 1);
    let frontier = new Uint8Array(n + 1);
    frontier[i] = 1;
    for (let count = 0; ; count++) {
      if (count >= min) {
        let fresh = false;
        for (let j = i; j <= n; j++) {
          if (!frontier[j]) continue;
          out[j] = 1;
          if (!expanded[j]) {
            expanded[j] = 1;
            fresh = true;
          }
        }
        if (!fresh) break;
      }
      if (max !== -1 && count >= max) break;
      const next = new Uint8Array(n + 1);
      let any = false;
      for (let k = i; k <= n; k++) {
        if (!frontier[k]) continue;
        const ends = this.ends(inner, k);
        for (let j = k; j <= n; j++) {
          if (ends[j]) {
            next[j] = 1;
            any = true;
          }
        }
      }
      if (!any) break;
      frontier = next;
    }
    return out;
  }
}

/** The literal text every match starts with (walks the leftmost strings of concatenations). */
function literalPrefix(node: RegexpNode): number[] {
  if (node.kind === 'string') return [...node.codePoints];
  if (node.kind === 'concat') {
    const left = literalPrefix(node.left);
    return node.left.kind === 'string' ? [...left, ...literalPrefix(node.right)] : left;
  }
  return [];
}

/** A compiled expression: accepts whole terms, with a DFA (automaton.ts). */
export class LuceneRegexp {
  readonly root: RegexpNode;
  /** UTF-8 bytes every matching term starts with (empty when case-insensitive or none). */
  readonly prefix: Buffer;
  readonly dfa: Dfa;

  /** @param workLimit ES's `max_determinized_states`: past it the expression is refused as too complex */
  constructor(
    readonly pattern: string,
    flags = REGEXP_ALL,
    readonly caseInsensitive = false,
    workLimit = DEFAULT_DETERMINIZE_WORK_LIMIT,
  ) {
    this.root = parseLuceneRegexp(pattern, flags);
    this.dfa = compileRegexpDfa(this.root, pattern, caseInsensitive, workLimit, flags);
    this.prefix = caseInsensitive ? Buffer.alloc(0) : Buffer.from(String.fromCodePoint(...literalPrefix(this.root)), 'utf8');
  }

  matches(term: string): boolean {
    return this.dfa.run(Buffer.from(term, 'utf8')) === 1;
  }

  /** The tree matcher alone (an independent oracle the DFA must agree with; used by the tests). */
  matchesOnTree(term: string): boolean {
    const text = [...term].map(cp);
    return new TreeMatcher(text, this.caseInsensitive).ends(this.root, 0)[text.length] === 1;
  }
}
