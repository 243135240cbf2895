/**
 * Runs reindex and update_by_query scripts off the event loop (decision 0010): each batch of hits goes to a
 * worker thread (script-worker.ts) as one message and comes back as the batch's writes, so a script looping
 * 999,999 times per document keeps one worker busy while the node keeps answering. A cancelled task sets the
 * batch's shared flag and the script stops within a thousand loop iterations; a worker that still does not
 * answer soon after is terminated and replaced (common/worker-pool.ts), so a cancel always returns.
 */
import { availableParallelism } from 'node:os';
import { errors, fromPlainEsError } from '../common/errors.js';
import { stringifyWithRaw } from '../common/raw-json.js';
import { WorkerPool } from '../common/worker-pool.js';
import type { Script } from '../script/index.js';
import type { Task } from '../tasks/index.js';
import type { WriteRequest } from './client.js';
import type { HitScript } from './request.js';
import type { ScriptBatchReply, ScriptBatchRequest } from './script-worker.js';

let sharedPool: WorkerPool<ScriptBatchRequest, ScriptBatchReply> | undefined;

/** The process's script workers (shared by every bulk-by-scroll task): one per processor, at most four. */
function scriptPool(): WorkerPool<ScriptBatchRequest, ScriptBatchReply> {
  return (sharedPool ??= new WorkerPool(new URL('./script-worker.js', import.meta.url), 'gannet-script', Math.max(1, Math.min(4, availableParallelism()))));
}

export interface WorkerScriptOptions {
  readonly kind: 'reindex' | 'update_by_query';
  readonly versionsFetched: boolean;
  readonly nowMillis?: () => number;
}

/** A HitScript that runs `script` over each batch in the script workers. */
export function workerHitScript(script: Script, options: WorkerScriptOptions): HitScript {
  const paramsJson = stringifyWithRaw(script.params);
  const now = options.nowMillis ?? Date.now;
  return async (items, task: Task) => {
    if (items.length === 0) return [];
    const cancel = new SharedArrayBuffer(4);
    const request: ScriptBatchRequest = {
      source: script.source,
      lang: script.lang,
      paramsJson,
      kind: options.kind,
      versionsFetched: options.versionsFetched,
      items: items.map(({ write, hit }) => ({ write, hit, now: now() })),
      cancel,
    };
    const reply = await scriptPool()
      .run(request, { abort: task.signal, onAbort: () => Atomics.store(new Int32Array(cancel), 0, 1) })
      .catch((err: Error) => {
        // A worker ended for a cancel reports the cancel; anything else is the node's failure.
        if (task.isCancelled) throw errors.taskCancelled(task.cancellationReason ?? '');
        throw err;
      });
    if (reply.kind === 'interrupted') throw errors.taskCancelled(task.cancellationReason ?? '');
    if (reply.kind === 'failed') throw fromPlainEsError(reply.error);
    return reply.writes.map((write): WriteRequest | undefined => write ?? undefined);
  };
}
