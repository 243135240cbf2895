/**
 * `POST /_cluster/reroute` (ES's RestClusterRerouteAction): the body's `commands` (move, cancel, allocate_replica,
 * allocate_stale_primary, allocate_empty_primary) parsed here as ES's parsers read them, run on the master
 * (cluster/routing/reroute-commands.ts) with `dry_run`, `explain` and `retry_failed`; the answer is
 * `acknowledged` (once every node applied the published state, false after `timeout`, as every acked request), the
 * resulting `state` (all but metadata unless `metric` says otherwise; `metric=none` leaves it
 * out, as ES 8 recommends) and, with `explain`, each command's `explanations`.
 */
import { allocationErrors } from '../../common/errors.js';
import type { RerouteCommand } from '../../cluster/routing/reroute-commands.js';
import { splitCommaLikeJava } from '../../cluster/indices-options.js';
import { json, type RestRequest, type Route } from '../rest.js';
import { rerouteExplanationXContent } from './allocation-xcontent.js';
import { clusterStateXContent, parseMetrics } from './state-action.js';
import { ACKED_REQUEST_DEFAULT_MILLIS } from '../acked-request.js';

const COMMAND_NAMES = ['move', 'cancel', 'allocate_replica', 'allocate_stale_primary', 'allocate_empty_primary'] as const;
type CommandName = (typeof COMMAND_NAMES)[number];

/** ES 8's deprecation of the state in this response. */
const STATE_DEPRECATION =
  'The [state] field in the response to the reroute API is deprecated and will be removed in a future version. Specify ?metric=none to adopt the future behaviour.';

function shardNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

function bool(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** MoveAllocationCommand / CancelAllocationCommand.fromXContent: their own field loop and messages. */
function parseLegacyCommand(name: 'move' | 'cancel', fields: Record<string, unknown>): RerouteCommand {
  const allowed = name === 'move' ? ['index', 'shard', 'from_node', 'fromNode', 'to_node', 'toNode'] : ['index', 'shard', 'node', 'allow_primary', 'allowPrimary'];
  for (const [field, value] of Object.entries(fields)) {
    if (!allowed.includes(field)) throw allocationErrors.commandParse(`[${name}] command does not support field [${field}]`);
    if (value !== null && typeof value === 'object') throw allocationErrors.commandParse(`[${name}] command does not support complex json tokens [START_${Array.isArray(value) ? 'ARRAY' : 'OBJECT'}]`);
  }
  const index = fields.index === undefined ? undefined : String(fields.index);
  const shard = fields.shard === undefined ? -1 : shardNumber(fields.shard) ?? -1;
  if (index === undefined) throw allocationErrors.commandParse(`[${name}] command missing the index parameter`);
  if (shard === -1) throw allocationErrors.commandParse(`[${name}] command missing the shard parameter`);
  if (name === 'move') {
    const from = fields.from_node ?? fields.fromNode;
    const to = fields.to_node ?? fields.toNode;
    if (from === undefined) throw allocationErrors.commandParse(`[${name}] command missing the from_node parameter`);
    if (to === undefined) throw allocationErrors.commandParse(`[${name}] command missing the to_node parameter`);
    return { kind: 'move', index, shard, fromNode: String(from), toNode: String(to) };
  }
  if (fields.node === undefined) throw allocationErrors.commandParse(`[${name}] command missing the node parameter`);
  return { kind: 'cancel', index, shard, node: String(fields.node), allowPrimary: bool(fields.allow_primary ?? fields.allowPrimary) ?? false };
}

/** The allocate commands' ObjectParser and their Builder.validate. */
function parseAllocateCommand(name: Exclude<CommandName, 'move' | 'cancel'>, fields: Record<string, unknown>): RerouteCommand {
  const allowed = name === 'allocate_replica' ? ['index', 'shard', 'node'] : ['index', 'shard', 'node', 'accept_data_loss'];
  for (const field of Object.keys(fields)) if (!allowed.includes(field)) throw allocationErrors.commandParse(`[${name}] unknown field [${field}]`, 'x_content_parse_exception');
  const index = fields.index === undefined ? undefined : String(fields.index);
  const shard = fields.shard === undefined ? -1 : shardNumber(fields.shard);
  if (shard === undefined) throw allocationErrors.commandParse(`[${name}] failed to parse field [shard]`, 'x_content_parse_exception');
  if (index === undefined) throw allocationErrors.commandParse('Argument [index] must be defined', 'illegal_argument_exception');
  if (shard < 0) throw allocationErrors.commandParse('Argument [shard] must be defined and non-negative', 'illegal_argument_exception');
  if (fields.node === undefined) throw allocationErrors.commandParse('Argument [node] must be defined', 'illegal_argument_exception');
  const node = String(fields.node);
  if (name === 'allocate_replica') return { kind: name, index, shard, node };
  const acceptDataLoss = fields.accept_data_loss === undefined ? false : bool(fields.accept_data_loss);
  if (acceptDataLoss === undefined) throw allocationErrors.commandParse(`[${name}] failed to parse field [accept_data_loss]`, 'x_content_parse_exception');
  return { kind: name, index, shard, node, acceptDataLoss };
}

function parseBody(request: RestRequest): { commands: RerouteCommand[]; dryRun?: boolean } {
  if (!request.hasBody || request.body().length === 0) return { commands: [] };
  const body = request.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw allocationErrors.commandParse('failed to parse the reroute request: expected an object', 'x_content_parse_exception');
  const commands: RerouteCommand[] = [];
  let dryRun: boolean | undefined;
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    if (field === 'dry_run') {
      dryRun = bool(value);
      continue;
    }
    if (field !== 'commands') throw allocationErrors.commandParse(`[cluster_reroute] unknown field [${field}]`, 'x_content_parse_exception');
    if (!Array.isArray(value)) throw allocationErrors.commandParse('failed to parse commands request. expected [commands] field to be an array');
    for (const entry of value) {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw allocationErrors.commandParse('failed to parse commands request. expected [commands] field to be an array of objects');
      for (const [name, fields] of Object.entries(entry as Record<string, unknown>)) {
        if (!(COMMAND_NAMES as readonly string[]).includes(name)) throw allocationErrors.unknownCommand(name);
        if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw allocationErrors.commandParse(`[${name}] command expects an object`);
        const commandName = name as CommandName;
        commands.push(
          commandName === 'move' || commandName === 'cancel' ? parseLegacyCommand(commandName, fields as Record<string, unknown>) : parseAllocateCommand(commandName, fields as Record<string, unknown>),
        );
      }
    }
  }
  return { commands, ...(dryRun !== undefined && { dryRun }) };
}

