/**
 * `GET /_cat/tasks` (ES 8.x's cat RestTasksAction): the task list as a cat table, rendered by the shared cat
 * renderer. It lists tasks exactly as `GET /_tasks` does (same parameters, same listing, so it shows itself
 * and its `[n]` child), and orders rows parent before children, each level by start time.
 *
 * The `description` column exists only with `detailed=true`, so the columns depend on the request; that is
 * why this route is built here rather than from a static CatEndpoint. ES reads `full_id` only after the
 * request was checked for unknown parameters, so `full_id` is rejected and node ids are always 4 characters.
 */
import { errors } from '../../common/errors.js';
import { levenshteinSimilarity } from '../../common/levenshtein.js';
import { cell, defineColumns, renderHelp, type CatColumn, type CatRow } from '../../cat/index.js';
import type { DiscoveryNode } from '../../cluster/index.js';
import { groupByParents, type TaskGroup, type TaskInfo } from '../../tasks/index.js';
import { CAT_RESPONSE_PARAMS, catTableResponse, catText } from '../cat/index.js';
import type { RestRequest, Route } from '../rest.js';
import { LIST_TASKS_ACTION, LIST_TASKS_PARAMS, listTasks, parseListTasksRequest } from './list-tasks.js';

const baseColumns = defineColumns([
  { name: 'id', shownByDefault: false, description: 'id of the task with the node' },
  { name: 'action', aliases: ['ac'], description: 'task action' },
  { name: 'task_id', aliases: ['ti'], description: 'unique task id' },
  { name: 'parent_task_id', aliases: ['pti'], description: 'parent task id' },
  { name: 'type', aliases: ['ty'], description: 'task type' },
  { name: 'start_time', aliases: ['start'], description: 'start time in ms' },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], description: 'start time in HH:MM:SS' },
  { name: 'running_time_ns', shownByDefault: false, aliases: ['time'], description: 'running time ns' },
  { name: 'running_time', aliases: ['time'], description: 'running time' },
  { name: 'node_id', shownByDefault: false, aliases: ['ni'], description: 'unique node id' },
  { name: 'ip', aliases: ['i'], description: 'ip address' },
  { name: 'port', shownByDefault: false, aliases: ['po'], description: 'bound transport port' },
  { name: 'node', aliases: ['n'], description: 'node name' },
  { name: 'version', shownByDefault: false, aliases: ['v'], description: 'es version' },
  { name: 'x_opaque_id', shownByDefault: false, aliases: ['x'], description: 'X-Opaque-ID header' },
]);

// ES's description for this column really is "task action".
const descriptionColumn = defineColumns([{ name: 'description', aliases: ['desc'], description: 'task action' }]);

type BaseName = (typeof baseColumns)[number]['name'];
type ColumnName = BaseName | 'description';

function columnsFor(detailed: boolean): readonly CatColumn<ColumnName>[] {
  return detailed ? [...baseColumns, ...descriptionColumn] : baseColumns;
}

function row(info: TaskInfo, node: DiscoveryNode | undefined, detailed: boolean): CatRow<ColumnName> {
  const base: CatRow<BaseName> = {
    id: cell.long(info.taskId.id),
    action: cell.string(info.action),
    task_id: cell.string(info.taskId.toString()),
    parent_task_id: cell.string(info.parentTaskId ? info.parentTaskId.toString() : '-'),
    type: cell.string(info.type),
    start_time: cell.long(info.startTimeMillis),
    timestamp: cell.string(new Date(info.startTimeMillis).toISOString().slice(11, 19)),
    running_time_ns: cell.long(info.runningTimeNanos),
    running_time: cell.nanos(info.runningTimeNanos),
    node_id: cell.string(info.taskId.nodeId.slice(0, 4)),
    ip: cell.string(node ? node.ip : '-'),
    port: node ? cell.long(node.transportPort) : null,
    node: cell.string(node ? node.name : '-'),
    version: cell.string(node ? node.version : '-'),
    x_opaque_id: cell.string(info.headers['X-Opaque-Id'] ?? '-'),
  };
  return detailed ? { ...base, description: cell.maybe(info.description, cell.string) } : (base as CatRow<ColumnName>);
}

/** RestTasksAction.buildGroups: each level sorted by start time (stable), parent rows before their children. */
function rowsInGroupOrder(groups: readonly TaskGroup[], out: TaskInfo[] = []): TaskInfo[] {
  const sorted = [...groups].sort((a, b) => a.info.startTimeMillis - b.info.startTimeMillis);
  for (const group of sorted) {
    out.push(group.info);
    rowsInGroupOrder(group.children, out);
  }
  return out;
}

const CAT_TASKS_PARAMS: readonly string[] = LIST_TASKS_PARAMS;

export const catTasksRoute: Route = {
  method: 'GET',
  path: '/_cat/tasks',
  action: LIST_TASKS_ACTION,
  params: CAT_TASKS_PARAMS,
  responseParams: CAT_RESPONSE_PARAMS,
  handler: async (request, context) => {
    if (request.paramBool('help', false)) {
      // ES builds the help from getTableWithHeader, which reads `detailed`; nothing else is read.
      const detailed = request.paramBool('detailed', false);
      rejectUnreadWithHelp(request);
      return catText(renderHelp(columnsFor(detailed)));
    }
    const listRequest = parseListTasksRequest(request);
    const response = await listTasks(context.services, context.task, listRequest);
    const nodes = context.services.clusterService.state().nodes;
    const infos = rowsInGroupOrder(groupByParents(response.tasks));
    const rows = infos.map((info) => row(info, nodes.get(info.taskId.nodeId), listRequest.detailed));
    return catTableResponse({ columns: columnsFor(listRequest.detailed), rows }, request);
  },
};

/** With `help`, the list parameters other than `detailed` stay unread, and ES rejects them as unknown. */
function rejectUnreadWithHelp(request: RestRequest): void {
  const unread = CAT_TASKS_PARAMS.filter((name) => name !== 'detailed' && request.hasParam(name)).sort();
  if (unread.length === 0) return;
  const candidates = [...new Set([...CAT_RESPONSE_PARAMS, 'detailed', 'format', 'filter_path', 'pretty', 'human', 'error_trace'])];
  const suggestions = new Map<string, string[]>();
  for (const name of unread) {
    const similar = candidates
      .map((candidate) => ({ candidate, score: levenshteinSimilarity(name, candidate) }))
      .filter(({ score }) => score > 0.5)
      .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate))
      .map(({ candidate }) => candidate);
    if (similar.length > 0) suggestions.set(name, similar);
  }
  throw errors.unrecognizedParameters(request.path, unread, suggestions);
}
