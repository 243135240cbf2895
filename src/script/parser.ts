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
import { DECLARABLE_TYPES, canonicalName, castProblem, isNumericType, isPrimitiveType, promoteTypes, type DeclaredType, type StaticType } from './types.js';
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

interface LocalVariable {
  readonly slot: number;
  readonly type: DeclaredType | 'def';
}

class Scope {
  private readonly names = new Map<string, LocalVariable>();
  constructor(readonly parent: Scope | undefined) {}
  lookup(name: string): LocalVariable | undefined {
    return this.names.get(name) ?? this.parent?.lookup(name);
  }
  define(name: string, local: LocalVariable): void {
    this.names.set(name, local);
  }
}

/** The declared type a type token names, or undefined for a type the subset does not declare. */
function declaredType(token: Token): DeclaredType | 'def' | undefined {
  if (token.kind !== 'ident') return undefined;
  if (token.text === 'def') return 'def';
  return DECLARABLE_TYPES.has(token.text) ? (token.text as DeclaredType) : undefined;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private loopDepth = 0;
  private slotCount = 2;
  private scope = new Scope(undefined);
  readonly statementStarts: number[] = [];
  /** The static type of each expression that has one other than `def` (painless's compile-time typing). */
  private readonly types = new Map<Expr, StaticType>();

  constructor(private readonly tokens: readonly Token[]) {
    this.scope.define('ctx', { slot: CTX_SLOT, type: 'def' });
    this.scope.define('params', { slot: PARAMS_SLOT, type: 'def' });
  }

  private typed<T extends Expr>(expr: T, type: StaticType): T {
    if (type !== 'def') this.types.set(expr, type);
    return expr;
  }

  private typeOf(expr: Expr): StaticType {
    return this.types.get(expr) ?? 'def';
  }

  /** A conversion the compiler refuses (`int x = 1.5`, `String s = 1`) is a compile error at `at`. */
  private checkCast(from: StaticType, to: DeclaredType | 'def', explicit: boolean, at: number): void {
    if (to === 'def') return;
    const problem = castProblem(from, to, explicit);
    if (problem !== undefined) throw new ScriptFailure('compile error', at, problem);
  }

  /** The static type of `left op right`, refusing at compile time what painless refuses (`true + 1`). */
  private binaryType(op: string, left: StaticType, right: StaticType, at: number): StaticType {
    if (op === '==' || op === '!=') return 'boolean';
    const bothKnown = left !== 'def' && left !== 'null' && right !== 'def' && right !== 'null';
    if (op === '+' && (left === 'String' || right === 'String')) return 'String';
    if (isNumericType(left) && isNumericType(right)) return COMPARISON.has(op) ? 'boolean' : promoteTypes(left, right);
    if (bothKnown) throw new ScriptFailure('compile error', at, compileMessages.cannotApply(op, canonicalName(left), canonicalName(right)));
    return COMPARISON.has(op) ? 'boolean' : 'def';
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

  private declare(nameToken: Token, type: DeclaredType | 'def'): number {
    if (nameToken.kind !== 'ident' || RESERVED.has(nameToken.text)) this.fail(nameToken);
    if (TYPE_NAMES.has(nameToken.text)) throw new ScriptFailure('compile error', nameToken.offset, compileMessages.typeAsName(nameToken.text));
    if (this.scope.lookup(nameToken.text) !== undefined) {
      throw new ScriptFailure('compile error', nameToken.offset, compileMessages.alreadyDefined(nameToken.text));
    }
    const slot = this.slotCount++;
    this.scope.define(nameToken.text, { slot, type });
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
          if (DECLARABLE_TYPES.has(token.text) && this.peek().kind === 'ident') {
            const declaration = this.declaration();
            this.endOfStatement();
            return declaration;
          }
          if (TYPE_NAMES.has(token.text) && this.peek().kind === 'ident') throw this.unsupportedType(token);
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

  private unsupportedType(token: Token): ScriptFailure {
    return this.unsupported(token, `typed declaration [${token.text}]`, `; declare locals with [def] or one of [${[...DECLARABLE_TYPES].join(', ')}]`);
  }

  /** `def x = ...;` or `<type> x = ...;`: a typed local converts what it is given to its type, as painless. */
  private declaration(): Stmt {
    const typeToken = this.token;
    const type = declaredType(typeToken)!;
    const at = typeToken.offset;
    this.pos++;
    const nameToken = this.token;
    this.pos++;
    let init: Expr | undefined;
    if (this.accept('=')) {
      init = this.expression();
      this.checkCast(this.typeOf(init), type, false, init.at);
    }
    // Declared after its initialiser is parsed: `def x = x` does not see itself.
    const slot = this.declare(nameToken, type);
    if (this.is(',')) throw this.unsupported(this.token, 'multiple declarations in one statement');
    return type === 'def' ? { k: 'declare', at, slot, init } : { k: 'declare', at, slot, init, cast: type };
  }

  private forStatement(at: number): Stmt {
    this.expect('(');
    // for (def x : iterable), for (String x : iterable) and for (x in iterable)
    const loopType = declaredType(this.token);
    if (loopType !== undefined && this.peek().kind === 'ident' && this.peek(2).text === ':') {
      this.pos++;
      return this.forEach(at, loopType);
    }
    if (this.token.kind === 'ident' && this.peek().text === 'in') return this.forEach(at, 'def');
    if (this.token.kind === 'ident' && loopType === undefined && TYPE_NAMES.has(this.token.text) && this.peek().kind === 'ident') {
      throw this.unsupportedType(this.token);
    }
    const init: Stmt[] = [];
    if (!this.is(';')) {
      if (loopType !== undefined && this.peek().kind === 'ident') init.push(this.declaration());
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

  private forEach(at: number, type: DeclaredType | 'def'): Stmt {
    const nameToken = this.token;
    this.pos++;
    if (!this.accept(':')) this.expect('in');
    const iterable = this.expression();
    this.expect(')');
    const slot = this.declare(nameToken, type);
    const body = this.loopBody();
    return type === 'def' ? { k: 'foreach', at, slot, iterable, body } : { k: 'foreach', at, slot, iterable, body, cast: type };
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
      const op = token.text as AssignOp;
      const targetType = this.typeOf(target);
      if (target.k !== 'local' || targetType === 'def') return { k: 'assign', at: token.offset, target, op, value };
      // A typed local: `=` converts implicitly; `x op= v` is `x = (type) (x op v)`, as in Java.
      const type = targetType as DeclaredType;
      if (op === '=') this.checkCast(this.typeOf(value), type, false, value.at);
      else this.checkCast(this.binaryType(op.slice(0, 1), type, this.typeOf(value), token.offset), type, true, value.at);
      return this.typed({ k: 'assign', at: token.offset, target, op, value, cast: type }, type);
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
      return this.typed({ k: 'conditional', at: token.offset, test, then, otherwise }, conditionalType(this.typeOf(then), this.typeOf(otherwise)));
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
        left = this.typed({ k: 'instanceof', at: token.offset, operand: left, type: typeToken.text }, 'boolean');
        continue;
      }
      // Left-leaning chains (`1+1+1+...`) are as deep as they are long: each link counts against the nesting cap.
      this.enter(token);
      const right = this.logical(level + 1);
      if (token.text === '&&' || token.text === '||') left = this.typed({ k: 'logical', at: token.offset, op: token.text, left, right }, 'boolean');
      else {
        if (COMPARISON.has(token.text) && (this.token.text === '<' || this.token.text === '>')) this.fail();
        const type = this.binaryType(token.text, this.typeOf(left), this.typeOf(right), token.offset);
        left = this.typed({ k: 'binary', at: token.offset, op: token.text as BinaryOp, left, right }, type);
      }
    }
  }

  private unary(): Expr {
    const token = this.token;
    if (token.kind === 'punct') {
      if (token.text === '-' && this.peek().kind === 'number') {
        // A negative literal is one constant, so -2147483648 is a valid int.
        this.pos += 2;
        const literal = numberLiteral(this.tokens[this.pos - 1]!, true);
        return this.postfixOf(this.typed({ k: 'literal', at: token.offset, value: literal }, literal.kind));
      }
      if (token.text === '!' || token.text === '-' || token.text === '+') {
        this.pos++;
        this.enter(token);
        try {
          const operand = this.unary();
          const operandType = this.typeOf(operand);
          const type: StaticType = token.text === '!' ? 'boolean' : isNumericType(operandType) ? operandType : 'def';
          return this.typed({ k: 'unary', at: token.offset, op: token.text, operand }, type);
        } finally {
          this.depth--;
        }
      }
      if (token.text === '++' || token.text === '--') {
        this.pos++;
        const target = this.postfix();
        this.checkAssignable(target, token);
        return this.update(target, token, true);
      }
      if (token.text === '(' && this.peek().kind === 'ident' && this.peek(2).text === ')') {
        const castType = declaredType(this.peek());
        if (castType !== undefined) return this.cast(token, castType);
        if (TYPE_NAMES.has(this.peek().text)) throw this.unsupported(token, `cast to [${this.peek().text}]`);
      }
      if (token.text === '~') this.fail(token);
    }
    const expr = this.postfix();
    const after = this.token;
    if (after.kind === 'punct' && (after.text === '++' || after.text === '--')) {
      this.pos++;
      this.checkAssignable(expr, after);
      return this.update(expr, after, false);
    }
    return expr;
  }

  /** `x++`, `--x`: on a typed local only a number steps, and the result is cast back to its type. */
  private update(target: Expr, token: Token, prefix: boolean): Expr {
    const op = token.text as '++' | '--';
    const type = this.typeOf(target);
    if (target.k !== 'local' || type === 'def') return { k: 'update', at: token.offset, target, op, prefix };
    if (!isNumericType(type)) throw new ScriptFailure('compile error', token.offset, compileMessages.cannotApply(op.slice(0, 1), canonicalName(type), 'int'));
    return this.typed({ k: 'update', at: token.offset, target, op, prefix, cast: type }, type);
  }

  /** `(type) operand`: numbers convert between numeric types; references are checked when the cast runs. */
  private cast(open: Token, type: DeclaredType | 'def'): Expr {
    this.pos += 3;
    this.enter(open);
    try {
      const operand = this.unary();
      this.checkCast(this.typeOf(operand), type, true, open.offset);
      return this.typed({ k: 'cast', at: open.offset, type, operand }, type);
    } finally {
      this.depth--;
    }
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
      case 'number': {
        this.pos++;
        const literal = numberLiteral(token);
        return this.typed({ k: 'literal', at, value: literal }, literal.kind);
      }
      case 'string':
        this.pos++;
        return this.typed({ k: 'literal', at, value: token.value! }, 'String');
      case 'ident': {
        this.pos++;
        if (token.text === 'true' || token.text === 'false') return this.typed({ k: 'literal', at, value: token.text === 'true' }, 'boolean');
        if (token.text === 'null') return this.typed({ k: 'literal', at, value: null }, 'null');
        if (token.text === 'new') return this.newInstance(token);
        if (token.text === 'this') throw this.unsupported(token, 'this');
        if (this.is('->')) throw this.unsupported(this.token, 'lambda');
        if (this.is('(')) throw this.unsupported(token, `function call [${token.text}]`);
        const local = this.scope.lookup(token.text);
        if (local !== undefined) return this.typed({ k: 'local', at, slot: local.slot, name: token.text }, local.type);
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

  /** `new HashMap()` / `new ArrayList()`, with an optional capacity or a collection to copy. */
  private newInstance(keyword: Token): Expr {
    const typeToken = this.token;
    if (typeToken.kind !== 'ident') this.fail(typeToken);
    if (this.peek().text === '[') throw this.unsupported(typeToken, `array type [${typeToken.text}[]]`);
    if (typeToken.text !== 'HashMap' && typeToken.text !== 'ArrayList') throw this.unsupported(typeToken, `new [${typeToken.text}]`, '; only [new HashMap()] and [new ArrayList()] are supported');
    this.pos++;
    const args = this.arguments();
    if (args.length > 1) throw this.unsupported(typeToken, `constructor [${typeToken.text}/${args.length}]`);
    return this.typed({ k: 'new', at: keyword.offset, type: typeToken.text, args }, typeToken.text);
  }

  /** `[]`, `[a, b]`, `[:]` and `[k: v, ...]` (ArrayList and HashMap initializers). */
  private collectionLiteral(): Expr {
    const at = this.expect('[').offset;
    if (this.accept(']')) return this.typed({ k: 'list', at, items: [] }, 'ArrayList');
    if (this.is(':') && this.peek().text === ']') {
      this.pos += 2;
      return this.typed({ k: 'map', at, entries: [] }, 'HashMap');
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
      return this.typed({ k: 'map', at, entries }, 'HashMap');
    }
    const items = [first];
    while (this.accept(',')) items.push(this.expression());
    this.expect(']');
    return this.typed({ k: 'list', at, items }, 'ArrayList');
  }
}

/** The static type of `test ? a : b`: the common type when there is one (numbers promote), else def. */
function conditionalType(then: StaticType, otherwise: StaticType): StaticType {
  if (then === otherwise) return then;
  if (isNumericType(then) && isNumericType(otherwise)) return promoteTypes(then, otherwise);
  if (then === 'null' && !isPrimitiveType(otherwise)) return otherwise;
  if (otherwise === 'null' && !isPrimitiveType(then)) return then;
  return 'def';
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
