/**
 * Tokens to a Program: a recursive-descent parser over the painless subset, with Java's operator precedence.
 * Everything outside the subset is refused here, at compile time, with a cause naming the construct; names are
 * resolved here too (`ctx`, `params` and declared `def` locals; anything else is "cannot resolve symbol", so
 * `constructor`, `process` or `globalThis` are just unknown names). Nesting is capped so a hostile script
 * cannot exhaust the stack of the parser or of the interpreter.
 */
import type { AssignOp, BinaryOp, Expr, Program, Stmt } from './ast.js';
import { CTX_SLOT, PARAMS_SLOT } from './ast.js';
import { tokenize, type Token } from './lexer.js';
import { ScriptFailure, compileMessages } from './messages.js';
import { KNOWN_METHODS } from './methods.js';
import { double, float, int, long, type JavaNumber } from './values.js';

/** Deepest expression or statement nesting accepted. */
export const MAX_NESTING = 128;

const TYPE_NAMES = new Set([
  'int', 'long', 'short', 'byte', 'char', 'float', 'double', 'boolean', 'void', 'var',
  'String', 'Object', 'Map', 'HashMap', 'List', 'ArrayList', 'Set', 'HashSet', 'Integer', 'Long', 'Double', 'Float',
  'Boolean', 'Number', 'Collection', 'CharSequence', 'Iterable',
]);
const CLASS_NAMES = new Set(['Math', 'Integer', 'Long', 'Double', 'Float', 'String', 'Boolean', 'Collections', 'Arrays', 'Objects', 'Instant',
  'ZonedDateTime', 'LocalDate', 'LocalDateTime', 'ZoneId', 'ZoneOffset', 'Duration', 'DateTimeFormatter', 'ChronoUnit', 'Pattern', 'System',
  'Character', 'Byte', 'Short', 'BigDecimal', 'BigInteger', 'UUID', 'Debug', 'StringBuilder', 'Processors']);
const INSTANCEOF_TYPES = new Set(['String', 'Map', 'HashMap', 'List', 'ArrayList', 'Integer', 'Long', 'Double', 'Float', 'Number', 'Boolean', 'Object', 'Collection']);
const RESERVED = new Set(['new', 'try', 'catch', 'throw', 'this', 'do', 'else', 'in', 'instanceof', 'true', 'false', 'null', 'def', 'if', 'for', 'while', 'break', 'continue', 'return']);
const UNSUPPORTED_PUNCT: Record<string, string> = {
  '&': 'bitwise operator [&]', '|': 'bitwise operator [|]', '^': 'bitwise operator [^]', '~': 'bitwise operator [~]',
  '<<': 'shift operator [<<]', '>>': 'shift operator [>>]', '>>>': 'shift operator [>>>]',
  '&=': 'compound assignment [&=]', '|=': 'compound assignment [|=]', '^=': 'compound assignment [^=]', '<<=': 'compound assignment [<<=]',
  '>>=': 'compound assignment [>>=]', '>>>=': 'compound assignment [>>>=]',
  '===': 'identity comparison [===]', '!==': 'identity comparison [!==]', '=~': 'regex find [=~]', '==~': 'regex match [==~]',
  '->': 'lambda', '::': 'method reference',
};
const COMPARISON = new Set(['<', '<=', '>', '>=']);
const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=']);

class Scope {
  private readonly names = new Map<string, number>();
  constructor(readonly parent: Scope | undefined) {}
  lookup(name: string): number | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
  define(name: string, slot: number): void {
    this.names.set(name, slot);
  }
}

class Parser {
  private pos = 0;
  private depth = 0;
  private loopDepth = 0;
  private slotCount = 2;
  private scope = new Scope(undefined);
  readonly statementStarts: number[] = [];

  constructor(private readonly tokens: readonly Token[]) {
    this.scope.define('ctx', CTX_SLOT);
    this.scope.define('params', PARAMS_SLOT);
  }

  private get token(): Token {
    return this.tokens[this.pos]!;
  }

  private peek(ahead = 1): Token {
    return this.tokens[Math.min(this.pos + ahead, this.tokens.length - 1)]!;
  }

  private fail(token: Token = this.token): never {
    if (token.kind === 'eof') throw new ScriptFailure('compile error', token.offset, compileMessages.unexpectedEnd());
    const construct = token.kind === 'punct' ? UNSUPPORTED_PUNCT[token.text] : undefined;
    if (construct !== undefined) throw this.unsupported(token, construct);
    throw new ScriptFailure('compile error', token.offset, compileMessages.invalidTokens(token.text));
  }

