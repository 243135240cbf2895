/**
 * A ScriptFailure as painless reports it: a script_exception (`compile error` or `runtime error`) with
 * `script_stack` (the snippet and a `^---- HERE` pointer), `script`, `lang` and `position`, caused by the Java
 * exception. A compile error shows 25 characters either side of the offset (with `... ` ellipses where cut); a
 * runtime error shows the statement that failed, as PainlessScriptEngine.convertToScriptException does.
 */
import { EsError, scriptErrors } from '../common/errors.js';
import type { ScriptFailure } from './messages.js';

const WINDOW = 25;
const POINTER = '^---- HERE';

function compileStack(source: string, offset: number): { stack: string[]; start: number; end: number } {
  const start = Math.max(0, offset - WINDOW);
  const end = Math.min(source.length, offset + WINDOW);
  const prefix = start > 0 ? '... ' : '';
  const suffix = end < source.length ? ' ...' : '';
  const snippet = prefix + source.slice(start, end) + suffix;
  return { stack: [snippet, ' '.repeat(prefix.length + offset - start) + POINTER], start, end };
}

function runtimeStack(source: string, offset: number, statementStarts: readonly number[]): { stack: string[]; start: number; end: number } {
  let start = 0;
  let end = source.length;
  for (const statementStart of statementStarts) {
    if (statementStart <= offset) start = Math.max(start, statementStart);
  }
  for (const statementStart of statementStarts) {
    if (statementStart > start) end = Math.min(end, statementStart);
  }
  return { stack: [source.slice(start, end), ' '.repeat(Math.max(0, offset - start)) + POINTER], start, end };
}

export function toScriptException(failure: ScriptFailure, source: string, lang: string, statementStarts: readonly number[]): EsError {
  const offset = Math.min(Math.max(failure.offset, 0), source.length);
  const { stack, start, end } = failure.phase === 'compile error' ? compileStack(source, offset) : runtimeStack(source, offset, statementStarts);
  return scriptErrors.scriptException(
    failure.phase,
    { script_stack: stack, script: source, lang, position: { offset, start, end } },
    failure.cause,
  );
}
