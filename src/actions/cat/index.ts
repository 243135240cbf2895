/**
 * Every `_cat` route Gannet serves. Endpoints are listed in ES's registration order (ActionModule: allocation,
 * shards, master, nodes, tasks, indices, segments, count, recovery, health, pending_tasks, aliases,
 * thread_pool, plugins, fielddata, nodeattrs, repositories, snapshots, templates, component_templates),
 * because `GET /_cat` prints their documentation in that order. A new cat endpoint joins this list.
 */
import type { Route } from '../rest.js';
import { allocationEndpoint } from './allocation-action.js';
import { nodesEndpoint } from './nodes-action.js';
import { catHealthEndpoint } from './health-action.js';
import { catRoutes, type CatEndpoint } from './cat-endpoint.js';
import { catRootRoute } from './cat-root.js';
import { catIndicesEndpoint } from './indices-action.js';
import { catShardsEndpoint } from './shards-action.js';
import { catCountEndpoint } from './count-action.js';
import { catSegmentsEndpoint } from './segments-action.js';
import { catRecoveryEndpoint } from './recovery-action.js';
import { catMasterEndpoint } from './master-action.js';
import { catPendingTasksEndpoint, clusterPendingTasksRoutes } from './pending-tasks-action.js';
import { catPluginsEndpoint } from './plugins-action.js';
import { catFielddataEndpoint } from './fielddata-action.js';
import { catAliasesEndpoint } from './aliases-action.js';
import { catThreadPoolEndpoint } from './thread-pool-action.js';
import { catNodeAttrsEndpoint } from './node-attrs-action.js';

const catEndpoints: ReadonlyArray<CatEndpoint<string>> = [
  allocationEndpoint,
  catShardsEndpoint,
  catMasterEndpoint,
  nodesEndpoint,
  catIndicesEndpoint,
  catSegmentsEndpoint,
  catCountEndpoint,
  catRecoveryEndpoint,
  catHealthEndpoint,
  catPendingTasksEndpoint,
  catAliasesEndpoint,
  catThreadPoolEndpoint,
  catNodeAttrsEndpoint,
  catPluginsEndpoint,
  catFielddataEndpoint,
];

/**
 * `_cat/tasks` is served by the tasks family (its columns depend on `detailed`; see actions/tasks/cat-tasks.ts)
 * but listed here in ES's order. Importing it from there would make a module cycle, hence the literal line.
 */
const CAT_TASKS_DOCUMENTATION = ['/_cat/tasks'];
/** `_cat/templates` and `_cat/component_templates` are served by the templates family (actions/templates/), for the same reason. */
const CAT_TEMPLATES_DOCUMENTATION = ['/_cat/templates', '/_cat/component_templates'];
const documentation = [
  ...allocationEndpoint.documentation,
  ...catShardsEndpoint.documentation,
  ...catMasterEndpoint.documentation,
  ...nodesEndpoint.documentation,
  ...CAT_TASKS_DOCUMENTATION,
  ...catIndicesEndpoint.documentation,
  ...catSegmentsEndpoint.documentation,
  ...catCountEndpoint.documentation,
  ...catRecoveryEndpoint.documentation,
  ...catHealthEndpoint.documentation,
  ...catPendingTasksEndpoint.documentation,
  ...catAliasesEndpoint.documentation,
  ...catThreadPoolEndpoint.documentation,
  ...catNodeAttrsEndpoint.documentation,
  ...catPluginsEndpoint.documentation,
  ...catFielddataEndpoint.documentation,
  ...CAT_TEMPLATES_DOCUMENTATION,
];

/** `GET /_cluster/pending_tasks` travels with its cat view (pending-tasks-action.ts). */
export const catFamilyRoutes: Route[] = [catRootRoute(documentation), ...catEndpoints.flatMap((endpoint) => catRoutes(endpoint)), ...clusterPendingTasksRoutes];

export { CAT_RESPONSE_PARAMS, catRoutes, type CatEndpoint } from './cat-endpoint.js';
export { catTableResponse, catText, catOutputMode, CAT_TEXT_CONTENT_TYPE } from './cat-response.js';
export { readClusterState } from './master-state.js';
