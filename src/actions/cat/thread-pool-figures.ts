/**
 * The figures `_cat/thread_pool` prints for this node: each of the node's thread pools (common/thread-pools.ts,
 * ES's ThreadPool with ES's names and sizes) with its configuration (ES's ThreadPool.Info: type, core/max or size,
 * queue size, keep-alive) and its counts (ThreadPoolStats.Stats: threads, queue, active, rejected, largest,
 * completed), the same counts `_nodes/stats/thread_pool` prints. Work that a pool turns away with a 429 is counted
 * in `rejected` there.
 */
import type { ThreadPoolInfo, ThreadPoolStats } from '../../common/thread-pools.js';
import type { NodeServices } from '../context.js';

export interface ThreadPoolFigures {
  readonly info: ThreadPoolInfo;
  readonly stats: ThreadPoolStats;
}

export function threadPoolFigures(services: NodeServices): ThreadPoolFigures[] {
  const pools = services.threadPools;
  const infos = new Map(pools.info().map((info) => [info.name, info]));
  return pools.stats().flatMap((stats) => {
    const info = infos.get(stats.name);
    return info === undefined ? [] : [{ info, stats }];
  });
}
