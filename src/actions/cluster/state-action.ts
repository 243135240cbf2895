/**
 * `GET /_cluster/state[/{metric}[/{indices}]]` (ES's RestClusterStateAction and TransportClusterStateAction).
 * Metrics: version, master_node, blocks, nodes, metadata, routing_table, routing_nodes, customs, `_all`; unknown
 * ones are ignored, as ES parses them leniently. `{indices}` narrows metadata and routing table (and the index
 * blocks) to the indices it resolves, under ES's lenient default (missing indices are skipped). `cluster_name`
 * and `cluster_uuid` always come first.
 */
import { LENIENT_EXPAND_OPEN, INDICES_OPTIONS_PARAMS, splitCommaLikeJava } from '../../cluster/indices-options.js';
import { allShardCopies, isDataNode, type ClusterState } from '../../cluster/index.js';
import { json, type Route } from '../rest.js';
import { resolveIndices } from '../indices/resolve-indices.js';
import { blocksXContent, indexMetadataXContent, nodeXContent, shardRoutingXContent } from './state-xcontent.js';
import { clusterStateTemplates } from '../templates/template-xcontent.js';

const METRICS = ['version', 'master_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes', 'customs'] as const;
export type StateMetric = (typeof METRICS)[number];
type Metric = StateMetric;

export function parseMetrics(raw: string | undefined): Set<Metric> {
  if (raw === undefined) return new Set(METRICS);
  const names = splitCommaLikeJava(raw);
  if (names.includes('_all')) return new Set(METRICS);
  return new Set(METRICS.filter((metric) => names.includes(metric)));
}

function indexNamesFor(request: Parameters<Route['handler']>[0], state: ClusterState): string[] {
  const raw = request.pathParams['indices'];
  if (raw === undefined || raw === '_all') return [...state.indices.keys()];
  return resolveIndices(request, state, LENIENT_EXPAND_OPEN, 'indices');
}

const handler: Route['handler'] = async (request, { services }) => {
  const state = services.clusterService.state();
  const metrics = parseMetrics(request.pathParams['metric']);
  const flat = request.paramBool('flat_settings', false);
  return json(clusterStateXContent(state, metrics, indexNamesFor(request, state), flat));
};

/** The state's parts that `metrics` names, for the indices `names` (also `_cluster/reroute`'s `state`). */
export function clusterStateXContent(state: ClusterState, metrics: ReadonlySet<Metric>, names: readonly string[], flat: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { cluster_name: state.clusterName, cluster_uuid: state.clusterUuid };
  if (metrics.has('version')) {
    body.version = state.version;
    body.state_uuid = state.stateUuid;
  }
  if (metrics.has('master_node')) body.master_node = state.masterNodeId ?? null;
  if (metrics.has('blocks')) body.blocks = blocksXContent(state, names);
  if (metrics.has('nodes')) {
    const nodes: Record<string, unknown> = {};
    for (const node of state.nodes.values()) nodes[node.id] = nodeXContent(node);
    body.nodes = nodes;
  }
  if (metrics.has('metadata')) {
    const indices: Record<string, unknown> = {};
    for (const name of names) {
      const metadata = state.indices.get(name);
      if (metadata !== undefined) indices[name] = indexMetadataXContent(metadata, flat);
    }
    const masterConfig = state.masterNodeId === undefined ? [] : [state.masterNodeId];
    const templates = clusterStateTemplates(state.templates, flat);
    body.metadata = {
      cluster_uuid: state.clusterUuid,
      cluster_uuid_committed: state.masterNodeId !== undefined,
      // The master's term (the embedded coordinator's is always 1; on etcd it grows with each election).
      cluster_coordination: { term: state.term, last_committed_config: masterConfig, last_accepted_config: masterConfig, voting_config_exclusions: [] },
      templates: templates.legacy,
      indices,
      ...templates.customs,
      reserved_state: {},
    };
  }
  if (metrics.has('routing_table')) {
    const indices: Record<string, unknown> = {};
    for (const name of names) {
      const shards = state.routing.get(name);
      if (shards === undefined) continue;
      const byShard: Record<string, unknown> = {};
      shards.forEach((copies, shard) => {
        byShard[String(shard)] = copies.map(shardRoutingXContent);
      });
      indices[name] = { shards: byShard };
    }
    body.routing_table = { indices };
  }
  if (metrics.has('routing_nodes')) {
    // Routing nodes cover the whole cluster, not the `{indices}` filter: ES builds them from the full routing table.
    const copies = allShardCopies(state);
    const nodes: Record<string, unknown> = {};
    for (const node of state.nodes.values()) if (isDataNode(node)) nodes[node.id] = [];
    for (const copy of copies) {
      if (copy.nodeId === undefined) continue;
      const list = (nodes[copy.nodeId] as unknown[] | undefined) ?? [];
      list.push(shardRoutingXContent(copy));
      nodes[copy.nodeId] = list;
    }
    body.routing_nodes = { unassigned: copies.filter((copy) => copy.state === 'UNASSIGNED').map(shardRoutingXContent), nodes };
  }
  return body;
}

const PARAMS = ['local', 'master_timeout', 'flat_settings', ...INDICES_OPTIONS_PARAMS];

export const clusterStateRoutes: Route[] = ['/_cluster/state', '/_cluster/state/{metric}', '/_cluster/state/{metric}/{indices}'].map((path) => ({
  method: 'GET' as const,
  path,
  params: PARAMS,
  action: 'cluster:monitor/state',
  cancellable: true,
  handler,
}));
