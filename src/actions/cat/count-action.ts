/**
 * `GET /_cat/count[/{index}]` (RestCountAction): the number of documents in the resolved indices, as a search
 * would count them now (the primaries' refreshed documents), with the timestamp columns. ES 9.3 also routes POST
 * (for a serverless-only `project_routing` body), and the Python client 9.x always sends POST.
 */
import { cell, defineColumns, timestampCells, timestampColumns, type CatRow } from '../../cat/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { indicesOf } from '../indices-services.js';
import { resolveIndices } from '../indices/resolve-indices.js';
import type { CatEndpoint } from './cat-endpoint.js';

export const countColumns = defineColumns([...timestampColumns, { name: 'count', aliases: ['dc', 'docs.count', 'docsCount'], description: 'the document count' }]);

type CountColumn = (typeof countColumns)[number]['name'];

export const catCountEndpoint: CatEndpoint<CountColumn> = {
  documentation: ['/_cat/count', '/_cat/count/{index}'],
  paths: ['/_cat/count', '/_cat/count/{index}'],
  methods: ['GET', 'POST'],
  action: 'indices:data/read/search',
  params: [...INDICES_OPTIONS_PARAMS],
  columns: countColumns,
  async rows(request, context) {
    const state = context.services.clusterService.state();
    const names = new Set(resolveIndices(request, state, STRICT_EXPAND_OPEN_FORBID_CLOSED));
    let count = 0;
    for (const shard of indicesOf(context.services).service.shardStats()) {
      if (shard.primary && names.has(shard.index)) count += shard.engine.docs.count;
    }
    const row: CatRow<CountColumn> = { ...timestampCells(Date.now()), count: cell.long(count) };
    return [row];
  },
};
