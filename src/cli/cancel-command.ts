/**
 * `gannet cancel`: POST /_tasks/<id>/_cancel, or POST /_tasks/_cancel with filters. ES answers 200 even
 * when nothing was cancelled, putting "not found" and "not cancellable" into node_failures; this command
 * turns that into exit codes: 0 something was cancelled, 1 nothing matched, 2 a real failure came back.
 */
import { describeErrorResponse, expectJson, objectField, rootCause, stringField } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { UnreachableError, type GannetResponse } from './gannet-client.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { UsageError, booleanOption, nonEmptyOption, parseTaskId, parseTimeout, stringOption } from './operator-options.js';
import { buildTaskForest, failuresFromResponse, renderFailures, tasksFromResponse, type FailureView, type TaskView } from './task-list.js';
import { renderTaskTable } from './task-table.js';

const DEFAULT_WAIT_MS = 60_000;

export const cancelCommand: OperatorCommand = {
  name: 'cancel',
  summary: 'cancel a task by id, or every task matching --actions/--parent',
  help: `usage: gannet cancel <task_id> [--wait [--timeout 60s]] [common options]
       gannet cancel --actions PATTERNS [--nodes NODES] [--parent TASK_ID] [--wait [--timeout 60s]] [common options]

Cancels a task and its children on every node (POST /_tasks/<task_id>/_cancel), or every
cancellable task that matches the filters (POST /_tasks/_cancel). Prints what was cancelled and
any failures. Without a task id, --actions or --parent is required, so a bare "gannet cancel"
can never cancel everything.

options:
  --actions PATTERNS  comma-separated action names, * is a wildcard (e.g. '*reindex'); use '*' to
                      mean every cancellable task
  --nodes NODES       only tasks on these nodes (ids, names or selectors)
  --parent TASK_ID    only the children of this task
  --wait              return only when the cancelled tasks and their children have stopped
  --timeout T         with --wait, how long to wait before giving up (default 60s, exit 3)

exit codes:
  0 cancelled (and stopped, with --wait)
  1 no task matched (unknown id, task already finished, nothing matches the filters)
  2 a failure came back (e.g. the task is not cancellable, a node failed); what did get
    cancelled is still printed
  3 node unreachable or --wait timed out   4 other error   64 bad command line`,
  options: {
    actions: { type: 'string' },
    nodes: { type: 'string' },
    parent: { type: 'string' },
    wait: { type: 'boolean' },
    timeout: { type: 'string' },
  },
  maxPositionals: 1,
  async run(context: CommandContext): Promise<number> {
    const { values, client, io } = context;
    const taskId = context.positionals[0] === undefined ? undefined : parseTaskId(context.positionals[0]);
    const actions = nonEmptyOption(values, 'actions');
    const nodes = nonEmptyOption(values, 'nodes');
    const parentRaw = nonEmptyOption(values, 'parent');
    const parent = parentRaw === undefined ? undefined : parseTaskId(parentRaw);
    const wait = booleanOption(values, 'wait');
    const timeoutRaw = stringOption(values, 'timeout');
    if (timeoutRaw !== undefined && !wait) throw new UsageError('--timeout only applies with --wait');
    const waitMs = timeoutRaw === undefined ? DEFAULT_WAIT_MS : parseTimeout(timeoutRaw, 'timeout');
    if (taskId !== undefined && (actions !== undefined || nodes !== undefined || parent !== undefined)) {
      throw new UsageError('give either a task id or --actions/--nodes/--parent filters, not both');
    }
    if (taskId === undefined && actions === undefined && parent === undefined) {
      throw new UsageError("name a task id, or select tasks with --actions (use --actions '*' for every cancellable task)");
    }

    const path = taskId === undefined ? '/_tasks/_cancel' : `/_tasks/${encodeURIComponent(taskId).replace('%3A', ':')}/_cancel`;
    let response: GannetResponse;
    try {
      response = await client.request('POST', path, { actions, nodes, parent_task_id: parent, wait_for_completion: wait }, { timeoutMs: wait ? waitMs : undefined });
    } catch (err) {
      // With --wait the node holds the answer until the tasks stop; running out of time says nothing about reachability.
      if (wait && err instanceof UnreachableError && err.timedOut) {
        throw new UnreachableError(
          `no answer from ${client.displayUrl} within ${timeoutRaw ?? '60s'}: the cancel may have been applied but the tasks had not stopped yet; check with "gannet tasks"`,
          true,
        );
      }
      throw err;
    }
    // ES puts "no such task" into node_failures with 200; a node that answers 404 instead means the same thing.
    if (response.status === 404 && stringField(rootCause(objectField(response.body, 'error')), 'type') === 'resource_not_found_exception') {
      if (context.json) writeRawJson(io, response.text);
      io.stderr.write(`gannet cancel: no task matched: ${describeErrorResponse(response)}\n`);
      return ExitCode.yellowOrNothingMatched;
    }
    const body = expectJson(response);
    const cancelled = tasksFromResponse(body);
    const failures = failuresFromResponse(body);
    if (context.json) writeRawJson(io, response.text);
    else if (cancelled.length > 0) io.stdout.write(describeCancelled(cancelled, wait));
    if (failures.length > 0) io.stderr.write(renderFailures(failures));
    const exitCode = cancelExitCode(cancelled.length, failures);
    if (exitCode === ExitCode.yellowOrNothingMatched) io.stderr.write(`gannet cancel: no task matched ${describeSelection(taskId, actions, nodes, parent)}\n`);
    return exitCode;
  },
};

/** 0 when something was cancelled cleanly; 2 for any failure that is not "does not exist"; else 1 (nothing matched). */
export function cancelExitCode(cancelledCount: number, failures: readonly FailureView[]): number {
  if (failures.some((failure) => !failure.notFound)) return ExitCode.redOrFailure;
  return cancelledCount > 0 ? ExitCode.ok : ExitCode.yellowOrNothingMatched;
}

function describeCancelled(tasks: readonly TaskView[], waited: boolean): string {
  const noun = tasks.length === 1 ? 'task' : 'tasks';
  const headline = waited
    ? `cancelled ${tasks.length} ${noun}; they and their children have stopped`
    : `cancelled ${tasks.length} ${noun} (cancellation requested; add --wait to return only once they have stopped)`;
  return `${headline}\n${renderTaskTable(buildTaskForest(tasks))}`;
}

function describeSelection(taskId: string | undefined, actions: string | undefined, nodes: string | undefined, parent: string | undefined): string {
  if (taskId !== undefined) return `[${taskId}]`;
  const parts: string[] = [];
  if (actions !== undefined) parts.push(`--actions ${actions}`);
  if (nodes !== undefined) parts.push(`--nodes ${nodes}`);
  if (parent !== undefined) parts.push(`--parent ${parent}`);
  return parts.join(' ');
}
