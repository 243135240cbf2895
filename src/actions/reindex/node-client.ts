/**
 * The bulk-by-scroll port (src/reindex/client.ts) on this node's own search, scroll and write code. Each
 * search, scroll page and bulk runs as a registered, cancellable child task of the worker's task
 * (`indices:data/read/search`, `indices:data/read/scroll`, `indices:data/write/bulk`), so cancelling the worker
 * bans and cancels them, and the TaskManager's cancel waits for them to finish.
 */
import { ownValue } from '../../common/own-keys.js';
import { ERROR_STATUS, EsError, type EsErrorType } from '../../common/errors.js';
import { RawJson } from '../../common/raw-json.js';
import type { BulkByScrollClient, BulkOptions, ScrollHit, ScrollPage, SearchFailure, SourceSearch, WriteRequest, WriteResult } from '../../reindex/index.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import type { DocWriteItem } from '../documents/doc-write.js';
import { executeWrites } from '../documents/write-executor.js';
import { REFRESH_ACTION } from '../indices/broadcast-actions.js';
import { refreshThroughPrimaries } from '../indices/replicated-refresh.js';
import type { ActionContext } from '../rest.js';
import { parseScrollId } from '../search/context-ids.js';
import { freeContexts } from '../search/free-contexts.js';
import { runScroll, SCROLL_ACTION } from '../search/scroll-action.js';
import { runSearch } from '../search/search-action.js';
import { SEARCH_ACTION } from '../search/search-executor.js';
import { readSearchInput } from '../search/search-input.js';

export const BULK_ACTION = 'indices:data/write/bulk';

type Json = Record<string, unknown>;

function asObject(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** An error object of a search response body back into an EsError (its type, reason, metadata and cause). */
function errorFromJson(value: unknown): EsError {
  const { type, reason, caused_by: causedBy, ...metadata } = asObject(value);
  const typeName = typeof type === 'string' ? type : 'exception';
  const status = ownValue(ERROR_STATUS as Record<string, number>, typeName) ?? 500;
  return new EsError(typeName as EsErrorType, typeof reason === 'string' ? reason : '', {
    metadata,
    status,
    ...(causedBy !== undefined && { causedBy: errorFromJson(causedBy) }),
  });
}

function sourceText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof RawJson) return value.text;
  return JSON.stringify(value);
}

/** A search (or scroll) response body as the worker reads it. */
function pageOf(body: Json): ScrollPage {
  const hitsBlock = asObject(body['hits']);
  const total = hitsBlock['total'];
  const totalHits = typeof total === 'number' ? total : Number(asObject(total)['value'] ?? 0);
  const rawHits = Array.isArray(hitsBlock['hits']) ? (hitsBlock['hits'] as unknown[]) : [];
  const hits: ScrollHit[] = rawHits.map((raw) => {
    const hit = asObject(raw);
    return {
      index: String(hit['_index']),
      id: String(hit['_id']),
      version: typeof hit['_version'] === 'number' ? hit['_version'] : undefined,
      seqNo: typeof hit['_seq_no'] === 'number' ? hit['_seq_no'] : undefined,
      primaryTerm: typeof hit['_primary_term'] === 'number' ? hit['_primary_term'] : undefined,
      routing: typeof hit['_routing'] === 'string' ? hit['_routing'] : undefined,
      source: sourceText(hit['_source']),
    };
  });
  const shards = asObject(body['_shards']);
  const failures: SearchFailure[] = (Array.isArray(shards['failures']) ? (shards['failures'] as unknown[]) : []).map((raw) => {
    const failure = asObject(raw);
    return {
      index: typeof failure['index'] === 'string' ? failure['index'] : undefined,
      shard: typeof failure['shard'] === 'number' ? failure['shard'] : undefined,
      nodeId: typeof failure['node'] === 'string' ? failure['node'] : undefined,
      reason: errorFromJson(failure['reason']),
    };
  });
  const scrollId = typeof body['_scroll_id'] === 'string' ? body['_scroll_id'] : undefined;
  return { hits, totalHits, scrollId, failures, timedOut: body['timed_out'] === true };
}

