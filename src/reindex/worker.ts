/**
 * One bulk-by-scroll worker, as ES's AbstractAsyncBulkByScrollAction: scroll the source a page at a time,
 * turn the hits into writes (reindex: into the destination; update_by_query: back in place, guarded by the
 * hit's seq_no/primary_term; delete_by_query: deletes, guarded the same way), write each batch through the
 * bulk path, count the outcomes, wait as `requests_per_second` asks, and loop until the source is exhausted,
 * `max_docs` is reached or a failure stops it.
 *
 * The cancel guarantee: cancellation is checked after every scroll page, after the throttle wait, before every
 * bulk and after it; each search, scroll and bulk runs as a child task of the worker's task (the TaskManager
 * cancels and waits for them), and `run` only resolves once the last child has finished. A cancelled worker
 * ends with its partial counts and `canceled` set to the cancel's reason, and writes nothing more.
 */
import { reindexErrors, toEsError, type EsError } from '../common/errors.js';
import type { Task } from '../tasks/index.js';
import type { BulkByScrollClient, ScrollHit, ScrollPage, SearchFailure, WriteRequest, WriteResult } from './client.js';
import { MAX_DOCS_ALL_MATCHES, type BulkByScrollRequest } from './request.js';
import { emptyCounts, type BulkByScrollStatus } from './status.js';
import { SYSTEM_CLOCK, Throttle, type ThrottleClock } from './throttle.js';


/** A write that failed (ES's BulkItemResponse.Failure). */
export interface BulkFailure {
  readonly index: string;
  readonly id: string;
  readonly cause: EsError;
}

/** What a finished worker reports (ES's BulkByScrollResponse). */
export interface BulkByScrollResult {
  readonly tookMillis: number;
  readonly timedOut: boolean;
  readonly status: BulkByScrollStatus;
  readonly bulkFailures: readonly BulkFailure[];
  readonly searchFailures: readonly SearchFailure[];
}

export interface WorkerOptions {
  /** Set for a slice worker run by a leader. */
  readonly sliceId?: number;
  readonly clock?: ThrottleClock;
}

const NANOS_PER_MILLI = 1_000_000;

export class BulkByScrollWorker {
  private readonly counts = emptyCounts();
  private readonly throttle: Throttle;
  private readonly sliceId: number | undefined;
  private readonly destinationIndices = new Set<string>();
  private started = false;

  constructor(
    private readonly task: Task,
    private readonly request: BulkByScrollRequest,
    private readonly client: BulkByScrollClient,
    options: WorkerOptions = {},
  ) {
    this.throttle = new Throttle(request.requestsPerSecond, options.clock ?? SYSTEM_CLOCK);
    this.sliceId = options.sliceId;
  }

  /** The live status (ES's WorkerBulkByScrollTaskState.getStatus). */
  status(): BulkByScrollStatus {
    return {
      ...this.counts,
      sliceId: this.sliceId,
      throttledNanos: this.throttle.throttledNanos,
      requestsPerSecond: this.throttle.requestsPerSecond,
      reasonCancelled: this.task.cancellationReason,
      throttledUntilNanos: this.throttle.throttledUntilNanos,
      slices: [],
    };
  }

  /** Applies a new `requests_per_second` (Infinity: unthrottled) with ES's rules. */
  rethrottle(requestsPerSecond: number): void {
    this.throttle.rethrottle(requestsPerSecond);
  }

  private get successfullyProcessed(): number {
    return this.counts.created + this.counts.updated + this.counts.deleted;
  }

