/**
 * `GET /_cat/fielddata[/{fields}]` (RestFielddataAction): fielddata memory per node and field. Gannet sorts and
 * aggregates on doc values and never loads fielddata (text fields do not enable it), so no row has a size to
 * show and the table is empty, as ES's is on a cluster without fielddata.
 */
import { defineColumns } from '../../cat/index.js';
import type { CatEndpoint } from './cat-endpoint.js';

export const fielddataColumns = defineColumns([
  { name: 'id', description: 'node id' },
  { name: 'host', aliases: ['h'], description: 'host name' },
  { name: 'ip', description: 'ip address' },
  { name: 'node', aliases: ['n'], description: 'node name' },
  { name: 'field', aliases: ['f'], description: 'field name' },
  { name: 'size', description: 'field data usage', align: 'right' },
]);

export const catFielddataEndpoint: CatEndpoint<(typeof fielddataColumns)[number]['name']> = {
  documentation: ['/_cat/fielddata', '/_cat/fielddata/{fields}'],
  paths: ['/_cat/fielddata', '/_cat/fielddata/{fields}'],
  action: 'cluster:monitor/nodes/stats',
  params: ['fields'],
  columns: fielddataColumns,
  async rows(request) {
    request.paramList('fields');
    return [];
  },
};
