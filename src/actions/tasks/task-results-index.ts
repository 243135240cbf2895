/**
 * The `.tasks` index as the task result store (ES's TaskResultsService and TASKS_DESCRIPTOR). The index is created
 * on the first store, as ES creates its system index: one shard, `auto_expand_replicas: 0-1`, the highest recovery
 * priority, hidden, and ES's strict mapping with its `_meta` version. A record is indexed under the task id
 * through the ordinary write path, so it is as durable as any document (translog fsync before the write returns,
 * replayed after a crash) and a realtime GET sees it at once; ES does not refresh after storing, nor does this.
 *
 * Storing retries only when the write was rejected for load or the shard was not available yet, with ES's
 * backoff (ten minutes in all); any other failure is the caller's to log. Nothing here throws into the node.
 */
import { readFileSync } from 'node:fs';
import { EsError, toEsError } from '../../common/errors.js';
import { writeFileAtomically } from '../../common/atomic-file.js';
import type { Logger } from 'pino';
import type { StoredTaskResult, TaskId, TaskResultStore } from '../../tasks/index.js';
import type { CreateIndexRequest } from '../../cluster/metadata/create-index.js';
import type { NodeServices } from '../context.js';
import type { ActionContext } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { executeWrites, readDocument } from '../documents/index.js';
import { FETCH_ALL } from '../documents/fetch-source.js';
import { decodeTaskResult, encodeTaskResult } from './task-result-document.js';

/** Where finished tasks' results are kept in ES. */
export const TASK_RESULTS_INDEX = '.tasks';

/** ES's TASK_RESULTS_INDEX_MAPPINGS_VERSION (`_meta.managed_index_mappings_version`). */
const TASK_RESULTS_MAPPINGS_VERSION = 0;

/** ES's TaskResultsService.getTaskResultIndexSettings, plus the `index.hidden` every system index gets. */
const TASK_RESULTS_SETTINGS = Object.freeze({
  'index.number_of_shards': '1',
  'index.auto_expand_replicas': '0-1',
  'index.priority': '2147483647',
  'index.hidden': 'true',
});

/** ES's TaskResultsService.getTaskResultIndexMappings: a strict mapping; status, headers, response, error are not indexed. */
export function taskResultsMapping(reportedVersion: string): Record<string, unknown> {
  const keyword = { type: 'keyword' };
  const long = { type: 'long' };
  const notIndexed = { type: 'object', enabled: false };
  return {
    _meta: { version: reportedVersion, managed_index_mappings_version: TASK_RESULTS_MAPPINGS_VERSION },
    dynamic: 'strict',
    properties: {
      completed: { type: 'boolean' },
      task: {
        properties: {
          action: keyword,
          cancellable: { type: 'boolean' },
          id: long,
          parent_task_id: keyword,
          node: keyword,
          running_time_in_nanos: long,
          start_time_in_millis: long,
          type: keyword,
          status: notIndexed,
          description: { type: 'text' },
          headers: notIndexed,
        },
      },
      response: notIndexed,
      error: notIndexed,
    },
  };
}

export function taskResultsIndexRequest(reportedVersion: string): CreateIndexRequest {
  return { index: TASK_RESULTS_INDEX, settings: { ...TASK_RESULTS_SETTINGS }, mappings: taskResultsMapping(reportedVersion) };
}

/**
 * ES's STORE_BACKOFF_POLICY, BackoffPolicy.exponentialBackoff(250ms, 14): the n-th wait is
 * 250 + 10 * (floor(e^(0.8 n)) - 1) milliseconds.
 */
export function storeBackoffMillis(): number[] {
  return Array.from({ length: 14 }, (_, n) => 250 + 10 * (Math.floor(Math.exp(0.8 * n)) - 1));
}

export interface TaskResultsIndexOptions {
  /** Waits between attempts; the default is ES's policy. */
  readonly backoffMillis?: readonly number[];
  /**
   * A file that keeps the highest id of this node's tasks ever stored, written (durably) before each record, so
   * the restarted node can start its task ids above it (see `readStoredTaskIdFloor`).
   */
  readonly idFloorPath?: string;
}

