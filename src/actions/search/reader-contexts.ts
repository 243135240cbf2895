/**
 * The search contexts a node keeps open between requests (ES's SearchService reader contexts): a scroll's
 * per-shard state, a point in time, or a plain search's shard between its query and fetch phases (ES's
 * single-session LegacyReaderContext: freed by the fetch, or by the coordinating node when the shard holds no
 * winner), each holding a shard searcher (a point-in-time view of its segments)
 * until it is freed or its keep-alive lapses. Ids are per node (a counter) within a session id that changes
 * on restart, as in ES, so an id from before a restart is simply missing. Every access renews the keep-alive;
 * a reaper frees lapsed contexts. Open contexts, and scrolls with their time, are counted in the shard's
 * search statistics.
 */
import { randomBytes } from 'node:crypto';
import { EsError } from '../../common/errors.js';
import { formatTimeValueMillis, parseTimeValueMillis } from '../../common/time-value.js';
import type { Searcher } from '../../engine/searcher.js';
import type { IndexService, IndexShard } from '../../indices/index.js';
import type { StatisticsOverride, TotalHits } from '../../search/index.js';
import type { AfterDoc, ResolvedSort } from '../../search/phase/index.js';
import type { AggregationSpec } from '../../search/aggregations/index.js';
import type { QueryAst, SearchRequest } from '../../search/dsl/index.js';
import type { NodeServices } from '../context.js';

/** What a scroll remembers on a shard between pages (ES's ScrollContext). */
export interface ScrollState {
  readonly request: SearchRequest;
  readonly aggregations: readonly AggregationSpec[] | undefined;
  readonly sort: ResolvedSort;
  readonly nowMillis: number;
  readonly statistics: StatisticsOverride | undefined;
  /** From the first page: every later page reports the same total and max score. */
  totalHits: TotalHits | undefined;
  maxScore: number;
  /** The last hit of this shard that made it into a page. */
  lastEmitted: AfterDoc | undefined;
}

/** What a plain search's shard keeps between its query and its fetch: the fetch reads the same request. */
export interface SearchSessionState {
  readonly request: SearchRequest;
  readonly statistics: StatisticsOverride | undefined;
  readonly nowMillis: number;
}

export interface ReaderContext {
  readonly id: number;
  readonly kind: 'scroll' | 'pit' | 'search';
  readonly index: string;
  readonly indexUuid: string;
  readonly shardId: number;
  readonly indexShard: IndexShard;
  readonly service: IndexService;
  readonly searcher: Searcher;
  readonly createdMillis: number;
  keepAliveMillis: number;
  lastAccessedMillis: number;
  /** Requests using the context right now; it is not reaped while in use. */
  inUse: number;
  scroll: ScrollState | undefined;
  /** A plain search's request (kind `search`), set by its query phase. */
  session: SearchSessionState | undefined;
  /**
   * A point in time's alias filter for this index, as the aliases it was opened through defined it then
   * (ES keeps it in the PIT id's AliasFilter map): every search on the point in time applies it.
   */
  readonly aliasFilter: QueryAst | undefined;
}

const DEFAULT_KEEP_ALIVE_MILLIS = 5 * 60_000;
const DEFAULT_MAX_KEEP_ALIVE_MILLIS = 24 * 60 * 60_000;
const DEFAULT_MAX_OPEN_SCROLL_CONTEXT = 500;
const REAP_INTERVAL_MILLIS = 1000;

