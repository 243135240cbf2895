/**
 * Following one task until it ends (`gannet tasks --follow`, `gannet reindex`): polls `GET /_tasks/<id>`,
 * shows progress, then prints the final status and returns its exit code (task-outcome.ts).
 *
 * - On a terminal the progress line is redrawn in place; in a pipe or a file one plain line is printed
 *   per poll that saw the counters move, and at least every HEARTBEAT_MS, so a log shows a stalled task.
 * - `--json` prints only the final `GET /_tasks/<id>` body, as received.
 * - Ctrl-C stops following and leaves the task running (exit 130). With `--cancel-on-interrupt` the first
 *   Ctrl-C cancels the task and keeps following until it has stopped; a second one stops following.
 * - A task that is neither running nor stored answers 404: "no such task" (exit 1) on the first poll. Once
 *   the task was seen running, a 404 means it ended without storing a result; that is retried for a
 *   while (the result may be on its way to the `.tasks` index), then reported (exit 4).
 */
import { cancelReasonOf, countsOf, processedCount, taskRecordOf, type TaskRecord } from './bulk-by-scroll.js';
import { describeErrorResponse, expectJson, objectField, rootCause, stringField } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { ResponseError, type GannetResponse } from './gannet-client.js';
import { writeRawJson, type CommandContext } from './operator-command.js';
import { booleanOption, parseTimeout, stringOption, UsageError, type OptionSpecs, type OptionValues } from './operator-options.js';
import { renderProgressLine } from './progress-line.js';
import { RateEstimator } from './rate-estimator.js';
import { taskOutcome } from './task-outcome.js';

export const DEFAULT_POLL_INTERVAL_MS = 1000;
const HEARTBEAT_MS = 30_000;
const STORED_RESULT_GRACE_MS = 10_000;

export const FOLLOW_OPTIONS: OptionSpecs = {
  interval: { type: 'string' },
  'cancel-on-interrupt': { type: 'boolean' },
};

export const FOLLOW_OPTIONS_HELP = `  --interval T           how often to ask the node for the task's status (default 1s)
  --cancel-on-interrupt  Ctrl-C cancels the task and waits for it to stop (a second Ctrl-C stops
                         waiting); without it Ctrl-C only stops following and the task keeps running`;

export interface FollowSettings {
  intervalMs: number;
  cancelOnInterrupt: boolean;
}

export function parseFollowSettings(values: OptionValues): FollowSettings {
  const raw = stringOption(values, 'interval');
  const intervalMs = raw === undefined ? DEFAULT_POLL_INTERVAL_MS : parseTimeout(raw, 'interval');
  if (!(intervalMs > 0)) throw new UsageError(`--interval must be more than 0, not [${raw}]`);
  return { intervalMs, cancelOnInterrupt: booleanOption(values, 'cancel-on-interrupt') };
}

export function hasFollowOptions(values: OptionValues): boolean {
  return Object.keys(FOLLOW_OPTIONS).some((name) => values[name] !== undefined);
}

export function taskPath(taskId: string): string {
  return `/_tasks/${encodeURIComponent(taskId).replace('%3A', ':')}`;
}

