/** `GET /_cat/master` (RestMasterAction): the elected master's id, host, ip and name; `-` while none is known. */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';

export const masterColumns = defineColumns([
  { name: 'id', description: 'node id' },
  { name: 'host', aliases: ['h'], description: 'host name' },
  { name: 'ip', description: 'ip address ' },
  { name: 'node', aliases: ['n'], description: 'node name' },
]);

type MasterColumn = (typeof masterColumns)[number]['name'];

export const catMasterEndpoint: CatEndpoint<MasterColumn> = {
  documentation: ['/_cat/master'],
  paths: ['/_cat/master'],
  action: 'cluster:monitor/state',
  params: ['local', 'master_timeout'],
  columns: masterColumns,
  async rows(request, context) {
    const state = await readClusterState(request, context, { acceptsLocal: true });
    const master = state.masterNodeId === undefined ? undefined : state.nodes.get(state.masterNodeId);
    const row: CatRow<MasterColumn> =
      master === undefined
        ? { id: cell.string('-'), host: cell.string('-'), ip: cell.string('-'), node: cell.string('-') }
        : { id: cell.string(master.id), host: cell.string(master.host), ip: cell.string(master.ip), node: cell.string(master.name) };
    return [row];
  },
};
