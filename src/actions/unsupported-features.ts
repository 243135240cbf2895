/**
 * The API families of Elasticsearch that Gannet does not have, each answered on every path and method with one
 * ES-shaped error that says so (501 `unsupported_operation_exception`, docs/decisions/0009). Without these routes a
 * tool's routine probe (`GET /_license`, `GET /_snapshot`, `GET /_xpack`) would reach `GET /{index}` and be told
 * `invalid_index_name_exception`, or a 405 that suggests the endpoint exists.
 *
 * Each entry lists its path prefixes; `{rest...}` takes whatever follows, so `/_snapshot/repo/snap/_status` and
 * `/_snapshot` get the same answer. A family Gannet starts to support is removed from here in the same change.
 */
import { errors } from '../common/errors.js';
import type { HttpMethod, Route } from './rest.js';

interface MissingFeature {
  /** How the message names it. */
  readonly feature: string;
  readonly why: string;
  readonly prefixes: readonly string[];
}

const MISSING: readonly MissingFeature[] = [
  {
    feature: 'snapshot and restore',
    why: 'Gannet has no snapshot repositories; back up the data path of a stopped node instead',
    prefixes: ['/_snapshot', '/_cat/snapshots', '/_cat/repositories', '/_slm', '/_searchable_snapshots', '/{index}/_searchable_snapshots'],
  },
  { feature: 'licensing', why: 'Gannet has no license levels; every feature it has is always on', prefixes: ['/_license'] },
  { feature: 'x-pack', why: 'Gannet has no x-pack features', prefixes: ['/_xpack'] },
  { feature: 'security', why: 'Gannet has no users, roles, API keys or TLS; keep the node on a private network', prefixes: ['/_security', '/_ssl'] },
  { feature: 'ingest pipelines', why: 'documents are indexed as sent; transform them before sending', prefixes: ['/_ingest'] },
  { feature: 'data streams', why: 'use an index or an alias with a write index instead', prefixes: ['/_data_stream'] },
  { feature: 'index lifecycle management', why: 'manage indices with the index APIs (rollover, delete)', prefixes: ['/_ilm', '/{index}/_ilm'] },
  { feature: 'SQL, EQL and ES|QL', why: 'use the query DSL with _search', prefixes: ['/_sql', '/_eql', '/{index}/_eql', '/_query'] },
  { feature: 'machine learning', why: 'Gannet has no ML jobs', prefixes: ['/_ml', '/_cat/ml'] },
  { feature: 'transforms', why: 'Gannet has no transforms', prefixes: ['/_transform', '/_cat/transforms'] },
  { feature: 'rollups', why: 'Gannet has no rollup jobs', prefixes: ['/_rollup', '/{index}/_rollup'] },
  { feature: 'watcher', why: 'Gannet has no watches', prefixes: ['/_watcher'] },
  { feature: 'cross-cluster replication', why: 'Gannet replicates only within its cluster', prefixes: ['/_ccr', '/{index}/_ccr'] },
  { feature: 'remote clusters', why: 'Gannet has no cross-cluster search', prefixes: ['/_remote', '/_resolve/cluster'] },
  { feature: 'enrich policies', why: 'Gannet has no enrich processor', prefixes: ['/_enrich'] },
  { feature: 'async search', why: 'use _search (with a timeout) or a scroll', prefixes: ['/_async_search', '/{index}/_async_search'] },
  { feature: 'graph explore', why: 'Gannet has no graph API', prefixes: ['/{index}/_graph'] },
  { feature: 'stored scripts', why: 'scripts are given inline with each request', prefixes: ['/_scripts', '/_script_context', '/_script_language'] },
  {
    feature: 'search templates',
    why: 'send the rendered query to _search',
    prefixes: ['/_search/template', '/{index}/_search/template', '/_msearch/template', '/{index}/_msearch/template', '/_render/template'],
  },
  { feature: 'dangling indices', why: 'Gannet never imports index folders that are not in its cluster state', prefixes: ['/_dangling'] },
  { feature: 'stack monitoring collection', why: 'read _nodes/stats, _cluster/stats and _stats instead', prefixes: ['/_monitoring'] },
  { feature: 'autoscaling', why: 'Gannet does not scale itself', prefixes: ['/_autoscaling'] },
  { feature: 'the health report', why: 'read _cluster/health instead', prefixes: ['/_health_report'] },
  { feature: 'feature states and upgrade migration', why: 'Gannet has no system features to migrate', prefixes: ['/_features', '/_migration'] },
  { feature: 'text structure finding', why: 'Gannet has no file structure finder', prefixes: ['/_text_structure'] },
  // Cluster and index administration APIs ES has and Gannet does not, which operators and tools call on a routine day.
  { feature: 'voting configuration exclusions', why: 'Gannet coordination (embedded or etcd) has no voting configuration', prefixes: ['/_cluster/voting_config_exclusions'] },
  { feature: 'desired nodes and desired balance', why: 'Gannet balances shards without a desired state', prefixes: ['/_internal/desired_nodes', '/_internal/desired_balance'] },
  { feature: 'secure settings', why: 'Gannet has no keystore', prefixes: ['/_nodes/reload_secure_settings'] },
  { feature: 'shard stores', why: 'read _cat/shards and _recovery instead', prefixes: ['/_shard_stores', '/{index}/_shard_stores'] },
  { feature: 'disk usage analysis', why: 'read store sizes in _stats and _cat/indices instead', prefixes: ['/{index}/_disk_usage'] },
  { feature: 'field usage statistics', why: 'Gannet does not count field accesses', prefixes: ['/{index}/_field_usage_stats'] },
  { feature: 'frozen indices', why: 'Gannet has no frozen indices; every open index is searchable as it is', prefixes: ['/{index}/_unfreeze', '/{index}/_freeze'] },
  {
    feature: 'Elastic stack integrations',
    why: 'Gannet has no Fleet, Logstash pipelines, connectors, synonyms sets, query rules, inference or search applications',
    prefixes: ['/_fleet', '/_logstash', '/_connector', '/_synonyms', '/_query_rules', '/_inference', '/_application'],
  },
];

const EVERY_METHOD: HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];

function routesFor(missing: MissingFeature): Route[] {
  return missing.prefixes.map((prefix) => ({
    method: EVERY_METHOD,
    path: `${prefix}/{rest...}`,
    body: 'optional',
    acceptsAnyParameters: true,
    action: 'gannet:unsupported',
    handler: async () => {
      throw errors.featureNotAvailable(missing.feature, missing.why);
    },
  }));
}

export const unsupportedFeatureRoutes: readonly Route[] = MISSING.flatMap(routesFor);

/** Every path prefix answered as missing, for tests and docs. */
export function unsupportedFeaturePrefixes(): ReadonlyArray<{ feature: string; prefix: string }> {
  return MISSING.flatMap((missing) => missing.prefixes.map((prefix) => ({ feature: missing.feature, prefix })));
}