  async run(): Promise<BulkByScrollResult> {
    if (this.started) throw new Error('a bulk-by-scroll worker runs once');
    this.started = true;
    const startedNanos = process.hrtime.bigint();
    // ES's handleCancel: a rethrottle to unlimited, so a pending wait ends at once (the interrupted wait is not
    // counted as throttled time) and the final status reports requests_per_second -1, as ES and OpenSearch do.
    const onCancel = (): void => this.throttle.rethrottle(Number.POSITIVE_INFINITY);
    this.task.signal.addEventListener('abort', onCancel, { once: true });
    let scrollId: string | undefined;
    const finish = (bulkFailures: readonly BulkFailure[], searchFailures: readonly SearchFailure[], timedOut: boolean): BulkByScrollResult => ({
      tookMillis: Number((process.hrtime.bigint() - startedNanos) / BigInt(NANOS_PER_MILLI)),
      timedOut,
      status: this.status(),
      bulkFailures,
      searchFailures,
    });
    try {
      const outcome = await this.loop((id) => (scrollId = id));
      if (outcome.refresh && !this.task.isCancelled && this.request.refresh && this.destinationIndices.size > 0) {
        await this.client.refresh([...this.destinationIndices], this.task);
      }
      return finish(outcome.bulkFailures, outcome.searchFailures, outcome.timedOut);
    } catch (err) {
      // A cancel makes searches and bulks fail with task_cancelled: that is a cancelled run, not a failure.
      if (this.task.isCancelled) return finish([], [], false);
      throw err;
    } finally {
      this.task.signal.removeEventListener('abort', onCancel);
      if (scrollId !== undefined) await this.client.clearScroll(scrollId);
    }
  }

  private async loop(rememberScroll: (id: string | undefined) => void): Promise<{ bulkFailures: BulkFailure[]; searchFailures: readonly SearchFailure[]; timedOut: boolean; refresh: boolean }> {
    const request = this.request;
    const stop = { bulkFailures: [] as BulkFailure[], searchFailures: [] as readonly SearchFailure[], timedOut: false, refresh: false };
    let page: ScrollPage = await this.client.startScroll(this.sourceSearch(), request.scrollKeepAliveMillis, this.task);
    rememberScroll(page.scrollId);
    let lastBatchSize = 0;
    for (;;) {
      if (this.task.isCancelled) return stop;
      if (page.failures.length > 0 || page.timedOut) return { ...stop, searchFailures: page.failures, timedOut: page.timedOut, refresh: true };
      this.counts.total = request.maxDocs === MAX_DOCS_ALL_MATCHES ? page.totalHits : Math.min(page.totalHits, request.maxDocs);
      await this.throttle.delayAfter(lastBatchSize);
      if (this.task.isCancelled) return stop;
      if (page.hits.length === 0) return { ...stop, refresh: true };
      this.counts.batches++;
      let hits = page.hits;
      if (request.maxDocs !== MAX_DOCS_ALL_MATCHES) {
        const remaining = Math.max(0, request.maxDocs - this.successfullyProcessed);
        if (remaining < hits.length) hits = hits.slice(0, remaining);
      }
      const items = await this.buildWrites(hits);
      if (items.length > 0) {
        this.task.ensureNotCancelled();
        const results = await this.client.bulk(items, { timeoutMillis: request.timeoutMillis, waitForActiveShards: request.waitForActiveShards }, this.task);
        const failures = this.countResults(results);
        if (failures.length > 0) return { ...stop, bulkFailures: failures, refresh: true };
        if (this.task.isCancelled) return stop;
        if (request.maxDocs !== MAX_DOCS_ALL_MATCHES && this.successfullyProcessed >= request.maxDocs) return { ...stop, refresh: true };
      }
      lastBatchSize = items.length;
      if (page.scrollId === undefined) return { ...stop, refresh: true };
      // The keep-alive covers the wait before the next batch too (ES's extraKeepAlive).
      const keepAlive = request.scrollKeepAliveMillis + Math.ceil(this.throttle.waitNanosAfter(lastBatchSize) / NANOS_PER_MILLI);
      page = await this.client.nextScroll(page.scrollId, keepAlive, this.task);
      rememberScroll(page.scrollId);
    }
  }

