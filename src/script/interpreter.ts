/**
 * Runs a parsed Program over a ctx: a tree walk with a flat frame of locals. Reads normalise what containers
 * hold (JSON RawJson literals become typed Java numbers); writes store values as they are, so numbers written by
 * the script are JavaNumbers that serialise as Java prints them. Loops share one iteration budget per execution
 * (painless's loop counter, 1,000,000 by default). Failures are ScriptFailures at the offset of the failing node.
 */
import type { Expr, Program, Stmt } from './ast.js';
import { CTX_SLOT, PARAMS_SLOT } from './ast.js';
import { ONE, binary, negate } from './arithmetic.js';
import { ScriptFailure, runtimeMessages } from './messages.js';
import { callMethod, listIndex, mapKey, readOnlyContainers, type Fail } from './methods.js';
import { checkCtxPut, checkCtxRemove, checkMetadataRemove, type CtxMetadata } from './ctx-metadata.js';
import { construct } from './constructors.js';
import { defaultValue, explicitCast, implicitCast } from './types.js';
import { MAX_SOURCE_DEPTH, MAX_SOURCE_VALUES, storableProblem } from './storable.js';
import {
  ComparisonTooLarge, JavaNumber, MAX_COMPARED_VALUES, MAX_STRING_LENGTH, StringTooLong, isMap, javaClassName, long, mapGet, mapPut, normalize,
} from './values.js';

/** Painless's `painless.max_loop_counter` default. */
export const MAX_LOOP_ITERATIONS = 1_000_000;

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
const RETURN = 3;
type Signal = typeof NORMAL | typeof BREAK | typeof CONTINUE | typeof RETURN;

// ctx metadata painless types as long even when it fits an int.
const LONG_CTX_KEYS = new Set(['_now', '_version']);

class Execution {
  private readonly frame: unknown[];
  private loopBudget = MAX_LOOP_ITERATIONS;
  /** Offset of the expression being evaluated, for failures raised deep inside value helpers. */
  private at = 0;

  constructor(
    program: Program,
    private readonly ctx: Record<string, unknown>,
    params: Record<string, unknown>,
    private readonly metadata: CtxMetadata | undefined,
    private readonly interrupted: (() => boolean) | undefined,
  ) {
    this.frame = new Array<unknown>(program.slots).fill(null);
    this.frame[CTX_SLOT] = ctx;
    this.frame[PARAMS_SLOT] = params;
  }

  private failAt(at: number): Fail {
    return (cause) => {
      throw new ScriptFailure('runtime error', at, cause);
    };
  }

  run(body: readonly Stmt[], sourceEnd: number): void {
    try {
      this.block(body);
    } catch (err) {
      if (err instanceof StringTooLong) this.failAt(this.at)(runtimeMessages.stringTooLong(MAX_STRING_LENGTH));
      if (err instanceof ComparisonTooLarge) this.failAt(this.at)(runtimeMessages.comparisonTooLarge(MAX_COMPARED_VALUES));
      throw err;
    }
    const problem = storableProblem((this.frame[CTX_SLOT] as Record<string, unknown>)['_source']);
    if (problem === 'too_deep') this.failAt(sourceEnd)(runtimeMessages.sourceTooDeep(MAX_SOURCE_DEPTH));
    if (problem === 'too_many_values') this.failAt(sourceEnd)(runtimeMessages.sourceTooLarge(MAX_SOURCE_VALUES));
  }

  private block(body: readonly Stmt[]): Signal {
    for (const statement of body) {
      const signal = this.statement(statement);
      if (signal !== NORMAL) return signal;
    }
    return NORMAL;
  }

  private tick(at: number): void {
    if (--this.loopBudget < 0) this.failAt(at)(runtimeMessages.loopLimit());
    if ((this.loopBudget & INTERRUPT_CHECK_MASK) === 0 && this.interrupted?.() === true) throw new ScriptInterrupted();
  }

