/**
 * The leader of a sliced bulk-by-scroll (ES's LeaderBulkByScrollTaskState with BulkByScrollParallelizationHelper):
 * runs one worker per slice, each as a child task of the leader's task with the same action and description
 * and its own `slice_id` status; reports a status that sums its slices' live statuses with the `slices`
 * array; passes a rethrottle on to the slices still running (the rate divided among them, as ES); and ends
 * with one response merging its slices' (longest took, any timeout, failures concatenated).
 *
 * Deviation from ES: ES's leader status counts only slices that have finished; this one adds the running
 * slices' live counters, so `_tasks` shows progress while the slices work.
 */
import { toEsError } from '../../common/errors.js';
import type { Task, TaskManager } from '../../tasks/index.js';
import type { BulkByScrollClient } from '../client.js';
import type { BulkByScrollRequest } from '../request.js';
import { statusFields, sumStatuses, type BulkByScrollStatus } from '../status.js';
import { BulkByScrollWorker, type BulkByScrollResult } from '../worker.js';
import { registerBulkByScrollTask, type Rethrottleable } from './bulk-by-scroll-tasks.js';
import { sliceRequest } from './slice-request.js';

interface SliceState {
  worker: BulkByScrollWorker | undefined;
  task: Task | undefined;
  result: BulkByScrollResult | undefined;
}

export class BulkByScrollLeader implements Rethrottleable {
  private readonly slices: SliceState[];

  constructor(
    private readonly task: Task,
    private readonly request: BulkByScrollRequest,
    private readonly client: BulkByScrollClient,
    private readonly taskManager: TaskManager,
    readonly sliceCount: number,
  ) {
    this.slices = Array.from({ length: sliceCount }, () => ({ worker: undefined, task: undefined, result: undefined }));
  }

  /** The summed status with each slice's (null for a slice not started yet). */
  status(): BulkByScrollStatus {
    const statuses = this.slices.map((slice): BulkByScrollStatus | null => slice.result?.status ?? slice.worker?.status() ?? null);
    return sumStatuses(statuses, this.task.cancellationReason);
  }

  /** ES's rethrottleParentTask: the new rate split evenly among the slices still running. */
  rethrottle(requestsPerSecond: number): readonly Task[] {
    const running = this.slices.filter((slice) => slice.worker !== undefined && slice.task !== undefined && slice.result === undefined);
    for (const slice of running) slice.worker!.rethrottle(requestsPerSecond / running.length);
    return running.map((slice) => slice.task!);
  }

  async run(): Promise<BulkByScrollResult> {
    const outcomes = await Promise.allSettled(this.slices.map((_, sliceId) => this.runSlice(sliceId)));
    const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    // A slice refused because the leader was cancelled first is part of a cancelled run, not a failure.
    if (failed !== undefined && !this.task.isCancelled) throw toEsError(failed.reason);
    const results = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    return {
      tookMillis: Math.max(0, ...results.map((result) => result.tookMillis)),
      timedOut: results.some((result) => result.timedOut),
      status: this.status(),
      bulkFailures: results.flatMap((result) => result.bulkFailures),
      searchFailures: results.flatMap((result) => result.searchFailures),
    };
  }

  private runSlice(sliceId: number): Promise<BulkByScrollResult> {
    const slice = this.slices[sliceId]!;
    return this.taskManager.run(
      {
        type: 'transport',
        action: this.task.action,
        description: this.task.description,
        parentTaskId: this.task.taskId,
        cancellable: true,
        headers: { ...this.task.headers },
      },
      async (child) => {
        const worker = new BulkByScrollWorker(child, sliceRequest(this.request, sliceId, this.sliceCount), this.client, { sliceId });
        slice.worker = worker;
        slice.task = child;
        child.setStatusSupplier(() => statusFields(worker.status()));
        registerBulkByScrollTask(child, { rethrottle: (rate) => (worker.rethrottle(rate), []) });
        slice.result = await worker.run();
        return slice.result;
      },
    );
  }
}
