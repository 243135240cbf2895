/**
 * `GET /_cat/aliases[/{alias}]` (RestAliasAction): one row per alias of each index (hidden and closed indices
 * included, as GetAliasesRequest resolves them), `*` for a filtering alias, `-` for what is not set.
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { aliasOf, indicesOptionsFromParams, INDICES_OPTIONS_PARAMS } from '../../cluster/index.js';
import { findAliases, GET_ALIASES_OPTIONS } from '../indices/alias-get.js';
import type { CatEndpoint } from './cat-endpoint.js';

export const aliasColumns = defineColumns([
  { name: 'alias', aliases: ['a'], description: 'alias name' },
  { name: 'index', aliases: ['i', 'idx'], description: 'index alias points to' },
  { name: 'filter', aliases: ['f', 'fi'], description: 'filter' },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], description: 'index routing' },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], description: 'search routing' },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], description: 'write index' },
]);

type AliasColumn = (typeof aliasColumns)[number]['name'];

export const catAliasesEndpoint: CatEndpoint<AliasColumn> = {
  documentation: ['/_cat/aliases', '/_cat/aliases/{alias}'],
  paths: ['/_cat/aliases', '/_cat/aliases/{alias}'],
  action: 'indices:admin/aliases/get',
  params: [...INDICES_OPTIONS_PARAMS, 'local'],
  columns: aliasColumns,
  async rows(request, context) {
    const state = context.services.clusterService.state();
    const options = indicesOptionsFromParams((name) => request.param(name), GET_ALIASES_OPTIONS);
    // Strings.commaDelimitedListToStringArray: `_all` stays a name here, which findAliases reads as every alias.
    const requested = request.pathParams['alias'] === undefined ? [] : request.pathParams['alias'].split(',');
    const lookup = findAliases(state, options, [], requested);
    const rows: CatRow<AliasColumn>[] = [];
    for (const [index, aliases] of lookup.byIndex) {
      const metadata = state.indices.get(index)!;
      for (const alias of aliases) {
        const definition = aliasOf(metadata, alias) ?? {};
        rows.push({
          alias: cell.string(alias),
          index: cell.string(index),
          filter: cell.string(definition.filter !== undefined ? '*' : '-'),
          'routing.index': cell.string(definition.indexRouting || '-'),
          'routing.search': cell.string(definition.searchRouting || '-'),
          is_write_index: cell.string(definition.isWriteIndex === undefined ? '-' : String(definition.isWriteIndex)),
        });
      }
    }
    return rows;
  },
};