  private statement(node: Stmt): Signal {
    switch (node.k) {
      case 'expr':
        this.expr(node.expr);
        return NORMAL;
      case 'declare': {
        if (node.init === undefined) {
          this.frame[node.slot] = defaultValue(node.cast ?? 'def');
          return NORMAL;
        }
        const value = this.expr(node.init);
        this.frame[node.slot] = node.cast === undefined ? value : implicitCast(value, node.cast, this.failAt(node.init.at));
        return NORMAL;
      }
      case 'block':
        return this.block(node.body);
      case 'if':
        if (this.condition(node.test)) return this.statement(node.then);
        return node.otherwise === undefined ? NORMAL : this.statement(node.otherwise);
      case 'while': {
        if (!node.doWhile && !this.condition(node.test)) return NORMAL;
        for (;;) {
          this.tick(node.at);
          const signal = this.statement(node.body);
          if (signal === BREAK) return NORMAL;
          if (signal === RETURN) return RETURN;
          if (!this.condition(node.test)) return NORMAL;
        }
      }
      case 'for': {
        for (const init of node.init) this.statement(init);
        for (;;) {
          if (node.test !== undefined && !this.condition(node.test)) return NORMAL;
          this.tick(node.at);
          const signal = this.statement(node.body);
          if (signal === BREAK) return NORMAL;
          if (signal === RETURN) return RETURN;
          for (const step of node.step) this.expr(step);
        }
      }
      case 'foreach': {
        const iterable = this.expr(node.iterable);
        if (!Array.isArray(iterable)) {
          const fail = this.failAt(node.iterable.at);
          return iterable === null ? fail(runtimeMessages.nullPointer('Cannot iterate over a null value')) : fail(runtimeMessages.notIterable(javaClassName(iterable)));
        }
        // A snapshot: the loop sees the list as it was when the loop started.
        for (const item of [...iterable]) {
          this.tick(node.at);
          this.frame[node.slot] = node.cast === undefined ? normalize(item) : implicitCast(item, node.cast, this.failAt(node.at));
          const signal = this.statement(node.body);
          if (signal === BREAK) return NORMAL;
          if (signal === RETURN) return RETURN;
        }
        return NORMAL;
      }
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'return':
        return RETURN;
    }
  }

  private condition(test: Expr): boolean {
    const value = this.expr(test);
    if (typeof value !== 'boolean') this.failAt(test.at)(runtimeMessages.notBoolean(javaClassName(value)));
    return value as boolean;
  }

