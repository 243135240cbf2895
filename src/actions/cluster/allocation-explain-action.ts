/**
 * `GET|POST /_cluster/allocation/explain` (ES's RestClusterAllocationExplainAction): the body names a copy
 * (`index`, `shard`, `primary`, optionally `current_node`), or without one the first unassigned copy is explained;
 * `include_yes_decisions` and `include_disk_info` as ES. The answer is computed on the master
 * (cluster/routing/allocation-explain.ts) with the same deciders that allocate, and printed here in ES's shape.
 */
import { errors } from '../../common/errors.js';
import { formatByteSize } from '../../common/byte-size.js';
import type { ClusterState } from '../../cluster/index.js';
import type { AllocationExplanation, ExplainRequest } from '../../cluster/routing/allocation-explain.js';
import type { DiskUsage } from '../../cluster/routing/cluster-info.js';
import { allocationStatusValue } from '../../cluster/routing/shard-routing-summary.js';
import { json, type RestRequest, type Route } from '../rest.js';
import { moveDecisionXContent, nodeFields, unassignedDecisionXContent } from './allocation-xcontent.js';
import { ACKED_REQUEST_DEFAULT_MILLIS } from '../acked-request.js';

const PARSER = 'cluster/allocation/explain';

/** AllocationDecision.fromAllocationStatus, as `last_allocation_status` prints it. */
const LAST_ALLOCATION_STATUS: Readonly<Record<string, string>> = {
  deciders_no: 'no',
  no_valid_shard_copy: 'no_valid_shard_copy',
  deciders_throttled: 'throttled',
  fetching_shard_data: 'awaiting_info',
  delayed_allocation: 'allocation_delayed',
  no_attempt: 'no_attempt',
};

const NO_SHARD_NOTE =
  'No shard was named in the request, so this explains the first unassigned shard Gannet found. Other unassigned shards may be unassigned for other reasons, and this one may not be assignable until another is. Name a shard (index, shard, primary) to explain any other, assigned or not.';

function parseBody(request: RestRequest): Omit<ExplainRequest, 'includeYesDecisions'> {
  if (!request.hasBody || request.body().length === 0) return {};
  const body = request.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.jsonParse(`[${PARSER}] Expected START_OBJECT but was: ${Array.isArray(body) ? 'START_ARRAY' : 'VALUE'}`);
  const out: { index?: string; shard?: number; primary?: boolean; currentNode?: string } = {};
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    switch (field) {
      case 'index':
        out.index = String(value);
        break;
      case 'shard': {
        const shard = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
        if (!Number.isInteger(shard)) throw errors.jsonParse(`[${PARSER}] failed to parse field [shard]`);
        out.shard = shard;
        break;
      }
      case 'primary':
        if (value !== true && value !== false && value !== 'true' && value !== 'false') throw errors.jsonParse(`[${PARSER}] failed to parse field [primary]`);
        out.primary = value === true || value === 'true';
        break;
      case 'current_node':
        out.currentNode = String(value);
        break;
      default:
        throw errors.jsonParse(`[${PARSER}] unknown field [${field}]`);
    }
  }
  return out;
}

/** DiskUsage.toShortXContent for ClusterInfo's `nodes` (one data path per node: least and most available agree). */
function diskXContent(usage: DiskUsage, human: boolean): Record<string, unknown> {
  const used = usage.totalBytes - usage.availableBytes;
  const percent = (part: number) => (usage.totalBytes > 0 ? Math.round((1000 * part) / usage.totalBytes) / 10 : 100);
  return {
    path: usage.path,
    ...(human && { total: formatByteSize(usage.totalBytes) }),
    total_bytes: usage.totalBytes,
    ...(human && { used: formatByteSize(used) }),
    used_bytes: used,
    ...(human && { free: formatByteSize(usage.availableBytes) }),
    free_bytes: usage.availableBytes,
    free_disk_percent: percent(usage.availableBytes),
    used_disk_percent: percent(used),
  };
}

