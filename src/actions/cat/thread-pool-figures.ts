/**
 * The figures `_cat/thread_pool` prints for this node, per ES thread pool (ThreadPoolStats.Stats and ThreadPool.Info).
 *
 * When the node runs its work on named pools (`services.threadPools`, ES's ThreadPool: sized queues, rejections),
 * their own stats are printed. Until then a Gannet node runs every request on its one event loop, so each pool is
 * reported as what it is: one thread, no queue of its own (`queue` 0, `queue_size` -1: the event loop takes all
 * work, unbounded), nothing rejected, with `active` counted from the tasks running now and `completed` from the tasks
 * finished, grouped by the pool ES would run their action on.
 */
import type { NodeServices } from '../context.js';

export type ThreadPoolType = 'fixed' | 'scaling';

/** ES's ThreadPool.Info of one pool, as the node's pools report it. */
export interface ThreadPoolInfoView {
  readonly name: string;
  readonly type: ThreadPoolType;
  readonly core: number;
  readonly max: number;
  /** -1: unbounded. */
  readonly queueSize: number;
  readonly keepAliveMillis?: number;
}

/** ES's ThreadPoolStats.Stats of one pool. */
export interface ThreadPoolStatsView {
  readonly name: string;
  readonly type: ThreadPoolType;
  readonly threads: number;
  readonly queue: number;
  readonly active: number;
  readonly rejected: number;
  readonly largest: number;
  readonly completed: number;
}

/** What a node's thread pools tell (the hardening work's ThreadPools class provides it). */
export interface ThreadPoolsView {
  stats(): ThreadPoolStatsView[];
  info(): ThreadPoolInfoView[];
}

export interface ThreadPoolFigures {
  readonly info: ThreadPoolInfoView;
  readonly stats: ThreadPoolStatsView;
}

/** The pool ES runs an action on (the prefixes of the actions Gannet has). */
const POOL_OF_ACTION: ReadonlyArray<readonly [string, RegExp]> = [
  ['search', /^indices:data\/read\/(search|msearch|scroll|open_point_in_time|explain)/],
  ['get', /^indices:data\/read\/(get|mget)/],
  ['write', /^indices:data\/write\//],
  ['analyze', /^indices:admin\/analyze/],
  ['refresh', /^indices:admin\/refresh/],
  ['flush', /^indices:admin\/flush/],
  ['force_merge', /^indices:admin\/forcemerge/],
  ['management', /^(cluster:monitor|indices:monitor|cluster:admin\/tasks)/],
];

function poolOf(action: string): string {
  return POOL_OF_ACTION.find(([, pattern]) => pattern.test(action))?.[0] ?? 'generic';
}

/** One event loop, reported per ES pool name. */
function eventLoopFigures(services: NodeServices): ThreadPoolFigures[] {
  const active = new Map<string, number>();
  for (const task of services.taskManager.list()) active.set(poolOf(task.action), (active.get(poolOf(task.action)) ?? 0) + 1);
  const completed = new Map<string, number>();
  for (const [action, count] of services.taskManager.completedActions()) completed.set(poolOf(action), (completed.get(poolOf(action)) ?? 0) + count);
  const names = ['analyze', 'flush', 'force_merge', 'generic', 'get', 'management', 'refresh', 'search', 'write'];
  return names.map((name) => {
    const running = active.get(name) ?? 0;
    return {
      info: { name, type: 'fixed', core: 1, max: 1, queueSize: -1 },
      stats: { name, type: 'fixed', threads: 1, queue: 0, active: running, rejected: 0, largest: Math.max(1, running), completed: completed.get(name) ?? 0 },
    };
  });
}

export function threadPoolFigures(services: NodeServices): ThreadPoolFigures[] {
  const pools = services.threadPools;
  if (pools === undefined) return eventLoopFigures(services);
  const infos = new Map(pools.info().map((info) => [info.name, info]));
  return pools.stats().flatMap((stats) => {
    const info = infos.get(stats.name);
    return info === undefined ? [] : [{ info, stats }];
  });
}