  expr(node: Expr): unknown {
    this.at = node.at;
    switch (node.k) {
      case 'literal':
        return node.value;
      case 'local':
        return this.frame[node.slot];
      case 'field': {
        const target = this.expr(node.target);
        if (target === null && node.nullSafe) return null;
        return this.readField(target, node.name, node.target.k === 'local' && node.target.slot === CTX_SLOT, node.at);
      }
      case 'index': {
        const target = this.expr(node.target);
        return this.readIndex(target, this.expr(node.index), node.at);
      }
      case 'call': {
        const target = this.expr(node.target);
        if (target === null && node.nullSafe) return null;
        const args = node.args.map((arg) => this.expr(arg));
        this.at = node.at;
        if (target === this.ctx && this.metadata !== undefined) this.checkCtxCall(node.name, args, this.failAt(node.at));
        return callMethod(target, node.name, args, this.failAt(node.at));
      }
      case 'list':
        return node.items.map((item) => this.expr(item));
      case 'map': {
        const map: Record<string, unknown> = {};
        for (const [key, value] of node.entries) mapPut(map, mapKey(this.expr(key)), this.expr(value));
        return map;
      }
      case 'unary': {
        const operand = this.expr(node.operand);
        if (node.op === '!') {
          if (typeof operand !== 'boolean') this.failAt(node.at)(runtimeMessages.notBoolean(javaClassName(operand)));
          return !operand;
        }
        if (node.op === '-') return negate(operand, this.failAt(node.at));
        if (!(operand instanceof JavaNumber)) this.failAt(node.at)(runtimeMessages.cannotApplyUnary('+', javaClassName(operand)));
        return operand;
      }
      case 'binary': {
        const left = this.expr(node.left);
        const right = this.expr(node.right);
        this.at = node.at;
        return binary(node.op, left, right, this.failAt(node.at));
      }
      case 'logical': {
        const left = this.condition(node.left);
        if (node.op === '&&' ? !left : left) return left;
        return this.condition(node.right);
      }
      case 'conditional':
        return this.condition(node.test) ? this.expr(node.then) : this.expr(node.otherwise);
      case 'elvis': {
        const left = this.expr(node.left);
        return left !== null ? left : this.expr(node.right);
      }
      case 'instanceof':
        return isInstance(this.expr(node.operand), node.type);
      case 'assign':
        return this.assign(node.target, (current) => {
          const value = this.expr(node.value);
          const fail = this.failAt(node.at);
          if (node.op === '=') return node.cast === undefined ? value : implicitCast(value, node.cast, fail);
          const result = binary(node.op.slice(0, 1) as '+', current(), value, fail);
          return node.cast === undefined ? result : explicitCast(result, node.cast, fail);
        }, node.op !== '=').stored;
      case 'update': {
        const result = this.assign(node.target, (current) => {
          const fail = this.failAt(node.at);
          const stepped = binary(node.op === '++' ? '+' : '-', current(), ONE, fail);
          return node.cast === undefined ? stepped : explicitCast(stepped, node.cast, fail);
        }, true);
        return node.prefix ? result.stored : result.previous;
      }
      case 'cast':
        return explicitCast(this.expr(node.operand), node.type, this.failAt(node.at));
      case 'new':
        return construct(node.type, node.args.map((arg) => this.expr(arg)), this.failAt(node.at));
    }
  }

  /** Map methods on ctx go through the rules of ES's CtxMap: metadata keys, `_source`, and nothing else. */
  private checkCtxCall(name: string, args: unknown[], fail: Fail): void {
    const metadata = this.metadata!;
    if (name === 'put' && args.length === 2) {
      checkCtxPut(metadata, mapKeyOf(args[0]), args[1], fail);
    } else if (name === 'remove' && args.length === 1) {
      checkCtxRemove(metadata, mapKeyOf(args[0]), fail);
    } else if (name === 'clear' && args.length === 0) {
      for (const key of Object.keys(this.ctx)) {
        if (Object.hasOwn(metadata, key)) checkMetadataRemove(metadata[key]!, key, fail);
      }
    } else if (name === 'putAll' && args.length === 1 && isMap(args[0])) {
      for (const [key, value] of Object.entries(args[0])) checkCtxPut(metadata, key, value, fail);
    }
  }

  private readField(target: unknown, name: string, onCtx: boolean, at: number): unknown {
    const fail = this.failAt(at);
    if (isMap(target)) {
      const value = mapGet(target, name);
      if (onCtx && LONG_CTX_KEYS.has(name) && value instanceof JavaNumber && value.kind === 'int') return long(BigInt(value.value));
      return value;
    }
    if (target === null) return fail(runtimeMessages.nullPointer(`Cannot read field [${name}] of a null value`));
    return fail(runtimeMessages.dynamicField(javaClassName(target), name));
  }

  private readIndex(target: unknown, index: unknown, at: number): unknown {
    const fail = this.failAt(at);
    if (isMap(target)) return mapGet(target, mapKey(index));
    if (Array.isArray(target)) return normalize(target[listIndex(target, intIndex(index, fail), true, fail)]);
    if (target === null) return fail(runtimeMessages.nullPointer('Cannot read an index of a null value'));
    return fail(runtimeMessages.classCast(`Attempting to address a non-array-like type [${javaClassName(target)}] as an array.`));
  }

