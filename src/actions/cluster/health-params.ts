/**
 * Reads a `/_cluster/health` request's parameters into a ClusterHealthRequest, in the order and with the
 * errors of ES's RestClusterHealthAction.fromRequest (so the first bad parameter is the one reported).
 */
import { EsError, errors } from '../../common/errors.js';
import {
  LENIENT_EXPAND_OPEN_CLOSED_HIDDEN,
  indicesOptionsFromParams,
  splitCommaLikeJava,
} from '../../cluster/indices-options.js';
import { parseJavaInt, parseWaitForNodes, type ClusterHealthRequest, type EventPriority, type HealthStatus } from '../../cluster/health/index.js';
import type { RestRequest } from '../rest.js';

export type HealthLevel = 'cluster' | 'indices' | 'shards';

export interface ParsedHealthRequest {
  request: ClusterHealthRequest;
  level: HealthLevel;
  /** Answer from this node's state without waiting for an elected master. */
  local: boolean;
  /** How long to wait for an elected master; ES defaults it to `timeout` when only that is given. */
  masterTimeoutMillis: number;
}

const DEFAULT_TIMEOUT_MILLIS = 30_000;
const STATUSES: readonly string[] = ['GREEN', 'YELLOW', 'RED'];
const PRIORITIES: readonly string[] = ['IMMEDIATE', 'URGENT', 'HIGH', 'NORMAL', 'LOW', 'LANGUID'];

export function parseHealthRequest(rest: RestRequest): ParsedHealthRequest {
  const indices = splitCommaLikeJava(rest.pathParams['index'] ?? '');
  const indicesOptions = indicesOptionsFromParams((name) => rest.param(name), LENIENT_EXPAND_OPEN_CLOSED_HIDDEN);
  const local = rest.paramBool('local', false);
  const explicitMasterTimeout = rest.hasParam('master_timeout') ? rest.paramTimeMillis('master_timeout', DEFAULT_TIMEOUT_MILLIS) : undefined;
  const timeoutMillis = rest.paramTimeMillis('timeout', DEFAULT_TIMEOUT_MILLIS);
  const masterTimeoutMillis = explicitMasterTimeout ?? timeoutMillis;

  const request: ClusterHealthRequest = {
    indices,
    indicesOptions,
    timeoutMillis,
    waitForNoRelocatingShards: false,
    waitForNoInitializingShards: false,
  };
  const waitForStatus = rest.param('wait_for_status');
  if (waitForStatus !== undefined) request.waitForStatus = enumValue('org.elasticsearch.cluster.health.ClusterHealthStatus', STATUSES, waitForStatus).toLowerCase() as HealthStatus;
  request.waitForNoRelocatingShards = rest.paramBool('wait_for_no_relocating_shards', false);
  request.waitForNoInitializingShards = rest.paramBool('wait_for_no_initializing_shards', false);
  if (rest.hasParam('wait_for_relocating_shards')) {
    throw errors.illegalArgument('wait_for_relocating_shards has been removed, use wait_for_no_relocating_shards [true/false] instead');
  }
  const waitForActiveShards = rest.param('wait_for_active_shards');
  if (waitForActiveShards !== undefined) request.waitForActiveShards = parseActiveShardCount(waitForActiveShards);
  const waitForNodes = rest.param('wait_for_nodes') ?? '';
  if (waitForNodes !== '') request.waitForNodes = parseWaitForNodes(waitForNodes);
  const waitForEvents = rest.param('wait_for_events');
  if (waitForEvents !== undefined) request.waitForEvents = enumValue('org.elasticsearch.common.Priority', PRIORITIES, waitForEvents) as EventPriority;
  return { request, level: parseLevel(rest.param('level')), local, masterTimeoutMillis };
}

/**
 * ActiveShardCount.parseString, as the health request applies it: `all`, or a count where 0 (and ES's
 * "default", -1, which parseString never yields from text) means no wait.
 */
function parseActiveShardCount(value: string): number | 'all' | undefined {
  if (value === 'all') return 'all';
  let count: number;
  try {
    count = parseJavaInt(value);
  } catch (err) {
    throw errors.illegalArgument(`cannot parse ActiveShardCount[${value}]`, err instanceof EsError ? err : undefined);
  }
  if (count < 0) throw errors.illegalArgument('shard count cannot be a negative value');
  return count === 0 ? undefined : count;
}

/** Java's Enum.valueOf on the upper-cased value (Locale.ROOT), with its error for an unknown name. */
function enumValue(enumClass: string, names: readonly string[], value: string): string {
  const upper = value.toUpperCase();
  if (!names.includes(upper)) throw errors.noEnumConstant(enumClass, upper);
  return upper;
}

/** ClusterStatsLevel.of: case-insensitive, checked up front so a bad level fails before any waiting. */
function parseLevel(value: string | undefined): HealthLevel {
  if (value === undefined) return 'cluster';
  const level = value.toLowerCase();
  if (level === 'cluster' || level === 'indices' || level === 'shards') return level;
  throw errors.illegalArgument(`level parameter must be one of [cluster] or [indices] or [shards] but was [${value}]`);
}