function clusterInfoXContent(state: ClusterState, usages: ReadonlyMap<string, DiskUsage>, shardSizes: ReadonlyArray<readonly [string, number]>, human: boolean): Record<string, unknown> {
  const nodes: Record<string, unknown> = {};
  for (const [nodeId, usage] of usages) {
    const disk = diskXContent(usage, human);
    nodes[nodeId] = { node_name: state.nodes.get(nodeId)?.name ?? nodeId, least_available: disk, most_available: disk };
  }
  // ClusterInfo.toXContent: `<key>_bytes` always, `<key>` with the human form when asked.
  const sizes: Record<string, unknown> = {};
  for (const [key, bytes] of [...shardSizes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (human) sizes[key] = formatByteSize(bytes);
    sizes[`${key}_bytes`] = bytes;
  }
  return { nodes, shard_sizes: sizes, shard_data_set_sizes: {}, shard_paths: {}, reserved_sizes: [] };
}

/** ClusterAllocationExplanation.toXContent. */
function explanationXContent(explanation: AllocationExplanation, includeYes: boolean): Record<string, unknown> {
  const { copy } = explanation;
  const out: Record<string, unknown> = {};
  if (explanation.anyUnassigned) out.note = NO_SHARD_NOTE;
  out.index = copy.index;
  out.shard = copy.shard;
  out.primary = copy.primary;
  out.current_state = copy.state.toLowerCase();
  const info = copy.unassignedInfo;
  if (info !== undefined && copy.state === 'UNASSIGNED') {
    out.unassigned_info = {
      reason: info.reason,
      at: new Date(info.atMillis).toISOString(),
      ...(info.failedAllocations > 0 && { failed_allocation_attempts: info.failedAllocations }),
      ...(info.details !== undefined && { details: info.details }),
      last_allocation_status: LAST_ALLOCATION_STATUS[allocationStatusValue(info.lastAllocationStatus)] ?? 'no_attempt',
    };
  }
  if (explanation.currentNode !== undefined) {
    const ranking = explanation.move?.rebalance?.currentNodeRanking ?? 0;
    out.current_node = { ...nodeFields(explanation.currentNode, true), ...(ranking > 0 && { weight_ranking: ranking }) };
  }
  return out;
}

const handler: Route['handler'] = async (request, { services }) => {
  const includeYesDecisions = request.paramBool('include_yes_decisions', false);
  const includeDiskInfo = request.paramBool('include_disk_info', false);
  const allocation = services.allocation;
  if (allocation === undefined) throw new Error('no allocation service on this node');
  const explanation = await allocation.explain({ ...parseBody(request), includeYesDecisions }, request.paramTimeMillis('master_timeout', ACKED_REQUEST_DEFAULT_MILLIS));
  const body = explanationXContent(explanation, includeYesDecisions);
  if (includeDiskInfo) body.cluster_info = clusterInfoXContent(services.clusterService.state(), new Map(explanation.diskUsages ?? []), explanation.shardSizes ?? [], request.human);
  if (explanation.unassigned !== undefined) Object.assign(body, unassignedDecisionXContent(explanation.unassigned, includeYesDecisions, request.human));
  else if (explanation.move !== undefined) Object.assign(body, moveDecisionXContent(explanation.move, includeYesDecisions));
  else if (explanation.relocationTargetNode !== undefined && explanation.currentNode !== undefined) {
    body.explanation = `the shard is in the process of relocating from node [${explanation.currentNode.name}] to node [${explanation.relocationTargetNode.name}], wait until relocation has completed`;
  } else {
    body.explanation = `the shard is in the process of initializing on node [${explanation.currentNode?.name ?? ''}], wait until initialization has completed`;
  }
  return json(body);
};

export const allocationExplainRoutes: Route[] = [
  {
    method: ['GET', 'POST'],
    path: '/_cluster/allocation/explain',
    action: 'cluster:monitor/allocation/explain',
    params: ['include_yes_decisions', 'include_disk_info', 'master_timeout'],
    body: 'optional',
    handler,
  },
];
