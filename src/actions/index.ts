/** Every REST route Gannet serves, by API family. The HTTP layer registers this list. */
import type { Route } from './rest.js';
import { mainRoutes } from './main-action.js';
import { clusterHealthRoutes } from './cluster/health.js';
import { clusterSettingsRoutes } from './cluster/settings-actions.js';
import { clusterStateRoutes } from './cluster/state-action.js';
import { taskRoutes } from './tasks/index.js';
import { catFamilyRoutes } from './cat/index.js';
import { documentRoutes } from './documents/index.js';
import { indexApiRoutes } from './indices/index.js';
import { searchApiRoutes } from './search/index.js';
import { reindexApiRoutes } from './reindex/index.js';
import { rethrottleRoutes } from './reindex/rethrottle-action.js';
import { nodesRoutes } from './nodes/nodes-routes.js';
import { hotThreadsRoutes } from './nodes/hot-threads-action.js';
import { clusterStatsRoutes } from './cluster/cluster-stats.js';
import { templateRoutes } from './templates/index.js';
import { unsupportedFeatureRoutes } from './unsupported-features.js';
import { allocationExplainRoutes } from './cluster/allocation-explain-action.js';
import { rerouteRoutes } from './cluster/reroute-action.js';

export const allRoutes: readonly Route[] = [...mainRoutes, ...clusterHealthRoutes, ...clusterSettingsRoutes, ...clusterStateRoutes, ...taskRoutes, ...catFamilyRoutes, ...documentRoutes, ...indexApiRoutes, ...searchApiRoutes, ...reindexApiRoutes, ...rethrottleRoutes, ...nodesRoutes, ...hotThreadsRoutes, ...clusterStatsRoutes, ...templateRoutes, ...allocationExplainRoutes, ...rerouteRoutes, ...unsupportedFeatureRoutes];

export type { Route, RestRequest, RestResponse, ActionContext } from './rest.js';
export type { NodeServices } from './context.js';