export class ReaderContexts {
  /** Distinguishes this node run's ids from an earlier run's (ES's session id). */
  readonly sessionId = randomBytes(16).toString('base64url');
  private nextId = 1;
  private readonly contexts = new Map<number, ReaderContext>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly services: NodeServices) {
    this.timer = setInterval(() => this.reap(), REAP_INTERVAL_MILLIS);
    this.timer.unref();
  }

  private setting(key: string): string | undefined {
    return this.services.settings.get(key);
  }

  get defaultKeepAliveMillis(): number {
    const raw = this.setting('search.default_keep_alive');
    return raw === undefined ? DEFAULT_KEEP_ALIVE_MILLIS : parseTimeValueMillis(raw, 'search.default_keep_alive');
  }

  get maxKeepAliveMillis(): number {
    const raw = this.setting('search.max_keep_alive');
    return raw === undefined ? DEFAULT_MAX_KEEP_ALIVE_MILLIS : parseTimeValueMillis(raw, 'search.max_keep_alive');
  }

  get maxOpenScrollContexts(): number {
    const raw = this.setting('search.max_open_scroll_context');
    return raw === undefined ? DEFAULT_MAX_OPEN_SCROLL_CONTEXT : Number(raw);
  }

  /** SearchService.checkKeepAliveLimit. */
  checkKeepAlive(keepAliveMillis: number): void {
    const max = this.maxKeepAliveMillis;
    if (keepAliveMillis > max) {
      throw new EsError(
        'illegal_argument_exception',
        `Keep alive for request (${formatTimeValueMillis(keepAliveMillis)}) is too large. It must be less than (${formatTimeValueMillis(max)}). ` +
          'This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
      );
    }
  }

  get openScrollContexts(): number {
    let count = 0;
    for (const context of this.contexts.values()) if (context.kind === 'scroll') count++;
    return count;
  }

  /** Opens a context over `searcher`, which it now owns (released when the context is freed). */
  open(kind: ReaderContext['kind'], service: IndexService, shard: IndexShard, searcher: Searcher, keepAliveMillis: number, aliasFilter?: QueryAst): ReaderContext {
    this.checkKeepAlive(keepAliveMillis);
    if (kind === 'scroll' && this.openScrollContexts >= this.maxOpenScrollContexts) {
      throw new EsError(
        'es_rejected_execution_exception',
        `Trying to create too many scroll contexts. Must be less than or equal to: [${this.maxOpenScrollContexts}]. ` +
          'This limit can be set by changing the [search.max_open_scroll_context] setting.',
      );
    }
    const now = Date.now();
    const context: ReaderContext = {
      id: this.nextId++,
      kind,
      index: service.name,
      indexUuid: service.uuid,
      shardId: shard.shardId,
      indexShard: shard,
      service,
      searcher,
      createdMillis: now,
      keepAliveMillis,
      lastAccessedMillis: now,
      inUse: 0,
      scroll: undefined,
      session: undefined,
      aliasFilter,
    };
    this.contexts.set(context.id, context);
    shard.searchStats.openContexts++;
    if (kind === 'scroll') shard.searchStats.scrollCurrent++;
    return context;
  }

  /** The live context with this id (from this session), or undefined. */
  get(sessionId: string, id: number): ReaderContext | undefined {
    if (sessionId !== this.sessionId) return undefined;
    const context = this.contexts.get(id);
    if (context === undefined) return undefined;
    if (this.expired(context, Date.now()) || context.indexShard.state === 'closed') {
      this.free(id);
      return undefined;
    }
    return context;
  }

  /** Marks a use of the context, renewing its keep-alive (the request's if it gave one). */
  acquire(context: ReaderContext, keepAliveMillis: number | undefined): void {
    if (keepAliveMillis !== undefined) {
      this.checkKeepAlive(keepAliveMillis);
      context.keepAliveMillis = keepAliveMillis;
    }
    context.inUse++;
    context.lastAccessedMillis = Date.now();
  }

  release(context: ReaderContext): void {
    context.inUse = Math.max(0, context.inUse - 1);
    context.lastAccessedMillis = Date.now();
  }

  free(id: number): boolean {
    const context = this.contexts.get(id);
    if (context === undefined) return false;
    this.contexts.delete(id);
    const stats = context.indexShard.searchStats;
    stats.openContexts--;
    if (context.kind === 'scroll') {
      stats.scrollCurrent--;
      stats.scrollTotal++;
      stats.scrollTimeMillis += Date.now() - context.createdMillis;
    }
    context.searcher.release();
    return true;
  }

  /** Frees every context of a kind (clear scroll `_all`); returns how many. */
  freeAll(kind: ReaderContext['kind']): number {
    let freed = 0;
    for (const context of [...this.contexts.values()]) if (context.kind === kind && this.free(context.id)) freed++;
    return freed;
  }

  private expired(context: ReaderContext, now: number): boolean {
    return context.inUse === 0 && now - context.lastAccessedMillis > context.keepAliveMillis;
  }

  private reap(): void {
    const now = Date.now();
    for (const context of [...this.contexts.values()]) {
      if (this.expired(context, now) || context.indexShard.state === 'closed') this.free(context.id);
    }
  }
}

const REGISTRIES = new WeakMap<NodeServices, ReaderContexts>();

/** The node's registry (one per node services object). */
export function readerContextsOf(services: NodeServices): ReaderContexts {
  let registry = REGISTRIES.get(services);
  if (registry === undefined) {
    registry = new ReaderContexts(services);
    REGISTRIES.set(services, registry);
  }
  return registry;
}
