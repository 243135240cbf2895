/** Test helpers: run a script over a JSON document (parsed as ES's JSON parser types numbers) and read the result. */
import assert from 'node:assert/strict';
import { compileScript, type ScriptContext } from '../../../src/script/index.js';
import { EsError } from '../../../src/common/errors.js';
import { RawJson, expandRawJson, stringifyWithRaw } from '../../../src/common/raw-json.js';

export interface Outcome {
  readonly source: string;
  readonly op: string;
  readonly ctx: ScriptContext;
}

export function run(script: string, doc = '{}', params: Record<string, unknown> = {}, extra: Partial<ScriptContext> = {}): Outcome {
  const ctx: ScriptContext = { op: 'index', _source: expandRawJson(new RawJson(doc)) as Record<string, unknown>, ...extra };
  compileScript({ source: script, lang: 'painless', params }).execute(ctx);
  return { source: stringifyWithRaw(ctx._source), op: ctx.op, ctx };
}

/** The source after the script, as compact JSON. */
export function after(script: string, doc = '{}', params: Record<string, unknown> = {}): string {
  return run(script, doc, params).source;
}

/** The script_exception a script raises (compile or runtime). */
export function failure(script: string, doc = '{}', params: Record<string, unknown> = {}): EsError {
  try {
    run(script, doc, params);
  } catch (err) {
    assert.ok(err instanceof EsError, `expected an EsError, got ${String(err)}`);
    return err;
  }
  assert.fail(`script [${script}] did not fail`);
}

/** The cause of a script failure: [phase, cause type, cause reason]. */
export function cause(script: string, doc = '{}', params: Record<string, unknown> = {}): [string, string, string] {
  const error = failure(script, doc, params);
  assert.equal(error.type, 'script_exception');
  return [error.reason, error.causedBy!.type, error.causedBy!.reason];
}
