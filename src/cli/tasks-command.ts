/**
 * `gannet tasks`: GET /_tasks as a tree, each task under the task that spawned it, with running times
 * in ES's human units. This run's own list request is left out (recognised by its X-Opaque-Id).
 * `gannet tasks --follow <id>` follows one task to its end instead (follow-task.ts).
 */
import { expectJson } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { FOLLOW_OPTIONS, FOLLOW_OPTIONS_HELP, followTask, hasFollowOptions, parseFollowSettings } from './follow-task.js';
import { UsageError, booleanOption, nonEmptyOption, parseTaskId } from './operator-options.js';
import { buildTaskForest, failuresFromResponse, renderFailures, tasksFromResponse, withoutRequest } from './task-list.js';
import { renderTaskTable } from './task-table.js';

export const tasksCommand: OperatorCommand = {
  name: 'tasks',
  summary: 'running tasks grouped parent -> children; --follow <id> follows one to its end',
  help: `usage: gannet tasks [--actions PATTERNS] [--nodes NODES] [--parent TASK_ID] [--detailed] [common options]
       gannet tasks --follow TASK_ID [--interval 1s] [--cancel-on-interrupt] [common options]

Shows GET /_tasks: every running task of every node, children indented under their parent,
oldest first. The state column says whether a task can be cancelled ("gannet cancel") and
whether a cancel is already under way ("cancelling").

With --follow, polls GET /_tasks/<id> until the task ends: a progress line (bar, done/total, %,
docs/s, ETA, batches, version conflicts, throttle) redrawn in place on a terminal, or one line per
poll that saw progress (and at least every 30s) in a pipe or file; then the final status (counts,
time taken, failures, the cancel reason). --json prints only the final GET /_tasks/<id> body.

options:
  --actions PATTERNS  comma-separated action names, * is a wildcard (e.g. '*reindex', 'indices:*')
  --nodes NODES       comma-separated node ids, names or selectors (_local, _master, data:true, ...)
  --parent TASK_ID    only the children of this task (<node_id>:<number>)
  --detailed          add each task's description
  --follow TASK_ID    follow this task (<node_id>:<number>) until it ends
${FOLLOW_OPTIONS_HELP}

exit codes:
  0 listed (also when nothing runs); with --follow: the task completed without failures
  1 with --follow: no such task (not running, no stored result)
  2 a node or task failure came back (the rest is listed); with --follow: the task failed,
    reported failures or timed out
  3 node unreachable   4 other error
  5 with --follow: the task was cancelled (its counts up to the cancel are printed)
  64 bad command line   130 Ctrl-C stopped following (the task keeps running)`,
  options: {
    actions: { type: 'string' },
    nodes: { type: 'string' },
    parent: { type: 'string' },
    detailed: { type: 'boolean' },
    follow: { type: 'string' },
    ...FOLLOW_OPTIONS,
  },
  maxPositionals: 0,
  async run(context: CommandContext): Promise<number> {
    const { values, client, io } = context;
    const follow = nonEmptyOption(values, 'follow');
    if (follow !== undefined) {
      const taskId = parseTaskId(follow);
      const listOnly = ['actions', 'nodes', 'parent', 'detailed'].filter((name) => values[name] !== undefined);
      if (listOnly.length > 0) throw new UsageError(`--follow takes one task id; ${listOnly.map((name) => `--${name}`).join(', ')} only apply to the task list`);
      return followTask(context, taskId, parseFollowSettings(values), 'gannet tasks');
    }
    if (hasFollowOptions(values)) throw new UsageError('--interval and --cancel-on-interrupt only apply with --follow');
    const parent = nonEmptyOption(values, 'parent');
    const detailed = booleanOption(values, 'detailed');
    const response = await client.request('GET', '/_tasks', {
      actions: nonEmptyOption(values, 'actions'),
      nodes: nonEmptyOption(values, 'nodes'),
      parent_task_id: parent === undefined ? undefined : parseTaskId(parent),
      detailed,
    });
    const body = expectJson(response);
    const failures = failuresFromResponse(body);
    if (context.json) {
      writeRawJson(io, response.text);
    } else {
      const tasks = withoutRequest(tasksFromResponse(body), context.opaqueId);
      io.stdout.write(tasks.length === 0 ? 'no tasks match\n' : renderTaskTable(buildTaskForest(tasks), { description: detailed }));
    }
    if (failures.length > 0) io.stderr.write(`gannet tasks: some nodes or tasks failed to answer:\n${renderFailures(failures)}`);
    return failures.length > 0 ? ExitCode.redOrFailure : ExitCode.ok;
  },
};
