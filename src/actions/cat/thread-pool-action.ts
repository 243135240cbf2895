/**
 * `GET /_cat/thread_pool[/{thread_pool_patterns}]` (RestThreadPoolAction): one row per node and thread pool, in node
 * then pool-name order, with ES's columns (default: node_name, name, active, queue, rejected). Each node reports its
 * own pools (thread-pool-figures.ts); other nodes answer over the transport, and a node that does not answer is
 * left out, as ES leaves out a node whose stats did not come back. Patterns filter pool names (wildcards).
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { simpleMatch } from '../../common/wildcards.js';
import { transportAddress } from '../../cluster/index.js';
import type { NodeServices } from '../context.js';
import { onSelectedNodes } from '../nodes/nodes-fanout.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';
import { threadPoolFigures, type ThreadPoolFigures } from './thread-pool-figures.js';

export const THREAD_POOL_NODE_ACTION = 'internal:monitor/cat/thread_pool';

export const threadPoolColumns = defineColumns([
  { name: 'node_name', aliases: ['nn'], description: 'node name' },
  { name: 'node_id', aliases: ['id'], shownByDefault: false, description: 'persistent node id' },
  { name: 'ephemeral_node_id', aliases: ['eid'], shownByDefault: false, description: 'ephemeral node id' },
  { name: 'pid', aliases: ['p'], shownByDefault: false, description: 'process id' },
  { name: 'host', aliases: ['h'], shownByDefault: false, description: 'host name' },
  { name: 'ip', aliases: ['i'], shownByDefault: false, description: 'ip address' },
  { name: 'port', aliases: ['po'], shownByDefault: false, description: 'bound transport port' },
  { name: 'name', aliases: ['n'], description: 'thread pool name' },
  { name: 'type', aliases: ['t'], shownByDefault: false, description: 'thread pool type' },
  { name: 'active', aliases: ['a'], align: 'right', description: 'number of active threads' },
  { name: 'pool_size', aliases: ['psz'], shownByDefault: false, align: 'right', description: 'number of threads' },
  { name: 'queue', aliases: ['q'], align: 'right', description: 'number of tasks currently in queue' },
  { name: 'queue_size', aliases: ['qs'], shownByDefault: false, align: 'right', description: 'maximum number of tasks permitted in queue' },
  { name: 'rejected', aliases: ['r'], align: 'right', description: 'number of rejected tasks' },
  { name: 'largest', aliases: ['l'], shownByDefault: false, align: 'right', description: 'highest number of seen active threads' },
  { name: 'completed', aliases: ['c'], shownByDefault: false, align: 'right', description: 'number of completed tasks' },
  { name: 'core', aliases: ['cr'], shownByDefault: false, align: 'right', description: 'core number of threads in a scaling thread pool' },
  { name: 'max', aliases: ['mx'], shownByDefault: false, align: 'right', description: 'maximum number of threads in a scaling thread pool' },
  { name: 'size', aliases: ['sz'], shownByDefault: false, align: 'right', description: 'number of threads in a fixed thread pool' },
  { name: 'keep_alive', aliases: ['ka'], shownByDefault: false, align: 'right', description: 'thread keep alive time' },
]);

type ThreadPoolColumn = (typeof threadPoolColumns)[number]['name'];

/** This node's pools, for itself and for a coordinating node that asks over the transport. */
export function localThreadPools(services: NodeServices): ThreadPoolFigures[] {
  return threadPoolFigures(services);
}

export const catThreadPoolEndpoint: CatEndpoint<ThreadPoolColumn> = {
  documentation: ['/_cat/thread_pool', '/_cat/thread_pool/{thread_pools}'],
  paths: ['/_cat/thread_pool', '/_cat/thread_pool/{thread_pool_patterns}'],
  action: 'cluster:monitor/nodes/stats',
  params: ['local', 'master_timeout'],
  columns: threadPoolColumns,
  async rows(request, context) {
    const services = context.services;
    const state = await readClusterState(request, context, { acceptsLocal: true });
    const patterns = (request.pathParams['thread_pool_patterns'] ?? '').split(',').map((pattern) => pattern.trim()).filter(Boolean);
    const outcome = await onSelectedNodes<ReturnType<typeof localThreadPools>>(services, [], { action: THREAD_POOL_NODE_ACTION, args: {}, task: context.task });
    const rows: CatRow<ThreadPoolColumn>[] = [];
    for (const [nodeId, pools] of outcome.answers) {
      const node = state.nodes.get(nodeId);
      if (node === undefined) continue;
      const selected = pools
        .filter(({ info }) => patterns.length === 0 || patterns.some((pattern) => simpleMatch(pattern, info.name)))
        .sort((a, b) => (a.info.name < b.info.name ? -1 : a.info.name > b.info.name ? 1 : 0));
      for (const { info, stats } of selected) {
        const scaling = info.type === 'scaling';
        rows.push({
          node_name: cell.string(node.name),
          node_id: cell.string(node.id),
          ephemeral_node_id: cell.string(node.ephemeralId),
          pid: cell.maybe(node.pid, cell.long),
          host: cell.string(node.host),
          ip: cell.string(node.ip),
          port: cell.long(Number(transportAddress(node).split(':').pop())),
          name: cell.string(info.name),
          type: cell.string(info.type),
          active: cell.long(stats.active),
          pool_size: cell.long(stats.threads),
          queue: cell.long(stats.queue),
          // ES prints a scaling pool's queue size as empty (it has none) and -1 for an unbounded fixed one.
          queue_size: scaling ? null : cell.long(info.queueSize),
          rejected: cell.long(stats.rejected),
          largest: cell.long(stats.largest),
          completed: cell.long(stats.completed),
          core: scaling ? cell.long(info.core) : null,
          max: scaling ? cell.long(info.max) : null,
          size: scaling ? null : cell.long(info.max),
          keep_alive: info.keepAliveMillis === undefined ? null : cell.millis(info.keepAliveMillis),
        });
      }
    }
    return rows;
  },
};