  private unsupported(token: Token, construct: string, hint = ''): ScriptFailure {
    return new ScriptFailure('compile error', token.offset, compileMessages.unsupported(construct, hint));
  }

  private is(text: string): boolean {
    const token = this.token;
    return (token.kind === 'punct' || token.kind === 'ident') && token.text === text;
  }

  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.pos++;
    return true;
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.fail();
    return this.tokens[this.pos++]!;
  }

  private enter(token: Token): void {
    if (++this.depth > MAX_NESTING) throw new ScriptFailure('compile error', token.offset, compileMessages.tooDeep(MAX_NESTING));
  }

  private withScope<T>(run: () => T): T {
    const saved = this.scope;
    this.scope = new Scope(saved);
    try {
      return run();
    } finally {
      this.scope = saved;
    }
  }

  private declare(nameToken: Token): number {
    if (nameToken.kind !== 'ident' || RESERVED.has(nameToken.text)) this.fail(nameToken);
    if (this.scope.lookup(nameToken.text) !== undefined) {
      throw new ScriptFailure('compile error', nameToken.offset, compileMessages.alreadyDefined(nameToken.text));
    }
    const slot = this.slotCount++;
    this.scope.define(nameToken.text, slot);
    return slot;
  }

  program(): Program {
    const body: Stmt[] = [];
    while (this.token.kind !== 'eof') {
      if (this.accept(';')) continue;
      body.push(this.statement());
    }
    return { body, slots: this.slotCount, statementStarts: this.statementStarts };
  }

  private statement(): Stmt {
    const token = this.token;
    this.enter(token);
    this.statementStarts.push(token.offset);
    try {
      return this.statementInner(token);
    } finally {
      this.depth--;
    }
  }

  private statementInner(token: Token): Stmt {
    const at = token.offset;
    if (token.kind === 'punct' && token.text === '{') return this.block();
    if (token.kind === 'ident') {
      switch (token.text) {
        case 'if': {
          this.pos++;
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          const then = this.withScope(() => this.statement());
          const otherwise = this.accept('else') ? this.withScope(() => this.statement()) : undefined;
          return { k: 'if', at, test, then, otherwise };
        }
        case 'while': {
          this.pos++;
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          return { k: 'while', at, test, body: this.loopBody(), doWhile: false };
        }
        case 'do': {
          this.pos++;
          const body = this.loopBody();
          this.expect('while');
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          this.endOfStatement();
          return { k: 'while', at, test, body, doWhile: true };
        }
        case 'for':
          this.pos++;
          return this.withScope(() => this.forStatement(at));
        case 'break':
        case 'continue': {
          this.pos++;
          if (this.loopDepth === 0) throw new ScriptFailure('compile error', at, compileMessages.loopOutside(token.text));
          this.endOfStatement();
          return { k: token.text, at };
        }
        case 'return':
          this.pos++;
          if (!this.is(';') && !this.is('}') && this.token.kind !== 'eof') throw this.unsupported(token, 'return with a value');
          this.endOfStatement();
          return { k: 'return', at };
        case 'def': {
          const declaration = this.declaration();
          this.endOfStatement();
          return declaration;
        }
        case 'try':
        case 'throw':
        case 'else':
          throw this.unsupported(token, token.text === 'else' ? 'else without if' : `${token.text} statement`);
        case 'function':
          throw this.unsupported(token, 'function');
        default:
          if (TYPE_NAMES.has(token.text) && this.peek().kind === 'ident') {
            throw this.unsupported(token, `typed declaration [${token.text}]`, '; declare locals with [def]');
          }
          if (TYPE_NAMES.has(token.text) && this.peek().text === '[') throw this.unsupported(token, `array type [${token.text}[]]`);
      }
    }
    const expr = this.expression();
    if (expr.k !== 'assign' && expr.k !== 'update' && expr.k !== 'call') {
      throw new ScriptFailure('compile error', at, compileMessages.notAStatement());
    }
    this.endOfStatement();
    return { k: 'expr', at, expr };
  }

  /** A statement ends with `;`, or right before `}` or the end of the script (painless's optional last `;`). */
  private endOfStatement(): void {
    if (this.accept(';')) return;
    if (this.is('}') || this.token.kind === 'eof') return;
    this.fail();
  }

  private block(): Stmt {
    const at = this.expect('{').offset;
    return this.withScope(() => {
      const body: Stmt[] = [];
      while (!this.is('}')) {
        if (this.token.kind === 'eof') this.fail();
        if (this.accept(';')) continue;
        body.push(this.statement());
      }
      this.pos++;
      return { k: 'block', at, body };
    });
  }

  private loopBody(): Stmt {
    this.loopDepth++;
    try {
      return this.withScope(() => this.statement());
    } finally {
      this.loopDepth--;
    }
  }

  private declaration(): Stmt {
    const at = this.expect('def').offset;
    const nameToken = this.token;
    this.pos++;
    let init: Expr | undefined;
    if (this.accept('=')) init = this.expression();
    // Declared after its initialiser is parsed: `def x = x` does not see itself.
    const slot = this.declare(nameToken);
    if (this.is(',')) throw this.unsupported(this.token, 'multiple declarations in one statement');
    return { k: 'declare', at, slot, init };
  }

  private forStatement(at: number): Stmt {
    this.expect('(');
    // for (def x : iterable) and for (x in iterable)
    if (this.is('def') && this.peek().kind === 'ident' && this.peek(2).text === ':') {
      this.pos++;
      return this.forEach(at);
    }
    if (this.token.kind === 'ident' && this.peek().text === 'in') return this.forEach(at);
    if (this.token.kind === 'ident' && TYPE_NAMES.has(this.token.text) && this.peek().kind === 'ident') {
      throw this.unsupported(this.token, `typed declaration [${this.token.text}]`, '; declare locals with [def]');
    }
    const init: Stmt[] = [];
    if (!this.is(';')) {
      if (this.is('def')) init.push(this.declaration());
      else init.push({ k: 'expr', at: this.token.offset, expr: this.expression() });
    }
    this.expect(';');
    const test = this.is(';') ? undefined : this.expression();
    this.expect(';');
    const step: Expr[] = [];
    if (!this.is(')')) {
      step.push(this.expression());
      while (this.accept(',')) step.push(this.expression());
    }
    this.expect(')');
    return { k: 'for', at, init, test, step, body: this.loopBody() };
  }

  private forEach(at: number): Stmt {
    const nameToken = this.token;
    this.pos++;
    if (!this.accept(':')) this.expect('in');
    const iterable = this.expression();
    this.expect(')');
    const slot = this.declare(nameToken);
    return { k: 'foreach', at, slot, iterable, body: this.loopBody() };
  }

  expression(): Expr {
    const token = this.token;
    this.enter(token);
    try {
      return this.assignment();
    } finally {
      this.depth--;
    }
  }

  private assignment(): Expr {
    const target = this.conditional();
    const token = this.token;
    if (token.kind === 'punct' && ASSIGN_OPS.has(token.text)) {
      this.pos++;
      this.checkAssignable(target, token);
      const value = this.expression();
      return { k: 'assign', at: token.offset, target, op: token.text as AssignOp, value };
    }
    if (token.kind === 'punct' && UNSUPPORTED_PUNCT[token.text] !== undefined && token.text.endsWith('=')) this.fail(token);
    return target;
  }

  private checkAssignable(target: Expr, token: Token): void {
    if (target.k === 'local') {
      if (target.slot === CTX_SLOT || target.slot === PARAMS_SLOT) {
        throw new ScriptFailure('compile error', target.at, compileMessages.readOnly(target.name));
      }
      return;
    }
    if ((target.k === 'field' || target.k === 'index') && !(target.k === 'field' && target.nullSafe)) return;
    throw new ScriptFailure('compile error', token.offset, compileMessages.notAssignable());
  }

  private conditional(): Expr {
    const test = this.logical(0);
    const token = this.token;
    if (this.accept('?')) {
      const then = this.expression();
      this.expect(':');
      const otherwise = this.expression();
      return { k: 'conditional', at: token.offset, test, then, otherwise };
    }
    if (this.accept('?:')) return { k: 'elvis', at: token.offset, left: test, right: this.expression() };
    return test;
  }

  // Binary levels from loosest to tightest.
  private static readonly LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>=', 'instanceof'], ['+', '-'], ['*', '/', '%']];

  private logical(level: number): Expr {
    if (level === Parser.LEVELS.length) return this.unary();
    const savedDepth = this.depth;
    try {
      return this.binaryChain(level);
    } finally {
      this.depth = savedDepth;
    }
  }

  private binaryChain(level: number): Expr {
    let left = this.logical(level + 1);
    for (;;) {
      const token = this.token;
      if (token.kind === 'punct' && UNSUPPORTED_PUNCT[token.text] !== undefined && !token.text.endsWith('=') && token.text !== '->' && token.text !== '::') {
        this.fail(token);
      }
      if ((token.kind !== 'punct' && token.text !== 'instanceof') || !Parser.LEVELS[level]!.includes(token.text)) return left;
      this.pos++;
      if (token.text === 'instanceof') {
        const typeToken = this.token;
        if (typeToken.kind !== 'ident' || !INSTANCEOF_TYPES.has(typeToken.text)) throw this.unsupported(typeToken, `instanceof [${typeToken.text}]`);
        this.pos++;
        left = { k: 'instanceof', at: token.offset, operand: left, type: typeToken.text };
        continue;
      }
      // Left-leaning chains (`1+1+1+...`) are as deep as they are long: each link counts against the nesting cap.
      this.enter(token);
      const right = this.logical(level + 1);
      if (token.text === '&&' || token.text === '||') left = { k: 'logical', at: token.offset, op: token.text, left, right };
      else {
        if (COMPARISON.has(token.text) && (this.token.text === '<' || this.token.text === '>')) this.fail();
        left = { k: 'binary', at: token.offset, op: token.text as BinaryOp, left, right };
      }
    }
  }

  private unary(): Expr {
    const token = this.token;
    if (token.kind === 'punct') {
      if (token.text === '-' && this.peek().kind === 'number') {
        // A negative literal is one constant, so -2147483648 is a valid int.
        this.pos += 2;
        return this.postfixOf({ k: 'literal', at: token.offset, value: numberLiteral(this.tokens[this.pos - 1]!, true) });
      }
      if (token.text === '!' || token.text === '-' || token.text === '+') {
        this.pos++;
        this.enter(token);
        try {
          return { k: 'unary', at: token.offset, op: token.text, operand: this.unary() };
        } finally {
          this.depth--;
        }
      }
      if (token.text === '++' || token.text === '--') {
        this.pos++;
        const target = this.postfix();
        this.checkAssignable(target, token);
        return { k: 'update', at: token.offset, target, op: token.text, prefix: true };
      }
      if (token.text === '(' && this.peek().kind === 'ident' && TYPE_NAMES.has(this.peek().text) && this.peek(2).text === ')') {
        throw this.unsupported(token, `cast to [${this.peek().text}]`);
      }
      if (token.text === '~') this.fail(token);
    }
    const expr = this.postfix();
    const after = this.token;
    if (after.kind === 'punct' && (after.text === '++' || after.text === '--')) {
      this.pos++;
      this.checkAssignable(expr, after);
      return { k: 'update', at: after.offset, target: expr, op: after.text, prefix: false };
    }
    return expr;
  }

  private postfix(): Expr {
    return this.postfixOf(this.primary());
  }

  private postfixOf(start: Expr): Expr {
    let expr = start;
    for (;;) {
      const token = this.token;
      if (token.text === '.' || token.text === '?.') {
        this.pos++;
        const name = this.token;
        if (name.kind !== 'ident' && name.kind !== 'number') this.fail(name);
        this.pos++;
        const nullSafe = token.text === '?.';
        if (this.is('(')) {
          const args = this.arguments();
          if (!KNOWN_METHODS.has(name.text)) throw new ScriptFailure('compile error', name.offset, compileMessages.unknownMethod(name.text, args.length));
          expr = { k: 'call', at: name.offset, target: expr, name: name.text, args, nullSafe };
        } else {
          expr = { k: 'field', at: name.offset, target: expr, name: name.text, nullSafe };
        }
        continue;
      }
      if (token.text === '[' && token.kind === 'punct') {
        this.pos++;
        const index = this.expression();
        this.expect(']');
        expr = { k: 'index', at: token.offset, target: expr, index };
        continue;
      }
      if (token.text === '(' && token.kind === 'punct') throw this.unsupported(token, 'function call');
      return expr;
    }
  }

  private arguments(): Expr[] {
    this.expect('(');
    const args: Expr[] = [];
    if (this.accept(')')) return args;
    do args.push(this.expression());
    while (this.accept(','));
    this.expect(')');
    return args;
  }

  private primary(): Expr {
    const token = this.token;
    const at = token.offset;
    switch (token.kind) {
      case 'number':
        this.pos++;
        return { k: 'literal', at, value: numberLiteral(token) };
      case 'string':
        this.pos++;
        return { k: 'literal', at, value: token.value! };
      case 'ident': {
        this.pos++;
        if (token.text === 'true' || token.text === 'false') return { k: 'literal', at, value: token.text === 'true' };
        if (token.text === 'null') return { k: 'literal', at, value: null };
        if (token.text === 'new') throw this.unsupported(token, 'new');
        if (token.text === 'this') throw this.unsupported(token, 'this');
        if (this.is('->')) throw this.unsupported(this.token, 'lambda');
        if (this.is('(')) throw this.unsupported(token, `function call [${token.text}]`);
        const slot = this.scope.lookup(token.text);
        if (slot !== undefined) return { k: 'local', at, slot, name: token.text };
        if (CLASS_NAMES.has(token.text) || TYPE_NAMES.has(token.text)) throw this.unsupported(token, `class [${token.text}]`);
        if (RESERVED.has(token.text)) this.fail(token);
        throw new ScriptFailure('compile error', at, compileMessages.unresolvedSymbol(token.text));
      }
      case 'punct':
        if (token.text === '(') {
          this.pos++;
          const inner = this.expression();
          this.expect(')');
          return inner;
        }
        if (token.text === '[') return this.collectionLiteral();
        if (token.text === '{') throw this.unsupported(token, 'array initializer');
        return this.fail(token);
      case 'eof':
        return this.fail(token);
    }
  }

  /** `[]`, `[a, b]`, `[:]` and `[k: v, ...]` (ArrayList and HashMap initializers). */
  private collectionLiteral(): Expr {
    const at = this.expect('[').offset;
    if (this.accept(']')) return { k: 'list', at, items: [] };
    if (this.is(':') && this.peek().text === ']') {
      this.pos += 2;
      return { k: 'map', at, entries: [] };
    }
    const first = this.expression();
    if (this.accept(':')) {
      const entries: [Expr, Expr][] = [[first, this.expression()]];
      while (this.accept(',')) {
        const key = this.expression();
        this.expect(':');
        entries.push([key, this.expression()]);
      }
      this.expect(']');
      return { k: 'map', at, entries };
    }
    const items = [first];
    while (this.accept(',')) items.push(this.expression());
    this.expect(']');
    return { k: 'list', at, items };
  }
}

