/**
 * `GET /_cat/count[/{index}]` (RestCountAction): the number of documents in the resolved indices, counted by a
 * size-0 search across the shards (wherever they live), with the timestamp columns. ES 9.3 also routes POST
 * (for a serverless-only `project_routing` body), and the Python client 9.x always sends POST.
 */
import { cell, defineColumns, timestampCells, timestampColumns, type CatRow } from '../../cat/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import { TRACK_TOTAL_HITS_ACCURATE } from '../../search/dsl/index.js';
import { countSearch } from '../search/count-action.js';
import { indexExpressions } from '../search/search-input.js';
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
    const options = indicesOptionsFromParams((name) => request.param(name), STRICT_EXPAND_OPEN_FORBID_CLOSED);
    const outcome = await countSearch(context, { size: 0, trackTotalHitsUpTo: TRACK_TOTAL_HITS_ACCURATE }, indexExpressions(request.pathParams['index']), options, undefined);
    const count = outcome?.reduced.totalHits?.value ?? 0;
    const row: CatRow<CountColumn> = { ...timestampCells(Date.now()), count: cell.long(count) };
    return [row];
  },
};