/** The id floor file's number, or 0 when there is none (no result was ever stored) or it is unreadable. */
export function readStoredTaskIdFloor(path: string): number {
  try {
    const value = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  } catch {
    return 0;
  }
}

export class TaskResultsIndex implements TaskResultStore {
  private readonly backoffMillis: readonly number[];
  private readonly logger: Logger;
  private readonly idFloorPath: string | undefined;
  private idFloor: number;

  constructor(
    private readonly services: NodeServices,
    options: TaskResultsIndexOptions = {},
  ) {
    this.backoffMillis = options.backoffMillis ?? storeBackoffMillis();
    this.logger = services.logger;
    this.idFloorPath = options.idFloorPath;
    this.idFloor = options.idFloorPath === undefined ? 0 : readStoredTaskIdFloor(options.idFloorPath);
  }

  async store(result: StoredTaskResult): Promise<void> {
    const id = result.task.taskId.toString();
    const source = encodeTaskResult(result);
    this.raiseIdFloor(result.task.taskId);
    for (let attempt = 0; ; attempt++) {
      try {
        await this.ensureIndex();
        await this.indexRecord(id, source);
        return;
      } catch (err) {
        const error = toEsError(err);
        const wait = this.backoffMillis[attempt];
        if (!isRetryable(error) || wait === undefined) throw error;
        this.logger.warn({ err: error, task: id }, `failed to store task result, retrying in [${wait}ms]`);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  async get(taskId: TaskId): Promise<StoredTaskResult | undefined> {
    const id = taskId.toString();
    // A realtime read, run as a get task the way ES's TransportGetTaskAction sends one through its client.
    const read = await this.services.taskManager.run({ action: 'indices:data/read/get', description: '' }, (task) =>
      readDocument(this.contextFor(task), TASK_RESULTS_INDEX, id, {
        routing: undefined,
        realtime: true,
        refresh: false,
        version: undefined,
        versionType: 'internal',
        fetchSource: FETCH_ALL,
      }),
    );
    if (!read.result.found) return undefined;
    return decodeTaskResult(read.result.source, id);
  }

  /** Records a local task id above the floor before its record can exist, so no later run reuses the id. */
  private raiseIdFloor(taskId: TaskId): void {
    if (this.idFloorPath === undefined || taskId.nodeId !== this.services.localNode.id || taskId.id <= this.idFloor) return;
    writeFileAtomically(this.idFloorPath, `${taskId.id}\n`);
    this.idFloor = taskId.id;
  }

  /** Creates `.tasks` with its settings and mapping unless it exists (a concurrent creation is fine). */
  private async ensureIndex(): Promise<void> {
    const { metadata } = indicesOf(this.services);
    if (metadata.state().indices.has(TASK_RESULTS_INDEX)) return;
    try {
      await metadata.createIndex(taskResultsIndexRequest(this.services.version.number), { cause: 'auto(task api)' });
    } catch (err) {
      if (toEsError(err).type !== 'resource_already_exists_exception') throw err;
    }
  }

  private async indexRecord(id: string, source: Uint8Array): Promise<void> {
    const [outcome] = await this.services.taskManager.run({ action: 'indices:data/write/index', description: '' }, (task) =>
      executeWrites(
        [
          {
            op: 'index',
            index: TASK_RESULTS_INDEX,
            id,
            routing: undefined,
            version: undefined,
            versionType: 'internal',
            ifSeqNo: undefined,
            ifPrimaryTerm: undefined,
            source,
            update: undefined,
            requireAlias: false,
          },
        ],
        { refresh: 'none', timeoutMillis: 60_000, waitForActiveShards: undefined },
        this.contextFor(task),
      ),
    );
    if (outcome === undefined) throw new EsError('illegal_state_exception', `no outcome for storing the result of task [${id}]`);
    if (outcome.kind === 'failure') throw outcome.error;
  }

  private contextFor(task: ActionContext['task']): ActionContext {
    return { task, services: this.services };
  }
}

/** What ES retries (EsRejectedExecutionException), and a shard that is not available yet. */
function isRetryable(error: EsError): boolean {
  return error.status === 429 || error.type === 'unavailable_shards_exception' || error.type === 'no_shard_available_action_exception';
}