/** Painless's typing of a numeric literal: int by default, L long, F float, D (or a fraction/exponent) double. */
export function numberLiteral(token: Token, negative = false): JavaNumber {
  const text = negative ? `-${token.text}` : token.text;
  const suffix = text[text.length - 1]!.toLowerCase();
  const hasSuffix = suffix === 'l' || suffix === 'f' || suffix === 'd';
  const unsigned = hasSuffix ? token.text.slice(0, -1) : token.text;
  const sign = negative ? -1 : 1;
  const body = unsigned;
  const isHex = /^0[xX]/.test(body);
  const isDecimal = !isHex && /[.eE]/.test(body);
  const invalid = (kind: string): never => {
    throw new ScriptFailure('compile error', token.offset, compileMessages.invalidConstant(kind, text));
  };
  if (suffix === 'f' && !isHex) return float(sign * Number(body));
  if ((suffix === 'd' && !isHex) || isDecimal) {
    if (suffix === 'l') invalid('long');
    return double(sign * Number(body));
  }
  // Java reads a leading 0 as octal.
  const digits = isHex ? body : /^0[0-7]+$/.test(body) ? `0o${body.slice(1)}` : body;
  if (!isHex && /^0\d/.test(body) && !/^0[0-7]+$/.test(body)) invalid(suffix === 'l' ? 'long' : 'int');
  const magnitude = BigInt(digits);
  const decimal = !isHex && digits === body;
  if (suffix === 'l') {
    if (magnitude > 2n ** 64n - 1n || (decimal && magnitude > 2n ** 63n - (negative ? 0n : 1n))) invalid('long');
    return long(negative ? -magnitude : magnitude);
  }
  // Hex and octal literals may use the full 32 bits (0xFFFFFFFF is -1); decimals must fit an int.
  if (decimal ? magnitude > 2147483647n + (negative ? 1n : 0n) : magnitude > 0xffffffffn) invalid('int');
  const bits = BigInt.asIntN(32, magnitude);
  return int(Number(negative ? -bits : bits));
}

export function parse(source: string): Program {
  return new Parser(tokenize(source)).program();
}
