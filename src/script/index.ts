/**
 * Scripts: a safe subset of painless for the write APIs (`_update`, reindex, update_by_query). The source is
 * tokenized, parsed and run by a tree-walking interpreter written here; nothing is handed to `eval`, `Function`
 * or `vm`, and the only names a script can reach are `ctx`, `params` and its own `def` locals.
 *
 * Values in `ctx._source` are JSON trees as `expandRawJson` builds them (numbers as RawJson literals, typed as
 * ES's JSON parser types them: int, long or double); JS numbers and bigints are accepted too. Numbers a script
 * writes are JavaNumbers (a RawJson subclass), so `stringifyWithRaw` prints the changed source as Java would.
 * What is supported and refused is listed in README.md beside this file.
 */
import { didYouMean } from '../common/did-you-mean.js';
import { EsError, errors, scriptErrors } from '../common/errors.js';
import { RawJson, expandRawJson } from '../common/raw-json.js';
import type { Program } from './ast.js';
import { execute } from './interpreter.js';
import { ScriptFailure } from './messages.js';
import { readOnlyContainers } from './methods.js';
import { parse } from './parser.js';
import { toScriptException } from './script-error.js';
import { isMap } from './values.js';
import type { CtxMetadata } from './ctx-metadata.js';

export { JavaNumber } from './values.js';
export { MAX_LOOP_ITERATIONS, ScriptInterrupted } from './interpreter.js';
export { MAX_NESTING } from './parser.js';
export { REINDEX_METADATA, UPDATE_BY_QUERY_METADATA, UPDATE_METADATA, UPSERT_METADATA, type CtxMetadata, type FieldRule } from './ctx-metadata.js';

export interface Script {
  readonly source: string;
  readonly lang: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** The ctx a write script sees: reindex/update_by_query/update give it _index, _id, _version, _routing, _source, op, _now. */
export interface ScriptContext {
  _index?: string;
  _id?: string;
  _version?: number;
  _routing?: string | null;
  _source: Record<string, unknown>;
  op: string;
  _now?: number;
  [key: string]: unknown;
}

export interface CompiledScript {
  /**
   * Runs the script against `ctx` (changing it in place); throws ES's script_exception (`runtime error`).
   * `metadata` (optional) applies ES 8's rules for the ctx metadata keys of a write context (UPDATE_METADATA,
   * REINDEX_METADATA, ...): read-only keys, types, allowed `op` values. Without it ctx is a plain map.
   * `interrupted` is looked at while loops run: when it answers true the run stops with ScriptInterrupted.
   */
  execute(ctx: ScriptContext, metadata?: CtxMetadata, interrupted?: () => boolean): void;
}

/** ES's `script.max_size_in_bytes` default. */
export const MAX_SCRIPT_SIZE = 65_535;
/** ES's `script.cache.max_size` default. */
const CACHE_SIZE = 100;

export const DEFAULT_LANG = 'painless';
const SCRIPT_FIELDS = new Set(['source', 'id', 'lang', 'params', 'options']);

function scriptFieldError(message: string): EsError {
  return new EsError('x_content_parse_exception', `[script] ${message}`);
}

/** ES's Script.parse: a string, or {source|id, lang, params, options}; ES errors for bad input (stored scripts by id → clear error). */
export function parseScript(value: unknown): Script {
  const tree = value instanceof RawJson ? expandRawJson(value) : value;
  if (typeof tree === 'string') return { source: tree, lang: DEFAULT_LANG, params: {} };
  if (!isMap(tree)) throw errors.illegalArgument(`[script] expected a string or an object, got [${tree === null ? 'null' : Array.isArray(tree) ? 'array' : typeof tree}]`);
  for (const key of Object.keys(tree)) {
    if (!SCRIPT_FIELDS.has(key)) throw scriptFieldError(`unknown field [${key}]${didYouMean(key, SCRIPT_FIELDS)}`);
  }
  const { source, id, lang, params, options } = tree;
  if (source !== undefined && id !== undefined) throw errors.illegalArgument('must only use one of [source, id] when specifying a script');
  if (source === undefined && id === undefined) throw errors.illegalArgument('must specify either [source] for an inline script or [id] for a stored script');
  if (lang !== undefined && typeof lang !== 'string') throw scriptFieldError('failed to parse field [lang]');
  if (params !== undefined && params !== null && !isMap(params)) throw scriptFieldError('failed to parse field [params]');
  if (options !== undefined && options !== null) {
    if (!isMap(options)) throw scriptFieldError('failed to parse field [options]');
    const illegal = Object.keys(options).filter((key) => key !== 'content_type');
    if (illegal.length > 0) throw errors.illegalArgument(`illegal compiler options [{${illegal.map((key) => `${key}=${String(options[key])}`).join(', ')}}] specified`);
  }
  if (id !== undefined) {
    if (typeof id !== 'string') throw scriptFieldError('failed to parse field [id]');
    if (lang !== undefined) throw errors.illegalArgument('illegally specified <lang> for a stored script');
    // Gannet keeps no stored scripts (no `PUT _scripts/<id>`), so every stored script is missing.
    throw scriptErrors.storedScriptMissing(id);
  }
  if (typeof source !== 'string') throw scriptFieldError('failed to parse field [source]');
  return { source, lang: (lang as string | undefined) ?? DEFAULT_LANG, params: (params as Record<string, unknown> | null | undefined) ?? {} };
}

const cache = new Map<string, Program>();

function compileProgram(source: string): Program {
  const cached = cache.get(source);
  if (cached !== undefined) {
    // Refresh its place: the cache evicts the least recently used script.
    cache.delete(source);
    cache.set(source, cached);
    return cached;
  }
  let program: Program;
  try {
    program = parse(source);
  } catch (err) {
    if (err instanceof ScriptFailure) throw toScriptException(err, source, DEFAULT_LANG, []);
    throw err;
  }
  cache.set(source, program);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return program;
}

/** Compiles (and caches by source) or throws ES's script_exception (400) naming the unsupported construct. */
export function compileScript(script: Script): CompiledScript {
  if (script.lang !== DEFAULT_LANG) throw scriptErrors.langNotSupported(script.lang);
  const size = Buffer.byteLength(script.source, 'utf8');
  if (size > MAX_SCRIPT_SIZE) throw scriptErrors.tooLarge(MAX_SCRIPT_SIZE, size, script.source);
  const program = compileProgram(script.source);
  const params = script.params as Record<string, unknown>;
  readOnlyContainers.add(params);
  return {
    execute(ctx: ScriptContext, metadata?: CtxMetadata, interrupted?: () => boolean): void {
      try {
        execute(program, ctx, params, script.source.length, metadata, interrupted);
      } catch (err) {
        if (err instanceof ScriptFailure) throw toScriptException(err, script.source, script.lang, program.statementStarts);
        throw err;
      }
    },
  };
}