  /**
   * Writes `compute(current)` into the location `target` names (a local, a map entry or a list element), reading
   * the container once as Java's compound assignment does.
   */
  private assign(target: Expr, compute: (current: () => unknown) => unknown, readsCurrent: boolean): { stored: unknown; previous: unknown } {
    if (target.k === 'local') {
      const previous = this.frame[target.slot];
      const stored = compute(() => previous);
      this.frame[target.slot] = stored;
      return { stored, previous };
    }
    if (target.k !== 'field' && target.k !== 'index') throw new Error('the parser only lets locals, fields and indexes be assigned');
    const container = this.expr(target.target);
    const key = target.k === 'field' ? target.name : this.expr(target.index);
    const fail = this.failAt(target.at);
    if (container !== null && typeof container === 'object' && readOnlyContainers.has(container)) fail(runtimeMessages.unmodifiable());
    if (isMap(container)) {
      const name = target.k === 'field' ? (key as string) : mapKey(key);
      const previous = readsCurrent ? mapGet(container, name) : null;
      const stored = compute(() => previous);
      if (container === this.ctx && this.metadata !== undefined) checkCtxPut(this.metadata, name, stored, fail);
      mapPut(container, name, stored);
      return { stored, previous };
    }
    if (Array.isArray(container) && target.k === 'index') {
      const position = listIndex(container, intIndex(key, fail), true, fail);
      const previous = normalize(container[position]);
      const stored = compute(() => previous);
      container[position] = stored;
      return { stored, previous };
    }
    if (container === null) return fail(runtimeMessages.nullPointer(`Cannot write ${target.k === 'field' ? `field [${key as string}]` : 'an index'} of a null value`));
    return target.k === 'field'
      ? fail(runtimeMessages.dynamicField(javaClassName(container), key as string))
      : fail(runtimeMessages.classCast(`Attempting to address a non-array-like type [${javaClassName(container)}] as an array.`));
  }
}

/** A map key as painless would look it up (ctx keys are strings; anything else matches no metadata key). */
function mapKeyOf(key: unknown): string | undefined {
  return typeof key === 'string' ? key : undefined;
}

function intIndex(index: unknown, fail: Fail): number {
  if (index instanceof JavaNumber && index.kind === 'int') return index.value as number;
  if (index === null) return fail(runtimeMessages.nullPointer('Cannot use a null index'));
  return fail(runtimeMessages.classCast(`Cannot cast [${javaClassName(index)}] to [int].`));
}

function isInstance(value: unknown, type: string): boolean {
  if (value === null) return false;
  switch (type) {
    case 'Object': return true;
    case 'String': return typeof value === 'string';
    case 'Boolean': return typeof value === 'boolean';
    case 'Map': case 'HashMap': return isMap(value);
    case 'List': case 'ArrayList': case 'Collection': return Array.isArray(value);
    case 'Number': return value instanceof JavaNumber;
    case 'Integer': return value instanceof JavaNumber && value.kind === 'int';
    case 'Long': return value instanceof JavaNumber && value.kind === 'long';
    case 'Double': return value instanceof JavaNumber && value.kind === 'double';
    case 'Float': return value instanceof JavaNumber && value.kind === 'float';
    default: return false;
  }
}

export function execute(
  program: Program,
  ctx: Record<string, unknown>,
  params: Record<string, unknown>,
  sourceLength: number,
  metadata: CtxMetadata | undefined,
  interrupted?: () => boolean,
): void {
  new Execution(program, ctx, params, metadata, interrupted).run(program.body, sourceLength);
}

/**
 * Thrown out of a running script when its caller asked it to stop (a cancelled task): not a script failure,
 * the run simply ends. Looked at every 1,024 loop iterations, so even a 999,999-iteration loop stops at once.
 */
export class ScriptInterrupted extends Error {
  constructor() {
    super('script interrupted');
    this.name = 'ScriptInterrupted';
  }
}

/** Loop iterations between two looks at the interruption flag. */
const INTERRUPT_CHECK_MASK = 0x3ff;
