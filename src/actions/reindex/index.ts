/** `_reindex`, `_update_by_query`, `_delete_by_query`: REST handlers over the bulk-by-scroll worker of src/reindex. */
import type { Route } from '../rest.js';
import { byQueryRoutes } from './by-query-action.js';
import { reindexRoutes } from './reindex-action.js';

export { REINDEX_ACTION } from './reindex-action.js';
export { DELETE_BY_QUERY_ACTION, UPDATE_BY_QUERY_ACTION } from './by-query-action.js';
export { NodeBulkByScrollClient } from './node-client.js';
export { runBulkByScroll } from './run-bulk-by-scroll.js';

export const reindexApiRoutes: Route[] = [...reindexRoutes, ...byQueryRoutes];
