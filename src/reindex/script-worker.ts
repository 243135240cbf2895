/**
 * The worker thread that runs reindex and update_by_query scripts (script-pool.ts starts it): one batch of
 * hits per message, each through the same `scriptApplier` the event loop would run, so a script that loops a
 * million times per document costs this thread, not the node's. A cancelled batch stops within a thousand
 * loop iterations (the shared flag is read by the interpreter's loop counter).
 */
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../common/thread-priority.js';
import { EsError, toEsError, toPlainEsError, type PlainEsError } from '../common/errors.js';
import { RawJson, expandRawJson } from '../common/raw-json.js';
import { compileScript, ScriptInterrupted, type CompiledScript } from '../script/index.js';
import type { ScrollHit, WriteRequest } from './client.js';
import { scriptApplier } from './script-applier.js';

export interface ScriptBatchRequest {
  readonly source: string;
  readonly lang: string;
  /** The script's params as JSON text (numbers keep their literal form). */
  readonly paramsJson: string;
  readonly kind: 'reindex' | 'update_by_query';
  readonly versionsFetched: boolean;
  readonly items: readonly { readonly write: WriteRequest; readonly hit: ScrollHit; readonly now: number }[];
  /** Int32Array view: element 0 becomes 1 when the batch is cancelled. */
  readonly cancel: SharedArrayBuffer;
}

export type ScriptBatchReply =
  | { readonly kind: 'done'; readonly writes: (WriteRequest | null)[] }
  | { readonly kind: 'failed'; readonly error: PlainEsError }
  | { readonly kind: 'interrupted' };

const compiled = new Map<string, CompiledScript>();

function compiledFor(request: ScriptBatchRequest): CompiledScript {
  const key = `${request.lang}\u0000${request.paramsJson}\u0000${request.source}`;
  let script = compiled.get(key);
  if (script === undefined) {
    const params = expandRawJson(new RawJson(request.paramsJson)) as Record<string, unknown>;
    script = compileScript({ source: request.source, lang: request.lang, params });
    if (compiled.size >= 32) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, script);
  }
  return script;
}

function run(request: ScriptBatchRequest): ScriptBatchReply {
  const flag = new Int32Array(request.cancel);
  const interrupted = (): boolean => Atomics.load(flag, 0) !== 0;
  let now = 0;
  try {
    const apply = scriptApplier(compiledFor(request), { kind: request.kind, versionsFetched: request.versionsFetched, nowMillis: () => now, interrupted });
    const writes: (WriteRequest | null)[] = [];
    for (const item of request.items) {
      if (interrupted()) return { kind: 'interrupted' };
      now = item.now;
      writes.push(apply(item.write, item.hit) ?? null);
    }
    return { kind: 'done', writes };
  } catch (err) {
    if (err instanceof ScriptInterrupted) return { kind: 'interrupted' };
    const error = err instanceof EsError ? err : toEsError(err);
    return { kind: 'failed', error: toPlainEsError(error) };
  }
}

// The loop answers the operator's commands: this thread steps back when they compete for a core.
if (parentPort !== null) lowerThisThreadsPriority();

parentPort?.on('message', (request: ScriptBatchRequest) => {
  parentPort!.postMessage(run(request));
});
