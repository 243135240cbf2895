/**
 * `GET /_resolve/index/{name}` (RestResolveIndexAction, ResolveIndexAction): what index expressions name, without
 * expanding aliases: the matching indices (with their aliases and attributes `open`/`closed`, `hidden`, sorted as ES
 * sorts them), the matching aliases (with their indices) and data streams (Gannet has none: always empty). Indices
 * options default to ES's strictExpandOpen, so a missing name is a 404 and a wildcard sees open indices.
 */
import { resolveIndexAbstractions, type ClusterState } from '../../cluster/index.js';
import { aliasNamesOf, indicesOfAlias } from '../../cluster/alias-metadata.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import { json, type Route } from '../rest.js';
import { expressionsOf } from './resolve-indices.js';

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function resolved(state: ClusterState, names: readonly string[]): Record<string, unknown> {
  const indices: Array<{ name: string; aliases?: string[]; attributes: string[] }> = [];
  const aliases: Array<{ name: string; indices?: string[] }> = [];
  for (const name of names) {
    const metadata = state.indices.get(name);
    if (metadata !== undefined) {
      const attributes = [metadata.state === 'open' ? 'open' : 'closed'];
      if (metadata.settings['index.hidden'] === 'true') attributes.push('hidden');
      attributes.sort();
      const aliasNames = aliasNamesOf(metadata);
      indices.push({ name, ...(aliasNames.length > 0 && { aliases: aliasNames }), attributes });
    } else {
      const pointedTo = indicesOfAlias(state, name).map((index) => index.name);
      aliases.push({ name, ...(pointedTo.length > 0 && { indices: pointedTo }) });
    }
  }
  return { indices: indices.sort(byName), aliases: aliases.sort(byName), data_streams: [] };
}

export const resolveIndexRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_resolve/index/{name}',
    action: 'indices:admin/resolve/index',
    params: INDICES_OPTIONS_PARAMS,
    handler: async (request, context) => {
      const state = context.services.clusterService.state();
      const options = indicesOptionsFromParams((name) => request.param(name), STRICT_EXPAND_OPEN);
      return json(resolved(state, resolveIndexAbstractions(state, options, expressionsOf(request, 'name'))));
    },
  },
];
