/**
 * `GET /_cat/nodeattrs` (RestNodeAttrsAction): one row per node and attribute (`node.attr.*`, what index allocation
 * filters match), nodes in the cluster state's order and each node's attributes in the order it declared them. The
 * node id is its first four characters unless `full_id` is set. A node without attributes has no row.
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';

export const nodeAttrsColumns = defineColumns([
  { name: 'node', aliases: ['name'], description: 'node name' },
  { name: 'id', aliases: ['id', 'nodeId'], shownByDefault: false, description: 'unique node id' },
  { name: 'pid', aliases: ['p'], shownByDefault: false, description: 'process id' },
  { name: 'host', aliases: ['h'], description: 'host name' },
  { name: 'ip', aliases: ['i'], description: 'ip address' },
  { name: 'port', aliases: ['po'], shownByDefault: false, description: 'bound transport port' },
  { name: 'attr', aliases: ['attr.name'], description: 'attribute description' },
  { name: 'value', aliases: ['attr.value'], description: 'attribute value' },
]);

type NodeAttrsColumn = (typeof nodeAttrsColumns)[number]['name'];

export const catNodeAttrsEndpoint: CatEndpoint<NodeAttrsColumn> = {
  documentation: ['/_cat/nodeattrs'],
  paths: ['/_cat/nodeattrs'],
  action: 'cluster:monitor/state',
  params: ['local', 'master_timeout', 'full_id'],
  columns: nodeAttrsColumns,
  async rows(request, context) {
    const fullId = request.paramBool('full_id', false);
    const state = await readClusterState(request, context, { acceptsLocal: true });
    const rows: CatRow<NodeAttrsColumn>[] = [];
    for (const node of state.nodes.values()) {
      for (const [attr, value] of Object.entries(node.attributes)) {
        rows.push({
          node: cell.string(node.name),
          id: cell.string(fullId ? node.id : node.id.slice(0, 4)),
          pid: cell.maybe(node.pid, cell.long),
          host: cell.string(node.host),
          ip: cell.string(node.ip),
          port: cell.long(node.transportPort),
          attr: cell.string(attr),
          value: cell.string(value),
        });
      }
    }
    return rows;
  },
};