  /** The source search with what a bulk-by-scroll needs: batch size, `_doc` order, versions, seq_nos, slice. */
  private sourceSearch(): BulkByScrollRequest['source'] {
    const request = this.request;
    const body: Record<string, unknown> = { ...request.source.body };
    // With conflicts=abort no hit beyond max_docs is ever needed, so the page need not be larger (ES does this).
    body['size'] = request.maxDocs !== MAX_DOCS_ALL_MATCHES && request.maxDocs <= request.batchSize && request.abortOnVersionConflict ? request.maxDocs : request.batchSize;
    if (body['sort'] === undefined && request.source.params['sort'] === undefined) body['sort'] = ['_doc'];
    body['version'] = true;
    body['seq_no_primary_term'] = true;
    if (request.slice !== undefined) body['slice'] = { id: request.slice.id, max: request.slice.max };
    return { ...request.source, body };
  }

  private async buildWrites(hits: readonly ScrollHit[]): Promise<WriteRequest[]> {
    const pairs: { write: WriteRequest; hit: ScrollHit }[] = [];
    for (const hit of hits) {
      const write = this.writeFor(hit);
      if (write !== undefined) pairs.push({ write, hit });
    }
    const script = this.request.script;
    if (script === undefined) return pairs.map((pair) => pair.write);
    // The script may change a write, turn it into a delete, or drop it (ctx.op = 'noop'); it runs over the whole
    // batch in a worker thread, and a script failure rejects the batch before anything of it is written, failing
    // the run (ES's finishHim).
    const scripted = await script(pairs, this.task);
    const out: WriteRequest[] = [];
    for (const write of scripted) {
      if (write === undefined) this.counts.noops++;
      else out.push(write);
    }
    return out;
  }

  private writeFor(hit: ScrollHit): WriteRequest | undefined {
    const conversion = this.request.conversion;
    switch (conversion.kind) {
      case 'reindex': {
        if (hit.source === undefined) throw reindexErrors.sourceNotStored(hit.index, hit.id);
        const routing = conversion.routing.kind === 'keep' ? hit.routing : conversion.routing.kind === 'discard' ? undefined : conversion.routing.value;
        return {
          op: conversion.opType,
          index: conversion.destIndex,
          id: hit.id,
          routing,
          version: conversion.versionType === 'internal' ? undefined : hit.version,
          versionType: conversion.versionType,
          ifSeqNo: undefined,
          ifPrimaryTerm: undefined,
          source: hit.source,
          requireAlias: conversion.requireAlias,
        };
      }
      case 'update_by_query':
        if (hit.source === undefined) throw reindexErrors.sourceNotStored(hit.index, hit.id);
        return { op: 'index', index: hit.index, id: hit.id, routing: hit.routing, version: undefined, versionType: 'internal', ifSeqNo: hit.seqNo, ifPrimaryTerm: hit.primaryTerm, source: hit.source, requireAlias: false };
      case 'delete_by_query':
        return { op: 'delete', index: hit.index, id: hit.id, routing: hit.routing, version: undefined, versionType: 'internal', ifSeqNo: hit.seqNo, ifPrimaryTerm: hit.primaryTerm, source: undefined, requireAlias: false };
    }
  }

  /** ES's onBulkResponse: count each item; conflicts are counted, and fail the run only with conflicts=abort. */
  private countResults(results: readonly WriteResult[]): BulkFailure[] {
    const failures: BulkFailure[] = [];
    for (const result of results) {
      if (result.kind === 'failure') {
        const cause = toEsError(result.error);
        // Items the cancel stopped are not failures of the run: it ends as cancelled.
        if (cause.type === 'task_cancelled_exception' && this.task.isCancelled) continue;
        if (cause.status === 409) {
          this.counts.versionConflicts++;
          if (!this.request.abortOnVersionConflict) continue;
        }
        failures.push({ index: result.index, id: result.id, cause });
        continue;
      }
      if (result.op === 'delete') this.counts.deleted++;
      else if (result.result === 'created') this.counts.created++;
      else this.counts.updated++;
      this.destinationIndices.add(result.index);
    }
    return failures;
  }
}
