/**
 * The syntax tree of the painless subset. Every node keeps its source offset (for the `^---- HERE` pointer of
 * an error). Locals are resolved at compile time to slots of a flat frame; `ctx` and `params` are slots 0 and 1.
 */
import type { DeclaredType } from './types.js';
import type { JavaNumber } from './values.js';

export type Expr =
  | { readonly k: 'literal'; readonly at: number; readonly value: null | boolean | string | JavaNumber }
  | { readonly k: 'local'; readonly at: number; readonly slot: number; readonly name: string }
  | { readonly k: 'field'; readonly at: number; readonly target: Expr; readonly name: string; readonly nullSafe: boolean }
  | { readonly k: 'index'; readonly at: number; readonly target: Expr; readonly index: Expr }
  | { readonly k: 'call'; readonly at: number; readonly target: Expr; readonly name: string; readonly args: readonly Expr[]; readonly nullSafe: boolean }
  | { readonly k: 'list'; readonly at: number; readonly items: readonly Expr[] }
  | { readonly k: 'map'; readonly at: number; readonly entries: readonly (readonly [Expr, Expr])[] }
  | { readonly k: 'unary'; readonly at: number; readonly op: '-' | '+' | '!'; readonly operand: Expr }
  | { readonly k: 'binary'; readonly at: number; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly k: 'logical'; readonly at: number; readonly op: '&&' | '||'; readonly left: Expr; readonly right: Expr }
  | { readonly k: 'conditional'; readonly at: number; readonly test: Expr; readonly then: Expr; readonly otherwise: Expr }
  | { readonly k: 'elvis'; readonly at: number; readonly left: Expr; readonly right: Expr }
  | { readonly k: 'instanceof'; readonly at: number; readonly operand: Expr; readonly type: string }
  /** `cast`: the target is a typed local (`=` converts implicitly, compound forms cast back explicitly, as Java). */
  | { readonly k: 'assign'; readonly at: number; readonly target: Expr; readonly op: AssignOp; readonly value: Expr; readonly cast?: DeclaredType }
  | { readonly k: 'update'; readonly at: number; readonly target: Expr; readonly op: '++' | '--'; readonly prefix: boolean; readonly cast?: DeclaredType }
  | { readonly k: 'cast'; readonly at: number; readonly type: DeclaredType | 'def'; readonly operand: Expr }
  | { readonly k: 'new'; readonly at: number; readonly type: 'HashMap' | 'ArrayList'; readonly args: readonly Expr[] };

export type BinaryOp = '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=';
export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=';

export type Stmt =
  | { readonly k: 'expr'; readonly at: number; readonly expr: Expr }
  /** `cast`: the local's declared type (undefined for `def`); the initialiser converts to it implicitly. */
  | { readonly k: 'declare'; readonly at: number; readonly slot: number; readonly init: Expr | undefined; readonly cast?: DeclaredType }
  | { readonly k: 'if'; readonly at: number; readonly test: Expr; readonly then: Stmt; readonly otherwise: Stmt | undefined }
  | { readonly k: 'block'; readonly at: number; readonly body: readonly Stmt[] }
  | { readonly k: 'while'; readonly at: number; readonly test: Expr; readonly body: Stmt; readonly doWhile: boolean }
  | { readonly k: 'for'; readonly at: number; readonly init: readonly Stmt[]; readonly test: Expr | undefined; readonly step: readonly Expr[]; readonly body: Stmt }
  | { readonly k: 'foreach'; readonly at: number; readonly slot: number; readonly iterable: Expr; readonly body: Stmt; readonly cast?: DeclaredType }
  | { readonly k: 'break' | 'continue' | 'return'; readonly at: number };

export interface Program {
  readonly body: readonly Stmt[];
  /** Frame size: ctx, params and every local. */
  readonly slots: number;
  /** Offsets where statements start, ascending (a runtime error's snippet is its statement). */
  readonly statementStarts: readonly number[];
}

export const CTX_SLOT = 0;
export const PARAMS_SLOT = 1;