function docWriteItem(request: WriteRequest): DocWriteItem {
  return {
    op: request.op,
    index: request.index,
    id: request.id,
    routing: request.routing,
    version: request.version,
    versionType: request.versionType,
    ifSeqNo: request.ifSeqNo,
    ifPrimaryTerm: request.ifPrimaryTerm,
    source: request.source === undefined ? undefined : Buffer.from(request.source, 'utf8'),
    update: undefined,
    requireAlias: request.requireAlias,
  };
}

export class NodeBulkByScrollClient implements BulkByScrollClient {
  constructor(private readonly services: NodeServices) {}

  /** Runs `work` as a cancellable child task of `parent`, with a context handlers understand. */
  private child<T>(parent: Task, action: string, work: (context: ActionContext) => Promise<T>): Promise<T> {
    return this.services.taskManager.run({ type: 'transport', action, parentTaskId: parent.taskId, cancellable: true, headers: parent.headers }, (task) =>
      work({ task, services: this.services }),
    );
  }

  async startScroll(search: SourceSearch, keepAliveMillis: number, parent: Task): Promise<ScrollPage> {
    const params: Record<string, string> = { ...search.params, scroll: `${keepAliveMillis}ms` };
    const input = readSearchInput({ param: (name) => ownValue(params, name), body: Buffer.from(JSON.stringify(search.body), 'utf8'), indices: search.indices });
    const answer = await this.child(parent, SEARCH_ACTION, (context) => {
      context.task.description = `indices[${search.indices.join(',')}], search_type[QUERY_THEN_FETCH], scroll[${keepAliveMillis}ms], source[${JSON.stringify(search.body)}]`;
      return runSearch(input, context);
    });
    return pageOf(answer.body);
  }

  async nextScroll(scrollId: string, keepAliveMillis: number, parent: Task): Promise<ScrollPage> {
    const answer = await this.child(parent, SCROLL_ACTION, (context) => runScroll(scrollId, keepAliveMillis, false, context));
    return pageOf(answer.body);
  }

  async clearScroll(scrollId: string): Promise<void> {
    try {
      await freeContexts(this.services, parseScrollId(scrollId), 'scroll', undefined);
    } catch (err) {
      this.services.logger.debug({ err }, 'clearing a reindex scroll failed');
    }
  }

  async bulk(items: readonly WriteRequest[], options: BulkOptions, parent: Task): Promise<WriteResult[]> {
    const docItems = items.map(docWriteItem);
    const outcomes = await this.child(parent, BULK_ACTION, (context) => {
      context.task.description = `requests[${items.length}], indices[${[...new Set(items.map((item) => item.index))].join(', ')}]`;
      return executeWrites(docItems, { refresh: 'none', timeoutMillis: options.timeoutMillis, waitForActiveShards: options.waitForActiveShards }, context);
    });
    return outcomes.map((outcome, position): WriteResult => {
      const item = items[position]!;
      if (outcome.kind === 'success') return { kind: 'success', op: item.op, index: outcome.index, result: outcome.result };
      return { kind: 'failure', op: item.op, index: outcome.index ?? item.index, id: outcome.id ?? item.id ?? '', error: outcome.error };
    });
  }

  /**
   * `refresh=true`: the destinations refreshed as `_refresh` does, through each shard's primary to every copy it
   * writes to, so a replica still recovering when the writes reached it shows them once it is started.
   */
  async refresh(indices: readonly string[], parent: Task): Promise<void> {
    await this.child(parent, REFRESH_ACTION, (context) => {
      const state = this.services.clusterService.state();
      return refreshThroughPrimaries(context, state, indices.filter((index) => state.indices.has(index)));
    });
  }

}
