/**
 * `gannet tasks`: GET /_tasks as a tree, each task under the task that spawned it, with running times
 * in ES's human units. This run's own list request is left out (recognised by its X-Opaque-Id).
 */
import { expectJson } from './es-json.js';
import { ExitCode } from './exit-codes.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { booleanOption, nonEmptyOption, parseTaskId } from './operator-options.js';
import { buildTaskForest, failuresFromResponse, renderFailures, tasksFromResponse, withoutRequest } from './task-list.js';
import { renderTaskTable } from './task-table.js';

export const tasksCommand: OperatorCommand = {
  name: 'tasks',
  summary: 'running tasks grouped parent -> children, with running times',
  help: `usage: gannet tasks [--actions PATTERNS] [--nodes NODES] [--parent TASK_ID] [--detailed] [common options]

Shows GET /_tasks: every running task of every node, children indented under their parent,
oldest first. The state column says whether a task can be cancelled ("gannet cancel") and
whether a cancel is already under way ("cancelling").

options:
  --actions PATTERNS  comma-separated action names, * is a wildcard (e.g. '*reindex', 'indices:*')
  --nodes NODES       comma-separated node ids, names or selectors (_local, _master, data:true, ...)
  --parent TASK_ID    only the children of this task (<node_id>:<number>)
  --detailed          add each task's description

exit codes:
  0 listed (also when nothing runs)   2 a node or task failure came back (the rest is listed)
  3 node unreachable   4 other error   64 bad command line`,
  options: {
    actions: { type: 'string' },
    nodes: { type: 'string' },
    parent: { type: 'string' },
    detailed: { type: 'boolean' },
  },
  maxPositionals: 0,
  async run(context: CommandContext): Promise<number> {
    const { values, client, io } = context;
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
