/**
 * Runs a bulk-by-scroll request as the HTTP request's own task (ES: one task, cancellable, with a status):
 * attaches the worker's live status to the task, then either answers with the BulkByScrollResponse when the
 * work ends (`wait_for_completion=true`, a cancelled run included, with `canceled` set), or detaches the task,
 * answers `{"task": "<node>:<id>"}` at once and keeps running; when that background run ends its result is
 * stored (ES stores only those) and the task is unregistered (`runDetached`).
 */
import { BulkByScrollLeader, BulkByScrollWorker, registerBulkByScrollTask, FULL_STATUS, responseBody, responseStatus, statusFields, type BulkByScrollRequest, type StatusRenderOptions } from '../../reindex/index.js';
import { runDetached } from '../tasks/detached-task.js';
import { json, type ActionContext, type RestResponse } from '../rest.js';
import { NodeBulkByScrollClient } from './node-client.js';
import { resolveSliceCount, type SlicesParam } from './slice-count.js';

/** A worker, or a leader of `sliceCount` workers, registered so `_rethrottle` finds it. */
function bulkByScrollDriver(request: BulkByScrollRequest, sliceCount: number, context: ActionContext): BulkByScrollWorker | BulkByScrollLeader {
  const client = new NodeBulkByScrollClient(context.services);
  if (sliceCount > 1 && request.slice === undefined) {
    const leader = new BulkByScrollLeader(context.task, request, client, context.services.taskManager, sliceCount);
    registerBulkByScrollTask(context.task, leader);
    return leader;
  }
  const worker = new BulkByScrollWorker(context.task, request, client);
  registerBulkByScrollTask(context.task, { rethrottle: (rate) => (worker.rethrottle(rate), []) });
  return worker;
}

export async function runBulkByScroll(request: BulkByScrollRequest, waitForCompletion: boolean, render: StatusRenderOptions, context: ActionContext, slices: SlicesParam = 1): Promise<RestResponse> {
  const { task, services } = context;
  // More than one slice: a leader runs one worker per slice as child tasks (src/reindex/slices/).
  const worker = bulkByScrollDriver(request, resolveSliceCount(slices, request.source.indices, services), context);
  task.setStatusSupplier(() => statusFields(worker.status()));
  if (waitForCompletion || context.detach === undefined) {
    const result = await worker.run();
    return json(responseBody(result, render), responseStatus(result));
  }
  // The stored response is the full one: ES's TaskResult prints it with empty params (created and updated both
  // shown) on a human-readable builder (XContentHelper.toXContent(response, type, true)): `throttled` too.
  return runDetached(context, async () => responseBody(await worker.run(), { ...FULL_STATUS, human: true }));
}
