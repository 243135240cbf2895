/**
 * What a nodes info or nodes stats request asks for, read from its path as ES's RestNodesInfoAction and
 * RestNodesStatsAction read it: the node selectors, the metric sections and (stats) the index metrics and
 * level, with ES's messages for names it does not know.
 */
import { errors } from '../../common/errors.js';
import { levenshteinSimilarity } from '../../common/levenshtein.js';
import { splitCommaLikeJava } from '../../cluster/indices-options.js';
import { STATS_METRICS, type StatsMetric } from '../indices/stats-xcontent.js';
import type { RestRequest } from '../rest.js';

/** NodesInfoMetrics.Metric, in ES's order. */
export const INFO_METRICS = [
  'settings', 'os', 'process', 'jvm', 'thread_pool', 'transport', 'http', 'remote_cluster_server', 'plugins', 'ingest',
  'aggregations', 'indices',
] as const;
export type InfoMetric = (typeof INFO_METRICS)[number];

/** NodesStatsRequestParameters.Metric plus `indices`. */
export const STATS_SECTIONS = [
  'indices', 'os', 'process', 'jvm', 'thread_pool', 'fs', 'transport', 'http', 'breaker', 'script', 'discovery', 'ingest',
  'adaptive_selection', 'script_cache', 'indexing_pressure', 'repositories', 'allocations',
] as const;
export type StatsSection = (typeof STATS_SECTIONS)[number];

export type NodeStatsLevel = 'node' | 'indices' | 'shards';

export interface NodesInfoRequest {
  nodeSelectors: string[];
  metrics: ReadonlySet<InfoMetric>;
}

export interface NodesStatsRequest {
  nodeSelectors: string[];
  sections: ReadonlySet<StatsSection>;
  indexMetrics: ReadonlySet<StatsMetric>;
  level: NodeStatsLevel;
}

/** Strings.tokenizeToStringArray: split on commas, trim, drop empties. */
function tokens(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value.split(',').map((token) => token.trim()).filter((token) => token.length > 0);
}

/**
 * `/_nodes/{x}` is a list of metrics when every token is a metric name (`/_nodes/os,jvm`), else node ids
 * (`/_nodes/_local`). Unknown metrics after a node id are ignored, as ES ignores them ("disregard unknown
 * metrics").
 */
export function parseNodesInfoRequest(request: RestRequest): NodesInfoRequest {
  const nodeParam = request.pathParams['node_id'];
  const metricsParam = request.pathParams['metric'];
  let nodeSelectors: string[];
  let metricNames: string[];
  if (nodeParam !== undefined && metricsParam === undefined) {
    const metricsOrIds = tokens(nodeParam);
    const isMetricsOnly = metricsOrIds.every((token) => (INFO_METRICS as readonly string[]).includes(token));
    if (isMetricsOnly) {
      nodeSelectors = ['_all'];
      metricNames = metricsOrIds;
    } else {
      nodeSelectors = metricsOrIds;
      metricNames = ['_all'];
    }
  } else {
    nodeSelectors = tokens(nodeParam ?? '_all');
    metricNames = tokens(metricsParam ?? '_all');
  }
  const metrics =
    metricNames.length === 1 && metricNames[0] === '_all'
      ? new Set<InfoMetric>(INFO_METRICS)
      : new Set(metricNames.filter((name): name is InfoMetric => (INFO_METRICS as readonly string[]).includes(name)));
  return { nodeSelectors, metrics };
}

function suggestions(unknown: readonly string[], known: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const name of unknown) {
    out.set(
      name,
      known.filter((candidate) => levenshteinSimilarity(name, candidate) > 0.5),
    );
  }
  return out;
}

/** Java's TreeSet order for the unrecognized names (String.compareTo: UTF-16 code units). */
function sortedUnique(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function parseNodesStatsRequest(request: RestRequest): NodesStatsRequest {
  const path = request.path;
  const nodeSelectors = splitCommaLikeJava(request.pathParams['node_id'] ?? '').filter((token) => token.length > 0);
  const metricParam = request.pathParams['metric'];
  const indexMetricParam = request.pathParams['index_metric'];
  const metricNames = new Set(tokens(metricParam ?? '_all'));
  let sections: Set<StatsSection>;
  let indexMetrics: Set<StatsMetric>;
  if (metricNames.size === 1 && metricNames.has('_all')) {
    if (indexMetricParam !== undefined) throw errors.indexMetricsWithAllStats(path, indexMetricParam);
    sections = new Set(STATS_SECTIONS);
    indexMetrics = new Set(STATS_METRICS);
  } else if (metricNames.has('_all')) {
    throw errors.allAndIndividualMetrics(path, metricParam ?? '');
  } else {
    const known = STATS_SECTIONS as readonly string[];
    const invalid = sortedUnique([...metricNames].filter((name) => !known.includes(name)));
    if (invalid.length > 0) throw errors.unrecognizedMetrics(path, invalid, suggestions(invalid, known), 'metric');
    sections = new Set([...metricNames] as StatsSection[]);
    indexMetrics = new Set();
    if (sections.has('indices')) {
      const names = new Set(tokens(indexMetricParam ?? '_all'));
      if (names.size === 1 && names.has('_all')) {
        indexMetrics = new Set(STATS_METRICS);
      } else {
        const knownFlags = STATS_METRICS as readonly string[];
        const invalidFlags = sortedUnique([...names].filter((name) => !knownFlags.includes(name)));
        if (invalidFlags.length > 0) throw errors.unrecognizedMetrics(path, invalidFlags, suggestions(invalidFlags, knownFlags), 'index metric');
        indexMetrics = new Set([...names] as StatsMetric[]);
      }
    } else if (indexMetricParam !== undefined) {
      throw errors.indexMetricsWithoutIndices(path, indexMetricParam);
    }
  }
  const level = request.param('level') ?? 'node';
  if (level !== 'node' && level !== 'indices' && level !== 'shards') throw errors.nodeStatsLevel(level);
  return { nodeSelectors, sections, indexMetrics, level };
}
