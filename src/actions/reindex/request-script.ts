/**
 * The `script` of a reindex or update_by_query request: parsed as ES's Script.parse (a string, or
 * {source, lang, params, options}; a stored script `id` is missing), its lang checked as ES's bundled engines
 * check it (expression and mustache cannot run a write context), and compiled here, before the task starts, so
 * an unsupported construct answers a 400 script_exception and nothing is written. It runs in worker threads.
 *
 * Deviation: ES compiles lazily when the first hit is scripted, so over an empty source ES accepts a script that
 * would not compile, and with `wait_for_completion=false` it reports the compile error in the task's result.
 */
import { scriptErrors } from '../../common/errors.js';
import { workerHitScript, type HitScript } from '../../reindex/index.js';
import { compileScript, parseScript } from '../../script/index.js';

export type ScriptedApi = 'reindex' | 'update_by_query';

export function compileRequestScript(value: unknown, api: ScriptedApi, versionsFetched: boolean): HitScript {
  const script = parseScript(value);
  // The context names of ReindexScript.CONTEXT and UpdateByQueryScript.CONTEXT.
  if (script.lang === 'expression' || script.lang === 'mustache') throw scriptErrors.engineContextUnsupported(script.lang, api);
  // Compiled here so a script that cannot run answers a 400 before the task starts; it then runs batch by batch
  // in the script worker threads (reindex/script-pool.ts), off the event loop.
  compileScript(script);
  return workerHitScript(script, { kind: api, versionsFetched });
}
