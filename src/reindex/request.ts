/**
 * What a bulk-by-scroll worker is asked to do, neutral of the REST layer (ES's AbstractBulkByScrollRequest and
 * its three subclasses): the source search, the batch size, `max_docs`, conflicts, throttling, the writes'
 * timeout and active shards, `refresh`, the scroll keep-alive, and how each hit becomes a write, and the script applied
 * to each write.
 */
import type { Task } from '../tasks/index.js';
import type { ScrollHit, SourceSearch, WriteRequest, WriteVersionType } from './client.js';

/** ES's DEFAULT_SCROLL_SIZE and DEFAULT_SCROLL_TIMEOUT. */
export const DEFAULT_SCROLL_SIZE = 1000;
export const DEFAULT_SCROLL_KEEP_ALIVE_MILLIS = 5 * 60_000;
/** -1: every match. */
export const MAX_DOCS_ALL_MATCHES = -1;

/** dest.routing of a reindex: keep the hit's, drop it, or set one value. */
export type DestRouting = { readonly kind: 'keep' } | { readonly kind: 'discard' } | { readonly kind: 'value'; readonly value: string };

export type HitConversion =
  | {
      readonly kind: 'reindex';
      readonly destIndex: string;
      readonly opType: 'index' | 'create';
      readonly versionType: WriteVersionType;
      readonly routing: DestRouting;
      readonly requireAlias: boolean;
    }
  | { readonly kind: 'update_by_query' }
  | { readonly kind: 'delete_by_query' };

/**
 * A write script applied to one hit (ES's ScriptApplier, a BiFunction of the write and the hit): returns the
 * write to send (possibly changed, or turned into a delete), or `undefined` for a noop (counted in `noops`).
 * Built by `scriptApplier` (script-applier.ts) from a compiled script.
 */
export type HitScriptStep = (write: WriteRequest, hit: ScrollHit) => WriteRequest | undefined;

/**
 * The script applied to a batch of hits, off the event loop (script-pool.ts runs it in a worker thread):
 * resolves with each hit's write or undefined; a script failure rejects with its script_exception, a cancel of
 * `task` with task_cancelled.
 */
export type HitScript = (items: readonly { readonly write: WriteRequest; readonly hit: ScrollHit }[], task: Task) => Promise<(WriteRequest | undefined)[]>;

export interface BulkByScrollRequest {
  readonly source: SourceSearch;
  /** Hits per scroll page (`source.size` / `scroll_size`). */
  readonly batchSize: number;
  /** MAX_DOCS_ALL_MATCHES or a positive limit. */
  readonly maxDocs: number;
  readonly abortOnVersionConflict: boolean;
  /** Infinity when unthrottled. */
  readonly requestsPerSecond: number;
  readonly refresh: boolean;
  readonly timeoutMillis: number;
  readonly waitForActiveShards: string | undefined;
  readonly scrollKeepAliveMillis: number;
  readonly conversion: HitConversion;
  readonly script: HitScript | undefined;
  /** Manual slice of the source (`{id, max}`), for a slice worker. */
  readonly slice: { readonly id: number; readonly max: number } | undefined;
}
