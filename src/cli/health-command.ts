/**
 * `gannet health`: GET /_cluster/health as a short summary whose exit code is the colour (0 green,
 * 1 yellow, 2 red), so `gannet health --wait-for-status green --timeout 60s && deploy` works in scripts.
 * A 408 is ES's "waited and the condition never held": it still carries the health body, so it is shown
 * and the exit code still follows the colour.
 */
import { paint } from './cli-io.js';
import { expectJson, isObject, numberField, stringField, type JsonObject } from './es-json.js';
import { ExitCode, exitCodeForHealthStatus } from './exit-codes.js';
import { ResponseError } from './gannet-client.js';
import { writeRawJson, type CommandContext, type OperatorCommand } from './operator-command.js';
import { UsageError, parseHealthStatus, parseTimeout, stringOption } from './operator-options.js';
import { formatTable } from './text-table.js';
import { formatTimeValueMillis } from '../common/time-value.js';

/** The node's own default for `timeout`; the CLI waits a little longer so the node, not the CLI, reports the timeout. */
const SERVER_DEFAULT_TIMEOUT_MS = 30_000;
const CLIENT_GRACE_MS = 10_000;

export const healthCommand: OperatorCommand = {
  name: 'health',
  summary: 'cluster status, nodes and shard counts; exit code 0 green, 1 yellow, 2 red',
  help: `usage: gannet health [--wait-for-status green|yellow|red] [--timeout 30s] [--level indices] [common options]

Shows GET /_cluster/health: status, nodes, shards active/relocating/initializing/unassigned, active %.

options:
  --wait-for-status S  wait until the cluster is at least S (green > yellow > red)
  --timeout T          how long the node waits for the condition (default 30s); when it runs
                       out the current status is still printed and decides the exit code
  --level L            cluster (default) or indices: adds one row per index, worst first

exit codes:
  0 green   1 yellow   2 red   3 node unreachable   4 other error (HTTP error, bad response)
  64 bad command line`,
  options: {
    'wait-for-status': { type: 'string' },
    timeout: { type: 'string' },
    level: { type: 'string' },
  },
  maxPositionals: 0,
  async run(context: CommandContext): Promise<number> {
    const { values, client, io } = context;
    const waitForRaw = stringOption(values, 'wait-for-status');
    const waitFor = waitForRaw === undefined ? undefined : parseHealthStatus(waitForRaw, 'wait-for-status');
    const timeoutRaw = stringOption(values, 'timeout');
    const timeoutMs = timeoutRaw === undefined ? SERVER_DEFAULT_TIMEOUT_MS : parseTimeout(timeoutRaw, 'timeout');
    const level = stringOption(values, 'level');
    if (level !== undefined && level !== 'cluster' && level !== 'indices') {
      throw new UsageError(`--level must be cluster or indices, not [${level}]`);
    }
    const response = await client.request(
      'GET',
      '/_cluster/health',
      { wait_for_status: waitFor, timeout: timeoutRaw, level },
      { timeoutMs: timeoutMs + CLIENT_GRACE_MS },
    );
    const body = expectJson(response, 200, 408);
    const status = stringField(body, 'status');
    const exitCode = status === undefined ? undefined : exitCodeForHealthStatus(status);
    if (exitCode === undefined) {
      throw new ResponseError(`${response.request} answered without a known status (got ${JSON.stringify(status ?? null)})`, response);
    }
    if (context.json) writeRawJson(io, response.text);
    else io.stdout.write(renderHealth(body as JsonObject, io.color));
    if (response.status === 408 || (isObject(body) && body['timed_out'] === true)) {
      const condition = waitFor !== undefined ? `status [${waitFor}]` : 'the requested condition';
      io.stderr.write(`gannet health: timed out after ${timeoutRaw ?? '30s'} waiting for ${condition}; exit code follows the current status [${status}]\n`);
    }
    return exitCode;
  },
};

