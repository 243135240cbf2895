/**
 * The scripted half of ES's UpdateHelper: runs an update's `script` over the current document (ctx with `op`
 * "index", `_index`, `_type`, `_id`, `_version`, `_routing`, `_source`, `_now`) or, for `scripted_upsert`, over
 * the upsert document (ctx `op` "create"), and reads back what the script decided. `ctx.op` is read leniently as
 * ES does: "delete" deletes, "none" (and anything unknown) is a noop; any failure, compile or runtime, is ES's
 * 400 "failed to execute script" caused by the script_exception.
 */
import { EsError, scriptErrors, toEsError } from '../../common/errors.js';
import { UPDATE_METADATA, UPSERT_METADATA, compileScript, type CtxMetadata, type Script, type ScriptContext } from '../../script/index.js';
import { isMap } from '../../script/values.js';
import { treeFromSource, treeToBytes, type JsonTree, type StoredScriptReference } from './update-request.js';

export type ScriptedUpdate = { readonly op: 'index' | 'delete' | 'none'; readonly source: JsonTree };
export type ScriptedUpsert = { readonly op: 'create' | 'none'; readonly source: JsonTree };

export interface CurrentDocument {
  readonly index: string;
  readonly id: string;
  readonly version: number;
  readonly routing: string | undefined;
}

function run(script: Script | StoredScriptReference, ctx: ScriptContext, metadata: CtxMetadata): void {
  try {
    if ('storedScriptError' in script) throw script.storedScriptError;
    compileScript(script).execute(ctx, metadata);
  } catch (err) {
    throw scriptErrors.updateScriptFailed(toEsError(err));
  }
}

function sourceAfter(ctx: ScriptContext): JsonTree {
  const source = ctx._source as unknown;
  if (isMap(source)) return source;
  const type = source === null || source === undefined ? 'null' : Array.isArray(source) ? 'java.util.ArrayList' : 'java.lang.Object';
  throw scriptErrors.updateScriptFailed(new EsError('class_cast_exception', `Cannot cast [${type}] to [java.util.Map] for [ctx._source]`));
}

export function runUpdateScript(script: Script | StoredScriptReference, current: CurrentDocument, source: Uint8Array, now: number): ScriptedUpdate {
  const ctx: ScriptContext = {
    op: 'index',
    _index: current.index,
    _type: '_doc',
    _id: current.id,
    _version: current.version,
    _routing: current.routing ?? null,
    _source: treeFromSource(source),
    _now: now,
  };
  run(script, ctx, UPDATE_METADATA);
  const op = ctx.op === 'index' || ctx.op === 'delete' ? ctx.op : 'none';
  return { op, source: sourceAfter(ctx) };
}

export function runUpsertScript(script: Script | StoredScriptReference, upsert: JsonTree, now: number): ScriptedUpsert {
  // A copy: the request's upsert document is reused when the update is retried.
  const ctx: ScriptContext = { op: 'create', _source: treeFromSource(treeToBytes(upsert)), _now: now };
  run(script, ctx, UPSERT_METADATA);
  return { op: ctx.op === 'create' ? 'create' : 'none', source: sourceAfter(ctx) };
}
