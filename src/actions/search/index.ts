/**
 * actions/search: the search APIs (`_search`, `_count`, `_msearch`, scroll, point in time, `_explain`, `_terms_enum`). Handlers
 * parse and validate, pick the shards, run the shard phases of search/phase as child tasks and render ES's
 * responses; open scroll and PIT contexts live in the node's ReaderContexts.
 */
import type { Route } from '../rest.js';
import { countRoutes } from './count-action.js';
import { explainRoutes } from './explain-action.js';
import { msearchRoutes } from './msearch-action.js';
import { pitRoutes } from './pit-action.js';
import { scrollRoutes } from './scroll-action.js';
import { searchRoutes } from './search-action.js';
import { termsEnumRoutes } from './terms-enum-action.js';

export const searchApiRoutes: Route[] = [...searchRoutes, ...countRoutes, ...msearchRoutes, ...scrollRoutes, ...pitRoutes, ...explainRoutes, ...termsEnumRoutes];
