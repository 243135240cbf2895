/**
 * `GET /_cat/plugins` (RestPluginsAction): one row per plugin per node. Gannet has no plugins, so the table has
 * ES's columns and no rows (ES's bootstrap plugins, listed with `include_bootstrap`, do not exist here either).
 */
import { defineColumns } from '../../cat/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';

export const pluginsColumns = defineColumns([
  { name: 'id', description: 'unique node id', shownByDefault: false },
  { name: 'name', aliases: ['n'], description: 'node name' },
  { name: 'component', aliases: ['c'], description: 'component' },
  { name: 'version', aliases: ['v'], description: 'component version' },
  { name: 'description', aliases: ['d'], description: 'plugin details', shownByDefault: false },
  { name: 'type', aliases: ['t'], description: 'plugin type', shownByDefault: false },
]);

export const catPluginsEndpoint: CatEndpoint<(typeof pluginsColumns)[number]['name']> = {
  documentation: ['/_cat/plugins'],
  paths: ['/_cat/plugins'],
  action: 'cluster:monitor/nodes/info',
  params: ['local', 'master_timeout', 'include_bootstrap'],
  columns: pluginsColumns,
  async rows(request, context) {
    request.paramBool('include_bootstrap', false);
    await readClusterState(request, context, { acceptsLocal: true });
    return [];
  },
};
