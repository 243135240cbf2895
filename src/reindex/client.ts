/**
 * The port through which a bulk-by-scroll worker reads its source and writes its results (ES's
 * ScrollableHitSource + the bulk client). actions/ implements it on the node's search, scroll and write code;
 * this folder may not import actions/. Every call runs as a registered, cancellable child task of `parent`
 * (search, scroll, bulk), so a cancel of the worker's task bans and cancels them.
 */
import type { EsError } from '../common/errors.js';
import type { Task } from '../tasks/index.js';

/** The source search, in ES's JSON (the worker adds `size`, `sort`, `version`, `seq_no_primary_term`, `slice`). */
export interface SourceSearch {
  /** Index expressions, as the user gave them. */
  readonly indices: readonly string[];
  /** The search body (query, _source, sort, ...). */
  readonly body: Readonly<Record<string, unknown>>;
  /** URL-level search parameters (q, df, routing, expand_wildcards, ...), as text. */
  readonly params: Readonly<Record<string, string>>;
}

export interface ScrollHit {
  readonly index: string;
  readonly id: string;
  readonly version: number | undefined;
  readonly seqNo: number | undefined;
  readonly primaryTerm: number | undefined;
  readonly routing: string | undefined;
  /** The document as stored (after `_source` filtering), JSON text. */
  readonly source: string | undefined;
}

/** A shard failure of the source search (ES's ScrollableHitSource.SearchFailure). */
export interface SearchFailure {
  readonly index: string | undefined;
  readonly shard: number | undefined;
  readonly nodeId: string | undefined;
  readonly reason: EsError;
}

export interface ScrollPage {
  readonly hits: readonly ScrollHit[];
  readonly totalHits: number;
  readonly scrollId: string | undefined;
  readonly failures: readonly SearchFailure[];
  readonly timedOut: boolean;
}

export type WriteVersionType = 'internal' | 'external' | 'external_gte';

export interface WriteRequest {
  readonly op: 'index' | 'create' | 'delete';
  readonly index: string;
  /** Undefined when a reindex script set `ctx._id` to null: the destination generates one. */
  readonly id: string | undefined;
  readonly routing: string | undefined;
  readonly version: number | undefined;
  readonly versionType: WriteVersionType;
  readonly ifSeqNo: number | undefined;
  readonly ifPrimaryTerm: number | undefined;
  /** JSON text for index/create. */
  readonly source: string | undefined;
  readonly requireAlias: boolean;
}

export type WriteResult =
  | { readonly kind: 'success'; readonly op: WriteRequest['op']; readonly index: string; readonly result: 'created' | 'updated' | 'deleted' | 'not_found' | 'noop' }
  | { readonly kind: 'failure'; readonly op: WriteRequest['op']; readonly index: string; readonly id: string; readonly error: EsError };

export interface BulkOptions {
  readonly timeoutMillis: number;
  readonly waitForActiveShards: string | undefined;
}

export interface BulkByScrollClient {
  /** Runs the first scroll search and returns its first page. */
  startScroll(search: SourceSearch, keepAliveMillis: number, parent: Task): Promise<ScrollPage>;
  /** The next page of an open scroll, renewing its keep-alive. */
  nextScroll(scrollId: string, keepAliveMillis: number, parent: Task): Promise<ScrollPage>;
  /** Frees the scroll; never throws (a scroll that expired is fine). */
  clearScroll(scrollId: string): Promise<void>;
  /** Writes the items through the bulk path; results in the items' order. */
  bulk(items: readonly WriteRequest[], options: BulkOptions, parent: Task): Promise<WriteResult[]>;
  /** Refreshes the named indices. */
  refresh(indices: readonly string[], parent: Task): Promise<void>;
}