const handler: Route['handler'] = async (request, { services }) => {
  const parsed = parseBody(request);
  const dryRun = request.paramBool('dry_run', parsed.dryRun ?? false);
  const explain = request.paramBool('explain', false);
  const retryFailed = request.paramBool('retry_failed', false);
  const allocation = services.allocation;
  if (allocation === undefined) throw new Error('no allocation service on this node');
  const outcome = await allocation.rerouteCommands(
    { commands: parsed.commands, explain, retryFailed },
    dryRun,
    request.paramTimeMillis('master_timeout', ACKED_REQUEST_DEFAULT_MILLIS),
    request.paramTimeMillis('timeout', ACKED_REQUEST_DEFAULT_MILLIS),
  );
  const body: Record<string, unknown> = { acknowledged: outcome.acknowledged };
  const metric = request.param('metric');
  const emitState = metric !== 'none';
  let headers: Record<string, string> | undefined;
  if (emitState) {
    // By default everything but metadata (RestClusterRerouteAction's DEFAULT_METRICS).
    const metrics = metric === undefined ? new Set(parseMetrics(undefined)) : parseMetrics(splitCommaLikeJava(metric).join(','));
    if (metric === undefined) metrics.delete('metadata');
    const { cluster_name: _clusterName, ...state } = clusterStateXContent(outcome.state, metrics, [...outcome.state.indices.keys()], request.paramBool('flat_settings', false));
    body.state = state;
    headers = { Warning: `299 Elasticsearch-${services.version.number}-${services.version.buildHash} "${STATE_DEPRECATION}"` };
  }
  if (explain) body.explanations = outcome.explanations.map(rerouteExplanationXContent);
  return json(body, 200, headers);
};

export const rerouteRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_cluster/reroute',
    action: 'cluster:admin/reroute',
    params: ['dry_run', 'explain', 'retry_failed', 'metric', 'master_timeout', 'timeout', 'flat_settings'],
    body: 'optional',
    handler,
  },
];