/** The human summary of a health body. Missing fields show as `?` rather than as a made-up 0. */
export function renderHealth(body: JsonObject, color: boolean): string {
  const count = (key: string): string => {
    const value = numberField(body, key);
    return value === undefined ? '?' : String(value);
  };
  const status = stringField(body, 'status') ?? '?';
  const lines: Array<[string, string]> = [
    ['cluster', stringField(body, 'cluster_name') ?? '?'],
    ['status', paintStatus(status, color) + (body['timed_out'] === true ? ' (timed out waiting)' : '')],
    ['nodes', `${count('number_of_nodes')} (${count('number_of_data_nodes')} data)`],
    [
      'shards',
      `${count('active_shards')} active (${count('active_primary_shards')} primary), ${count('relocating_shards')} relocating, ` +
        `${count('initializing_shards')} initializing, ${count('unassigned_shards')} unassigned` +
        unassignedDetail(body),
    ],
    ['active', formatPercent(numberField(body, 'active_shards_percent_as_number'))],
  ];
  const pending = numberField(body, 'number_of_pending_tasks');
  if (pending !== undefined && pending > 0) {
    const waited = numberField(body, 'task_max_waiting_in_queue_millis');
    lines.push(['pending', `${pending} cluster tasks${waited !== undefined ? `, oldest waiting ${formatTimeValueMillis(waited)}` : ''}`]);
  }
  const width = Math.max(...lines.map(([label]) => label.length));
  let text = lines.map(([label, value]) => `${label.padEnd(width)}  ${value}\n`).join('');
  const indices = isObject(body['indices']) ? body['indices'] : undefined;
  if (indices !== undefined) text += '\n' + renderIndicesTable(indices, color);
  return text;
}

function unassignedDetail(body: JsonObject): string {
  const parts: string[] = [];
  const primaries = numberField(body, 'unassigned_primary_shards');
  if (primaries !== undefined && primaries > 0) parts.push(`${primaries} primary`);
  const delayed = numberField(body, 'delayed_unassigned_shards');
  if (delayed !== undefined && delayed > 0) parts.push(`${delayed} delayed`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

const STATUS_RANK: Record<string, number> = { red: 0, yellow: 1, green: 2 };

/** Per-index rows, worst status first: the indices that need attention are at the top. */
export function renderIndicesTable(indices: JsonObject, color: boolean): string {
  const names = Object.keys(indices).sort((a, b) => {
    const rank = (name: string) => STATUS_RANK[stringField(indices[name], 'status') ?? ''] ?? -1;
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  if (names.length === 0) return 'no indices\n';
  const cell = (index: unknown, key: string) => String(numberField(index, key) ?? '');
  const rows = names.map((name) => {
    const index = indices[name];
    return [
      name,
      paintStatus(stringField(index, 'status') ?? '?', color),
      cell(index, 'number_of_shards'),
      cell(index, 'number_of_replicas'),
      cell(index, 'active_primary_shards'),
      cell(index, 'active_shards'),
      cell(index, 'relocating_shards'),
      cell(index, 'initializing_shards'),
      cell(index, 'unassigned_shards'),
    ];
  });
  return formatTable(
    [
      { header: 'index' },
      { header: 'status' },
      { header: 'pri', align: 'right' },
      { header: 'rep', align: 'right' },
      { header: 'active.pri', align: 'right' },
      { header: 'active', align: 'right' },
      { header: 'relocating', align: 'right' },
      { header: 'initializing', align: 'right' },
      { header: 'unassigned', align: 'right' },
    ],
    rows,
  );
}

export function paintStatus(status: string, color: boolean): string {
  if (status === 'green' || status === 'yellow' || status === 'red') return paint(status, status, color);
  return status;
}

/** One decimal, as ES's human `active_shards_percent` ("100.0%"). */
export function formatPercent(value: number | undefined): string {
  return value === undefined ? '?' : `${value.toFixed(1)}%`;
}