export async function followTask(context: CommandContext, taskId: string, settings: FollowSettings, commandName: string): Promise<number> {
  const { client, io } = context;
  const live = !context.json;
  const redraw = live && io.stdoutIsTty === true;
  const estimator = new RateEstimator();
  const followStarted = performance.now();
  let lineShown = false;
  let lastPrinted: { processed: number; batches: number | undefined; at: number } | undefined;
  let seenRunning = false;
  let missingSince: number | undefined;
  let stopFollowing = false;
  let cancelSent = false;
  let wake: (() => void) | undefined;

  const endLine = () => {
    if (lineShown) io.stdout.write('\n');
    lineShown = false;
  };
  const onInterrupt = () => {
    if (settings.cancelOnInterrupt && !cancelSent) {
      cancelSent = true;
      endLine();
      io.stderr.write(`${commandName}: cancelling task [${taskId}]; waiting for it to stop (Ctrl-C again stops waiting)\n`);
      client.request('POST', `${taskPath(taskId)}/_cancel`).then(
        (response) => {
          if (response.status !== 200) io.stderr.write(`${commandName}: cancel failed: ${describeErrorResponse(response)}\n`);
        },
        (err: unknown) => io.stderr.write(`${commandName}: cancel failed: ${(err as Error).message}\n`),
      );
    } else {
      stopFollowing = true;
    }
    wake?.();
  };
  const removeInterruptHandler = io.onInterrupt?.(onInterrupt);

  try {
    if (redraw) {
      const hint = settings.cancelOnInterrupt ? 'Ctrl-C cancels the task' : 'Ctrl-C stops following; the task keeps running';
      io.stdout.write(`following task ${taskId} (${hint})\n`);
    }
    for (;;) {
      const response = await client.request('GET', taskPath(taskId));
      if (stopFollowing) break;
      if (isTaskNotFound(response)) {
        if (!seenRunning) {
          if (context.json) writeRawJson(io, response.text);
          io.stderr.write(`${commandName}: no such task: ${describeErrorResponse(response)}\n`);
          return ExitCode.yellowOrNothingMatched;
        }
        missingSince ??= performance.now();
        if (performance.now() - missingSince > STORED_RESULT_GRACE_MS) {
          endLine();
          io.stderr.write(`${commandName}: task [${taskId}] has ended but the node has no stored result for it: ${describeErrorResponse(response)}\n`);
          return ExitCode.error;
        }
      } else {
        missingSince = undefined;
        const record = readRecord(response);
        if (record.completed) {
          endLine();
          if (context.json) {
            writeRawJson(io, response.text);
            return taskOutcome(record).exitCode;
          }
          const outcome = taskOutcome(record);
          io.stdout.write(outcome.report);
          if (outcome.problems !== '') io.stderr.write(outcome.problems);
          return outcome.exitCode;
        }
        seenRunning = true;
        if (live) {
          const counts = countsOf(record.status);
          const processed = processedCount(counts);
          const seconds = record.task.runningTimeNanos === undefined ? (performance.now() - followStarted) / 1000 : record.task.runningTimeNanos / 1e9;
          estimator.add(seconds, processed);
          const line = renderProgressLine(
            {
              processed,
              total: counts.total,
              docsPerSecond: estimator.docsPerSecond(),
              batches: counts.batches,
              versionConflicts: counts.versionConflicts,
              requestsPerSecond: counts.requestsPerSecond,
              throttledMillis: counts.throttledMillis,
              throttledUntilMillis: counts.throttledUntilMillis,
              // A cancel of the slices only (not the leader) shows once a slice reports it.
              cancelling: record.task.cancelled || cancelReasonOf(record.status) !== undefined,
            },
            redraw ? io.stdoutColumns : undefined,
          );
          if (redraw) {
            io.stdout.write(`\r${line}\u001b[K`);
            lineShown = true;
          } else {
            const now = performance.now();
            const moved = lastPrinted === undefined || lastPrinted.processed !== processed || lastPrinted.batches !== counts.batches;
            if (moved || now - lastPrinted!.at >= HEARTBEAT_MS) {
              io.stdout.write(`${line}\n`);
              lastPrinted = { processed, batches: counts.batches, at: now };
            }
          }
        }
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, settings.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
      if (stopFollowing) break;
    }
    endLine();
    const still = cancelSent ? 'the cancel was sent but the task may not have stopped yet' : 'the task is still running';
    io.stderr.write(`${commandName}: stopped following task [${taskId}]; ${still}. "gannet tasks --follow ${taskId}" follows it again, "gannet cancel ${taskId}" cancels it\n`);
    return ExitCode.interrupted;
  } finally {
    removeInterruptHandler?.();
  }
}

/** ES answers a task that is neither running nor stored with 404 resource_not_found_exception (its root cause may be the missing `.tasks` index). */
function isTaskNotFound(response: GannetResponse): boolean {
  if (response.status !== 404) return false;
  const error = objectField(response.body, 'error');
  const types = [stringField(error, 'type'), stringField(rootCause(error), 'type')];
  return types.includes('resource_not_found_exception') || types.includes('index_not_found_exception');
}

function readRecord(response: GannetResponse): TaskRecord {
  const record = taskRecordOf(expectJson(response));
  if (record === undefined) throw new ResponseError(`${response.request} answered without a "task" object`, response);
  return record;
}
