/** The index APIs: create, delete, get and exists, mappings, settings, refresh/flush/force merge, stats, analyze. */
import type { Route } from '../rest.js';
import { analyzeRoutes } from './analyze-action.js';
import { broadcastRoutes } from './broadcast-actions.js';
import { createIndexRoutes } from './create-index-action.js';
import { deleteIndexRoutes } from './delete-index-action.js';
import { getIndexRoutes } from './get-index-action.js';
import { mappingRoutes } from './mapping-actions.js';
import { settingsRoutes } from './settings-actions.js';
import { statsRoutes } from './stats-action.js';
import { fieldCapsRoutes } from './field-caps-action.js';
import { aliasRoutes } from './alias-actions.js';
import { openCloseRoutes } from './open-close-action.js';
import { addBlockRoutes } from './add-block-action.js';
import { recoveryRoutes } from './recovery-action.js';
import { cacheClearRoutes } from './cache-clear-action.js';
import { segmentsRoutes } from './segments-action.js';
import { resolveIndexRoutes } from './resolve-index-action.js';
import { rolloverRoutes } from './rollover-action.js';
import { resizeRoutes } from './resize-action.js';

export const indexApiRoutes: Route[] = [
  ...createIndexRoutes,
  ...deleteIndexRoutes,
  ...getIndexRoutes,
  ...mappingRoutes,
  ...settingsRoutes,
  ...broadcastRoutes,
  ...statsRoutes,
  ...analyzeRoutes,
  ...fieldCapsRoutes,
  ...aliasRoutes,
  ...openCloseRoutes,
  ...addBlockRoutes,
  ...recoveryRoutes,
  ...cacheClearRoutes,
  ...segmentsRoutes,
  ...resolveIndexRoutes,
  ...rolloverRoutes,
  ...resizeRoutes,
];

export { commonStats, STATS_METRICS, type StatsMetric } from './stats-xcontent.js';
export { settingsXContent } from './settings-xcontent.js';
