/**
 * A node's thread pools, named and sized as ES 8's ThreadPool builds them for the node's allocated processors
 * (`node.processors`, default the machine's). Handlers run their work on the pool ES would use: shard-level
 * search phases on `search`, a shard's bulk on `write`, document gets on `get`, `_analyze` on `analyze`,
 * force merges on `force_merge`, the operator's commands on `management`; see thread-pool.ts for what a pool
 * does on one event loop.
 *
 * This is the stats API other modules read (`_cat/thread_pool`, `_nodes/stats/thread_pool`, `_nodes`' info):
 * `stats()` gives every pool's figures in name order, `info()` the configuration.
 */
import { ThreadPool, type ThreadPoolInfo, type ThreadPoolStats } from './thread-pool.js';

export type { ThreadPoolInfo, ThreadPoolStats } from './thread-pool.js';

const MINUTE = 60_000;

function boundedBy(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** ES's searchOrGetThreadPoolSize: int(processors * 3 / 2) + 1. */
export function searchThreadPoolSize(allocatedProcessors: number): number {
  return Math.trunc((allocatedProcessors * 3) / 2) + 1;
}

/**
 * Indexing worker threads per shard copy (engine/segments/segment-jobs.ts): two let one write a buffer as a segment
 * while the other inverts the next, which pays only with a core to spare beside the event loop. Each is an isolate
 * that compiles the inverting and segment-writing code for itself and writes its first segment cold, so on two
 * processors or fewer the second costs CPU and gains nothing: a 40,000-document bulk cost one node ~8% less CPU with
 * one, a primary and its replica ~15% less (bench/BENCHMARKS.md, "One indexing worker per copy on two cores";
 * decision 0028).
 */
export function indexingWorkersPerCopy(allocatedProcessors: number): 1 | 2 {
  return allocatedProcessors > 2 ? 2 : 1;
}

const fixed = (name: string, size: number, queueSize: number): ThreadPoolInfo => ({ name, type: 'fixed', core: size, max: size, queueSize });
const scaling = (name: string, core: number, max: number, keepAliveMillis: number): ThreadPoolInfo => ({ name, type: 'scaling', core, max, queueSize: -1, keepAliveMillis });

/** ES 8's built-in pools (ThreadPool's constructor) for a node with these processors and this heap. */
export function threadPoolInfos(allocatedProcessors: number, heapMaxBytes: number): ThreadPoolInfo[] {
  const processors = Math.max(1, Math.trunc(allocatedProcessors));
  const halfMaxFive = boundedBy(Math.trunc((processors + 1) / 2), 1, 5);
  const halfMaxTen = boundedBy(Math.trunc((processors + 1) / 2), 1, 10);
  const searchOrGet = searchThreadPoolSize(processors);
  // ES's getMaxSnapshotThreadPoolSize: small heaps get half the processors (at most five), others ten.
  const snapshotMax = heapMaxBytes < 750 * 1024 * 1024 ? halfMaxFive : 10;
  return [
    scaling('generic', 4, boundedBy(4 * processors, 128, 512), 30_000),
    fixed('write', processors, 10_000),
    fixed('get', searchOrGet, 1000),
    fixed('analyze', 1, 16),
    fixed('search', searchOrGet, 1000),
    fixed('search_coordination', halfMaxFive, 1000),
    fixed('auto_complete', Math.max(Math.trunc(processors / 4), 1), 100),
    fixed('search_throttled', 1, 100),
    scaling('management', 1, boundedBy(processors, 1, 5), 5 * MINUTE),
    scaling('flush', 1, halfMaxFive, 5 * MINUTE),
    scaling('refresh', 1, halfMaxTen, 5 * MINUTE),
    scaling('warmer', 1, halfMaxFive, 5 * MINUTE),
    scaling('snapshot', 1, snapshotMax, 5 * MINUTE),
    scaling('snapshot_meta', 1, Math.min(processors * 3, 50), 30_000),
    scaling('fetch_shard_started', 1, 2 * processors, 5 * MINUTE),
    fixed('force_merge', Math.max(1, Math.trunc(processors / 8)), -1),
    fixed('cluster_coordination', 1, -1),
    scaling('fetch_shard_store', 1, 2 * processors, 5 * MINUTE),
    fixed('system_read', halfMaxFive, 2000),
    fixed('system_write', halfMaxFive, 1000),
    fixed('system_critical_read', halfMaxFive, 2000),
    fixed('system_critical_write', halfMaxFive, 1500),
  ];
}

export type ThreadPoolName =
  | 'generic'
  | 'write'
  | 'get'
  | 'analyze'
  | 'search'
  | 'search_coordination'
  | 'auto_complete'
  | 'search_throttled'
  | 'management'
  | 'flush'
  | 'refresh'
  | 'warmer'
  | 'snapshot'
  | 'snapshot_meta'
  | 'fetch_shard_started'
  | 'force_merge'
  | 'cluster_coordination'
  | 'fetch_shard_store'
  | 'system_read'
  | 'system_write'
  | 'system_critical_read'
  | 'system_critical_write';

export class ThreadPools {
  private readonly pools = new Map<string, ThreadPool>();

  constructor(
    nodeName: string,
    readonly allocatedProcessors: number,
    heapMaxBytes: number,
  ) {
    for (const info of threadPoolInfos(allocatedProcessors, heapMaxBytes)) this.pools.set(info.name, new ThreadPool(nodeName, info));
  }

  pool(name: ThreadPoolName): ThreadPool {
    return this.pools.get(name)!;
  }

  /** Runs `work` on the named pool (see ThreadPool.execute). */
  execute<T>(name: ThreadPoolName, work: () => Promise<T>, what?: string): Promise<T> {
    return this.pool(name).execute(work, what);
  }

  /** Every pool's figures, by name (ES's ThreadPoolStats, sorted as nodes stats prints them). */
  stats(): ThreadPoolStats[] {
    return [...this.pools.values()].map((pool) => pool.stats()).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every pool's configuration, by name (ES's ThreadPoolInfo, as nodes info prints it). */
  info(): ThreadPoolInfo[] {
    return [...this.pools.values()].map((pool) => pool.info).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
