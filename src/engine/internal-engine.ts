/**
 * The engine of one shard (Elasticsearch's InternalEngine). CONTRACT, beyond engine.ts:
 *
 * Write path. index/delete run their whole decision synchronously — resolve the id's current version
 * (version map, else segments), check it, invert the document into the indexing buffer, take the next
 * seqNo, record the version, append to the translog — and only then await the translog fsync (group
 * commit). Nothing can interleave inside that step, so operations on one id apply in call order and the
 * seqNo order is the apply order. A version conflict or a document that fails to index takes no seqNo.
 *
 * Refresh. The buffer is swapped for an empty one (its version-map entries move to `old`), written as a
 * segment by the flush worker, and installed together with the deletes it implies for older segments
 * (ids it touched) in one synchronous step under the state lock; then a Searcher is published. A buffer
 * that outgrows `indexingBufferBytes` is written the same way without publishing (Lucene's flush
 * without a reader reopen): documents become visible to search only on refresh. Write steps wait while the
 * copy's indexing worker is more than MAX_INVERSION_LAG_MS behind the documents sent to it, so a refresh under a
 * bulk waits for little more than the write of its own buffer (decision 0032).
 *
 * Flush. A refresh-like swap that also rolls the translog generation in the same synchronous step, so
 * every operation in older generations is in the segments about to be committed. The segment files and
 * live docs are fsynced, a commit point records the segments plus translog UUID/generation, local
 * checkpoint and max seqNo, and only then are older translog generations trimmed.
 *
 * Failure. An I/O error on the translog or in writing a buffer fails the engine (as ES fails the shard):
 * every later call throws already_closed_exception caused by it; reopening recovers from the last commit
 * plus the translog, which holds every acknowledged operation.
 */
import { EsError, errors, indexErrors, toEsError, type ShardLabel } from '../common/errors.js';
import { nextTurn } from '../common/loop-turns.js';
import type { ParsedDocument } from '../mapping/index.js';
import { ID_FIELD, IGNORED_FIELD, PRIMARY_TERM_FIELD, ROUTING_FIELD, SEQ_NO_FIELD, SOURCE_FIELD, VERSION_FIELD } from './searcher.js';
import { NO_MORE_DOCS, POSTINGS_DOCS, type LiveDocs, type SegmentReaders, type StoredValue } from './codec/index.js';
import type { IdFilter } from './segments/id-filter.js';
import type {
  DeleteOperation,
  Engine,
  EngineConfig,
  EngineStats,
  GetOptions,
  GetResult,
  IndexOperation,
  WriteResult,
  BatchDurability,
  BufferWriteTimings,
  ReplicatedEngineOperation,
} from './engine.js';
import {
  newFlushCounters,
  newIndexingCounters,
  newMergeCounters,
  newRefreshCounters,
  type IndexingCounters,
  type MergeStatsCounters,
} from './engine-stats.js';
import { storedValue, type AnalyzerLookup, type BufferSink } from './indexing/indexing-buffer.js';
import { MergeScheduler } from './merge/merge-scheduler.js';
import { DEFAULT_MERGE_POLICY, TieredMergePolicy } from './merge/tiered-merge-policy.js';
import type { Searcher } from './searcher.js';
import type { LoadedSegment } from './segments/loaded-segment.js';
import type { SegmentJobs } from './segments/segment-jobs.js';
import type { ShardSegments } from './segments/shard-segments.js';
import type { Translog, TranslogLocation, TranslogOperation } from './translog/index.js';
import type { CommitSnapshot } from './segments/shard-segments.js';
import { AsyncMutex } from './util/async-mutex.js';
import { AdmissionBarrier, WriteAdmission } from './util/write-admission.js';
import { DEFAULT_GC_DELETES_MILLIS, LiveVersionMap } from './versions/live-version-map.js';
import { LocalCheckpointTracker } from './versions/local-checkpoint-tracker.js';
import type { VersionValue } from './versions/version-value.js';
import { MATCH_ANY, MATCH_DELETED, planWrite, type CurrentState } from './versions/version-rules.js';

/** Longest stretch of synchronous indexing before writers yield to the event loop. */
const WRITE_SLICE_MS = 5;

/** ES's default `index.translog.flush_threshold_size`. */
const DEFAULT_FLUSH_THRESHOLD_BYTES = 512 * 1024 * 1024;

/**
 * How long documents may wait in the copy's indexing worker to be inverted before writes wait for it (decision
 * 0032): what a refresh waits for before it can write its buffer, so it bounds the visibility lag under a bulk.
 */
const MAX_INVERSION_LAG_MS = 500;

/** ES's `index.max_refresh_listeners`: past this many waiters a refresh is forced. */
const MAX_REFRESH_LISTENERS = 1000;

/** A version-map entry of an operation still in the current buffer: which buffered doc it is. */
interface BufferedVersion extends VersionValue {
  readonly bufferGeneration?: number;
  readonly bufferDoc?: number;
  /**
   * False when no segment older than this entry's buffer can hold a live document of its id: the write found none
   * (nor any entry in the version map), so installing the buffer has nothing of it to delete there (ES adds such a
   * document without a delete term: `useLuceneUpdateDocument` is false when the current one was not found).
   */
  readonly mayBeInSegments?: boolean;
}

/** Where a swap of the indexing buffer cut the operation history. */
interface BufferCut {
  readonly processedCheckpoint: number;
  readonly maxSeqNo: number;
  readonly translogGeneration: number;
}

export interface EngineParts {
  readonly config: EngineConfig;
  readonly translog: Translog;
  readonly segments: ShardSegments;
  readonly jobs: SegmentJobs;
  readonly tracker: LocalCheckpointTracker;
  readonly historyUUID: string;
  readonly maxUnsafeAutoIdTimestamp: number;
  /** The global checkpoint to start from; default: the one the translog last persisted. */
  readonly globalCheckpoint?: number;
}

export class InternalEngine implements Engine {
  private readonly config: EngineConfig;
  private readonly shard: ShardLabel;
  private readonly translog: Translog;
  private readonly segments: ShardSegments;
  private readonly jobs: SegmentJobs;
  private readonly tracker: LocalCheckpointTracker;
  private readonly versionMap = new LiveVersionMap();
  private readonly stateLock = new AsyncMutex();
  private readonly merges: MergeScheduler;
  readonly historyUUID: string;
  private maxUnsafeAutoIdTimestamp: number;
  /** The global checkpoint as this copy knows it (the primary computes it; replicas are told). */
  private knownGlobalCheckpoint: number;
  /** Operations from this seqNo on stay in the translog for peer recovery (Infinity: keep only what the commit needs). */
  private retainFromSeqNo = Infinity;
  /**
   * ES's max_seq_no_of_updates_or_deletes (MSU): no operation above it overwrote or deleted a document. A primary
   * advances it with each update and delete it sequences; another copy takes its primary's with every request
   * (advanceMaxSeqNoOfUpdatesOrDeletes). Not persisted: it starts at the highest seqNo this copy holds (every
   * operation it has may be an update) and a promotion raises it to the highest seqNo again (ES does both). While it
   * is at or below the processed local checkpoint, an operation this copy has not processed adds a document whose id
   * cannot be in this copy (append-only, canAppendAsNonPrimary).
   */
  private maxUpdateOrDeleteSeqNo: number;

  private buffer: BufferSink;
  private bufferGeneration = 0;
  /** A background write of a full buffer, when one is under way. */
  private pendingBufferWrite: Promise<void> | null = null;
  /** While writes wait for the indexing worker to catch up: resolves when it did (throttleWhileInversionLags). */
  private inversionCatchUp: Promise<void> | null = null;
  /** Orders and slices the synchronous write steps; throttles them while buffers are being written. */
  private readonly admission: WriteAdmission;

  /** The refresh that makes the version map safe for lookups, while one is under way. */
  private safeAccessRefresh: Promise<void> | null = null;

  /** SeqNos of batches applied with durability 'defer', persisted by the next waiting batch's sync. */
  private readonly deferredSeqNos: number[] = [];

  private readonly refreshListeners: { seqNo: number; resolve: () => void; reject: (err: Error) => void }[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  private periodicFlush: Promise<void> | null = null;
  private failure: EsError | null = null;
  private closed = false;
  private closing: Promise<void> | null = null;

  private readonly indexing: IndexingCounters = newIndexingCounters();
  private readonly refreshStats = newRefreshCounters();
  private readonly flushStats = newFlushCounters();
  private readonly mergeStats: MergeStatsCounters = newMergeCounters();

  constructor(parts: EngineParts) {
    this.config = parts.config;
    this.shard = parts.config.shardLabel;
    this.translog = parts.translog;
    this.segments = parts.segments;
    this.jobs = parts.jobs;
    this.tracker = parts.tracker;
    this.historyUUID = parts.historyUUID;
    this.knownGlobalCheckpoint = parts.globalCheckpoint ?? this.translog.lastSyncedGlobalCheckpoint;
    this.maxUnsafeAutoIdTimestamp = parts.maxUnsafeAutoIdTimestamp;
    this.maxUpdateOrDeleteSeqNo = this.tracker.maxSeqNo;
    this.admission = new WriteAdmission(WRITE_SLICE_MS, () => this.ensureOpen());
    this.buffer = this.jobs.newBuffer();
    const policy = new TieredMergePolicy({ ...DEFAULT_MERGE_POLICY, ...parts.config.mergePolicy });
    this.merges = new MergeScheduler(this.segments, this.jobs, this.stateLock, policy, this.mergeStats, (prefix) => this.deleteSegmentFiles(prefix), parts.config.onMergeFinished);
    this.segments.publish(this.tracker.processedCheckpoint);
  }

  /** Starts the scheduled refresh, once recovery is done. */
  start(): void {
    const interval = this.config.refreshIntervalMillis ?? 0;
    if (interval > 0) {
      this.refreshTimer = setInterval(() => {
        if (!this.closed && this.failure === null) this.refreshInternal('scheduled', true).catch(() => undefined);
      }, interval);
      this.refreshTimer.unref();
    }
    this.merges.maybeMerge();
  }

  // ---------------------------------------------------------------- writes

  private ensureOpen(): void {
    if (this.failure !== null) throw indexErrors.engineClosed(this.shard, this.failure);
    if (this.closed) throw indexErrors.engineClosed(this.shard);
  }

  /**
   * The current state of `id` for versioning: the version map first, else the segments. `entry` is the version
   * map's entry when the caller has just read it (a write step reads it for the buffer anyway: one map lookup
   * per operation instead of two, which was ~3% of a replica's event loop in a bulk).
   */
  private resolveCurrent(id: string, entry: VersionValue | undefined = this.versionMap.get(id)): CurrentState | null {
    if (entry !== undefined) return entry;
    const found = this.segments.lookupId(id);
    if (found === null) return null;
    return { ...found.segment.docVersion(found.doc), deleted: false };
  }

  async index(operation: IndexOperation): Promise<WriteResult> {
    this.ensureOpen();
    const started = performance.now();
    this.indexing.indexCurrent++;
    try {
      const { result, location } = await this.admission.submit(() => this.applyIndex(operation));
      if (location !== null) await this.awaitDurable(location, result.seqNo);
      this.indexing.indexTotal++;
      return result;
    } catch (err) {
      this.indexing.indexFailed++;
      throw err;
    } finally {
      this.indexing.indexCurrent--;
      this.indexing.indexTimeMillis += performance.now() - started;
    }
  }

  /**
   * Index operations of one request, applied in order exactly as index() would apply them one by one, but
   * sharing one admission entry and one durability wait: the bulk path, where per-operation promises were a
   * large share of the request thread's time. Each operation's result or error comes back at its position;
   * a failure of the durability wait (the engine fails) rejects the whole call, as it would fail every index().
   * The array is consumed: each entry is cleared once applied. With `defer` the call resolves once applied,
   * without waiting for the translog: the caller must not acknowledge these operations before a later batch
   * with `wait` (possibly empty) resolved, whose sync covers every operation appended before it.
   */
  async indexBatch(operations: Array<IndexOperation | undefined>, durability: BatchDurability = 'wait'): Promise<Array<WriteResult | EsError>> {
    this.ensureOpen();
    const started = performance.now();
    const results: Array<WriteResult | EsError> = new Array(operations.length);
    const seqNos: number[] = [];
    this.indexing.indexCurrent += operations.length;
    try {
      await this.admission.submitBatch(operations.length, (i) => {
        const operation = operations[i]!;
        try {
          this.ensureOpen();
          // Consumed: the parsed document can be collected now, not when the whole batch is durable.
          operations[i] = undefined;
          const { result, location } = this.applyIndex(operation);
          results[i] = result;
          if (location !== null) seqNos.push(result.seqNo);
        } catch (err) {
          if (err instanceof AdmissionBarrier) {
            // Runs again once the version map is safe: it must find its operation then.
            operations[i] = operation;
            throw err;
          }
          this.indexing.indexFailed++;
          results[i] = toEsError(err);
        }
      });
      this.indexing.indexTotal += seqNos.length;
      if (this.translog.durability !== 'request') {
        for (const seqNo of seqNos) this.tracker.markPersisted(seqNo);
        return results;
      }
      if (durability === 'defer') {
        for (const seqNo of seqNos) this.deferredSeqNos.push(seqNo);
        return results;
      }
      // Everything appended so far, deferred batches of any request included, becomes durable in this sync;
      // the deferred seqNos taken here were all appended before it started.
      const covered = this.deferredSeqNos.length === 0 ? seqNos : seqNos.concat(this.deferredSeqNos.splice(0));
      if (this.translog.syncNeeded()) {
        try {
          await this.translog.sync();
        } catch (err) {
          throw this.fail(toEsError(err));
        }
      }
      for (const seqNo of covered) this.tracker.markPersisted(seqNo);
      return results;
    } catch (err) {
      this.indexing.indexFailed += operations.length;
      throw err;
    } finally {
      this.indexing.indexCurrent -= operations.length;
      this.indexing.indexTimeMillis += performance.now() - started;
    }
  }

  /**
   * The synchronous part of an index operation (see the contract at the top). `senderMsuKnown`: the operation comes
   * through applyReplicated, which raised this copy's MSU to its sender's first; only then may it be appended
   * without a lookup (index() of a non-primary operation, and a translog replay, always look up).
   */
  private applyIndex(operation: IndexOperation, fromTranslog = false, senderMsuKnown = false): { result: WriteResult; location: TranslogLocation | null } {
    const { id, document } = operation;
    let version: number;
    let seqNo: number;
    let created: boolean;
    if (operation.origin === 'primary' && this.canAppendOnly(operation)) {
      // ES's optimizedAppendOnly: a new generated id cannot exist, so no lookup, version 1, and no version-map
      // entry unless lookups asked for safe access.
      version = 1;
      created = true;
      const doc = this.buffer.addDocument(id, document);
      seqNo = this.tracker.generateSeqNo();
      if (this.versionMap.isSafeAccessRequired) {
        // A new generated id is in no segment (the very assumption that skips its lookup).
        this.finishBufferedIndex(id, doc, seqNo, operation.primaryTerm, version, document, this.versionMap.get(id) as BufferedVersion | undefined, false);
      } else {
        this.buffer.setMeta(doc, seqNo, operation.primaryTerm, version);
        this.versionMap.skipAppendOnly(id);
      }
    } else if (operation.origin === 'primary') {
      this.prepareLookup();
      const previous = this.versionMap.get(id) as BufferedVersion | undefined;
      const current = this.resolveCurrent(id, previous);
      const plan = planWrite(
        {
          versionType: operation.versionType,
          expectedVersion: operation.opType === 'create' ? MATCH_DELETED : operation.versionType === 'internal' ? MATCH_ANY : (operation.version ?? MATCH_ANY),
          ifSeqNo: operation.ifSeqNo,
          ifPrimaryTerm: operation.ifPrimaryTerm,
        },
        current,
      );
      if (plan.kind === 'conflict') throw indexErrors.versionConflict(id, plan.explanation, this.shard);
      // A generated id that may exist (a retry) is checked, but its version stays 1 (ES: canOptimizeAddDocument ? 1).
      const generatedId = operation.autoGeneratedIdTimestamp !== undefined && operation.versionType === 'internal' && operation.ifSeqNo === undefined;
      version = generatedId ? 1 : plan.version;
      created = plan.currentNotFoundOrDeleted;
      const doc = this.buffer.addDocument(id, document);
      seqNo = this.tracker.generateSeqNo();
      // An index that overwrites a live document is an update: the other copies must look its id up (ES's
      // advanceMaxSeqNoOfUpdatesOnPrimary; an index of an id not found, or deleted, is an append).
      if (!created) this.advanceMaxSeqNoOfUpdatesOrDeletes(seqNo);
      this.finishBufferedIndex(id, doc, seqNo, operation.primaryTerm, version, document, previous, current !== null);
    } else if (senderMsuKnown && !fromTranslog && this.canAppendAsNonPrimary(requireSeqNo(operation.seqNo))) {
      // ES's planIndexingAsNonPrimary optimizedAppendOnly: every update and delete up to this copy's MSU is
      // processed here and this operation is not (see maxUpdateOrDeleteSeqNo), so its id has no live document
      // in this copy: no version-map read, no segment lookup, and no version-map entry unless lookups need safe
      // access (a realtime get or a lookup first refreshes, as after a primary's append-only write).
      seqNo = operation.seqNo!;
      version = operation.version ?? 1;
      created = true;
      const doc = this.buffer.addDocument(id, document);
      if (this.versionMap.isSafeAccessRequired) {
        // No live document of the id in this copy (the very assumption that skips its lookup): none in a segment.
        this.finishBufferedIndex(id, doc, seqNo, operation.primaryTerm, version, document, this.versionMap.get(id) as BufferedVersion | undefined, false);
      } else {
        this.buffer.setMeta(doc, seqNo, operation.primaryTerm, version);
        this.versionMap.skipAppendOnly(id);
      }
    } else {
      this.prepareLookup();
      const previous = this.versionMap.get(id) as BufferedVersion | undefined;
      seqNo = requireSeqNo(operation.seqNo);
      version = operation.version ?? 1;
      // ES's hasBeenProcessedBefore: an operation this copy already applied (a re-delivery: live replication and
      // recovery overlap) is not looked up. The lookup could find nothing where its document's later delete left a
      // tombstone that was since pruned (pruning keeps tombstones only above the local checkpoint), and the
      // re-delivered index would bring the deleted document back.
      const current = this.tracker.hasProcessed(seqNo) ? undefined : this.resolveCurrent(id, previous);
      created = current === undefined || current === null || current.deleted;
      if (current === undefined || (current !== null && current.seqNo >= seqNo)) {
        // Already applied, or stale (superseded here): record its seqNo, change nothing.
        return this.finishStale(seqNo, operation.primaryTerm, fromTranslog, { result: created ? 'created' : 'updated', version }, {
          type: 'index',
          id,
          seqNo,
          primaryTerm: operation.primaryTerm,
          version,
          source: document.source,
          routing: document.routing,
        });
      }
      const doc = this.buffer.addDocument(id, document);
      this.finishBufferedIndex(id, doc, seqNo, operation.primaryTerm, version, document, previous, current !== null);
    }
    let location: TranslogLocation | null = null;
    if (!fromTranslog) {
      location = this.appendToTranslog({
        type: 'index',
        id,
        seqNo,
        primaryTerm: operation.primaryTerm,
        version,
        source: document.source,
        routing: document.routing,
      });
    }
    this.tracker.markProcessed(seqNo);
    if (fromTranslog) this.tracker.markPersisted(seqNo);
    this.afterBufferChange();
    return { result: { result: created ? 'created' : 'updated', version, seqNo, primaryTerm: operation.primaryTerm }, location };
  }

  /**
   * Whether an operation of another copy's history may be added without looking its id up (ES's
   * planIndexingAsNonPrimary): not processed here before, and every update or delete at or below this copy's MSU
   * is (MSU <= processed local checkpoint < seqNo). A replayed translog never takes this path: its copy's MSU is
   * not known until the replay is done.
   */
  private canAppendAsNonPrimary(seqNo: number): boolean {
    return this.maxUpdateOrDeleteSeqNo <= this.tracker.processedCheckpoint && !this.tracker.hasProcessed(seqNo);
  }

  /**
   * ES's canOptimizeAddDocument && !mayHaveBeenIndexedBefore: an id Gannet generated, internally versioned,
   * not a retry, and not older than a retry seen before (whose first attempt may be indexed already).
   */
  private canAppendOnly(operation: IndexOperation): boolean {
    const autoId = operation.autoGeneratedIdTimestamp;
    if (autoId === undefined || operation.versionType !== 'internal' || operation.ifSeqNo !== undefined) return false;
    if (operation.isRetry === true) {
      this.maxUnsafeAutoIdTimestamp = Math.max(this.maxUnsafeAutoIdTimestamp, autoId);
      return false;
    }
    return autoId > this.maxUnsafeAutoIdTimestamp;
  }

  /**
   * Before an id is looked up in a write step: lookups need safe access from now on, and when operations were
   * left out of the version map (append-only) the step waits, at the head of the admission queue, for the
   * refresh that puts them in segments (ES's enforceSafeAccess and the unsafe_version_map refresh).
   */
  private prepareLookup(): void {
    this.versionMap.enforceSafeAccess();
    if (this.versionMap.isUnsafe) throw new AdmissionBarrier(this.makeVersionMapSafe());
  }

  /** Refreshes (without publishing) so that documents left out of the version map are found in segments. */
  private makeVersionMapSafe(): Promise<void> {
    if (this.safeAccessRefresh !== null) return this.safeAccessRefresh;
    this.versionMap.enforceSafeAccess();
    const refresh = this.refreshInternal('unsafe_version_map', false).then(() => undefined);
    this.safeAccessRefresh = refresh;
    const clear = (): void => {
      if (this.safeAccessRefresh === refresh) this.safeAccessRefresh = null;
    };
    refresh.then(clear, clear);
    return refresh;
  }

  private finishBufferedIndex(
    id: string,
    doc: number,
    seqNo: number,
    primaryTerm: number,
    version: number,
    document: ParsedDocument,
    previous: BufferedVersion | undefined,
    /** The write looked `id` up (version map, else segments) and found something; false also when it needs no lookup. */
    found: boolean,
  ): void {
    this.buffer.setMeta(doc, seqNo, primaryTerm, version);
    const inThisBuffer = previous?.bufferGeneration === this.bufferGeneration;
    if (inThisBuffer && previous!.bufferDoc !== undefined) this.buffer.markDeleted(previous!.bufferDoc);
    // Nothing found: no segment holds the id now, and none can before this buffer is installed (a live document
    // reaches the segments only through a buffer, whose ids are all in the version map while lookups happen). An
    // earlier operation of this buffer passes on what it knew; anything else (the buffer being written, a delete, a
    // tombstone) may leave a live document in a segment by then.
    const mayBeInSegments = previous === undefined ? found : !inThisBuffer || previous.deleted || previous.mayBeInSegments !== false;
    const entry: BufferedVersion = {
      version,
      seqNo,
      primaryTerm,
      deleted: false,
      source: document.storedSource,
      routing: document.routing,
      ignored: document.ignored,
      bufferGeneration: this.bufferGeneration,
      bufferDoc: doc,
      mayBeInSegments,
    };
    this.versionMap.putIndex(id, entry);
  }

  private finishStale(
    seqNo: number,
    primaryTerm: number,
    fromTranslog: boolean,
    outcome: { result: WriteResult['result']; version: number },
    translogOp: TranslogOperation,
  ): { result: WriteResult; location: TranslogLocation | null } {
    const location = fromTranslog ? null : this.appendToTranslog(translogOp);
    this.tracker.markProcessed(seqNo);
    if (fromTranslog) this.tracker.markPersisted(seqNo);
    return { result: { result: outcome.result, version: outcome.version, seqNo, primaryTerm }, location };
  }

  async delete(operation: DeleteOperation): Promise<WriteResult> {
    this.ensureOpen();
    const started = performance.now();
    this.indexing.deleteCurrent++;
    try {
      const { result, location } = await this.admission.submit(() => this.applyDelete(operation));
      if (location !== null) await this.awaitDurable(location, result.seqNo);
      this.indexing.deleteTotal++;
      return result;
    } finally {
      this.indexing.deleteCurrent--;
      this.indexing.deleteTimeMillis += performance.now() - started;
    }
  }

  private applyDelete(operation: DeleteOperation, fromTranslog = false): { result: WriteResult; location: TranslogLocation | null } {
    const { id } = operation;
    this.prepareLookup();
    const previous = this.versionMap.get(id) as BufferedVersion | undefined;
    let version: number;
    let seqNo: number;
    let found: boolean;
    if (operation.origin === 'primary') {
      const current = this.resolveCurrent(id, previous);
      const plan = planWrite(
        {
          versionType: operation.versionType,
          expectedVersion: operation.versionType === 'internal' ? MATCH_ANY : (operation.version ?? MATCH_ANY),
          ifSeqNo: operation.ifSeqNo,
          ifPrimaryTerm: operation.ifPrimaryTerm,
        },
        current,
      );
      if (plan.kind === 'conflict') throw indexErrors.versionConflict(id, plan.explanation, this.shard);
      version = plan.version;
      found = !plan.currentNotFoundOrDeleted;
      seqNo = this.tracker.generateSeqNo();
      this.advanceMaxSeqNoOfUpdatesOrDeletes(seqNo);
    } else {
      seqNo = requireSeqNo(operation.seqNo);
      version = operation.version ?? 1;
      // The primary's MSU already covers this delete; raised here too, so no later operation is appended past a
      // delete this copy knows of, whatever a request said.
      this.advanceMaxSeqNoOfUpdatesOrDeletes(seqNo);
      const current = this.tracker.hasProcessed(seqNo) ? undefined : this.resolveCurrent(id, previous);
      found = current !== undefined && current !== null && !current.deleted;
      // Already applied here (ES's hasBeenProcessedBefore, see applyIndex) or superseded: translog only.
      if (current === undefined || (current !== null && current.seqNo >= seqNo)) {
        return this.finishStale(seqNo, operation.primaryTerm, fromTranslog, { result: found ? 'deleted' : 'not_found', version }, {
          type: 'delete',
          id,
          seqNo,
          primaryTerm: operation.primaryTerm,
          version,
        });
      }
    }
    if (previous?.bufferGeneration === this.bufferGeneration && previous.bufferDoc !== undefined) this.buffer.markDeleted(previous.bufferDoc);
    this.versionMap.putDelete(id, { version, seqNo, primaryTerm: operation.primaryTerm, deleted: true, time: Date.now() });
    const location = fromTranslog ? null : this.appendToTranslog({ type: 'delete', id, seqNo, primaryTerm: operation.primaryTerm, version });
    this.tracker.markProcessed(seqNo);
    if (fromTranslog) this.tracker.markPersisted(seqNo);
    return { result: { result: found ? 'deleted' : 'not_found', version, seqNo, primaryTerm: operation.primaryTerm }, location };
  }

  /**
   * Replays the translog operations above the last commit's local checkpoint (opening a shard), then
   * commits and publishes them. Returns how many operations were replayed.
   */
  async recoverFromTranslog(localCheckpoint: number, upToSeqNo = Infinity): Promise<number> {
    const replayed = await this.replayTranslog(localCheckpoint, upToSeqNo);
    this.translogRecovery = { operations: replayed };
    return replayed;
  }

  /** What opening replayed, for the shard's recovery state (`_recovery`). */
  translogRecovery = { operations: 0 };

  /** See Engine.lastBufferWrite. */
  lastBufferWrite: BufferWriteTimings | undefined;

  /** See Engine.recoveryFinalized. */
  recoveryFinalized(): void {
    this.jobs.recovered();
  }

  private async replayTranslog(localCheckpoint: number, upToSeqNo: number): Promise<number> {
    let replayed = 0;
    let sliceStarted = performance.now();
    for await (const operation of this.translog.snapshot(localCheckpoint + 1)) {
      // A returning copy's local recovery stops at its global checkpoint: what lies above may be history no
      // other copy has (its primary sends what is above instead).
      if (operation.seqNo > upToSeqNo) continue;
      this.applyFromTranslog(operation);
      replayed++;
      // Keep memory bounded on a long translog: let a full buffer be written before going on.
      if (this.pendingBufferWrite !== null && this.admission.isThrottled) await this.pendingBufferWrite;
      // In slices, as writes are (decision 0015): the translog is read a megabyte at a time, so without them a
      // replay held the loop for seconds on a loaded host, the node's etcd keepalive with it; its lease ran out, it
      // left and joined again, and the recovery it was running started over.
      if (performance.now() - sliceStarted >= WRITE_SLICE_MS) {
        await nextTurn();
        sliceStarted = performance.now();
      }
    }
    if (replayed > 0) {
      await this.refreshInternal('recovery', true);
      await this.flushInternal(true, false);
    }
    return replayed;
  }

  /** Applies an operation read back from the translog during recovery (never logged again). */
  applyFromTranslog(operation: TranslogOperation): void {
    // Any logged operation may have been an update: a copy that replayed it must look ids up until it is passed.
    this.advanceMaxSeqNoOfUpdatesOrDeletes(operation.seqNo);
    if (operation.type === 'noop') {
      this.tracker.markProcessed(operation.seqNo);
      this.tracker.markPersisted(operation.seqNo);
      return;
    }
    if (operation.type === 'delete') {
      this.applyDelete(
        { id: operation.id, versionType: 'external', version: operation.version, origin: 'local_translog_recovery', seqNo: operation.seqNo, primaryTerm: operation.primaryTerm },
        true,
      );
      return;
    }
    const document = this.config.parseDocument({ id: operation.id, source: operation.source, routing: operation.routing });
    this.applyIndex(
      {
        id: operation.id,
        document,
        opType: 'index',
        versionType: 'external',
        version: operation.version,
        origin: 'local_translog_recovery',
        seqNo: operation.seqNo,
        primaryTerm: operation.primaryTerm,
      },
      true,
    );
  }

  private appendToTranslog(operation: TranslogOperation): TranslogLocation {
    try {
      return this.translog.add(operation);
    } catch (err) {
      // The operation is applied in memory but not logged: the engine cannot promise durability any more.
      throw this.fail(toEsError(err));
    }
  }

  private async awaitDurable(location: TranslogLocation, seqNo: number): Promise<void> {
    try {
      await this.translog.syncBeforeAck(location);
    } catch (err) {
      throw this.fail(toEsError(err));
    }
    this.tracker.markPersisted(seqNo);
  }

  /** After a document entered the buffer: start writing it out when it is full, throttle when far over or behind. */
  private afterBufferChange(): void {
    this.throttleWhileInversionLags();
    const limit = this.config.indexingBufferBytes;
    if (limit <= 0) return;
    const used = this.buffer.ramBytesUsed();
    if (used < limit) return;
    if (this.pendingBufferWrite === null) {
      const write: Promise<void> = this.refreshInternal('internal', false)
        .then(() => undefined)
        .catch((err: unknown) => {
          if (!(err instanceof EsError && err.type === 'already_closed_exception')) this.fail(toEsError(err));
        })
        .finally(() => {
          if (this.pendingBufferWrite === write) this.pendingBufferWrite = null;
          this.openThrottle();
        });
      this.pendingBufferWrite = write;
    } else if (used >= limit * 2) {
      this.admission.throttle();
    }
  }

  private openThrottle(): void {
    // Still waiting for the indexing worker: its catch-up releases (a full buffer throttles again meanwhile).
    if (this.inversionCatchUp !== null) return;
    this.admission.release();
  }

  /**
   * Writes wait while the copy's indexing worker is more than MAX_INVERSION_LAG_MS behind the documents sent to it
   * (decision 0032). An operation is acknowledged once it is in the translog, before it is inverted; without this the
   * request thread ran seconds ahead of a worker at background priority, a refresh waited for the whole backlog
   * before it could write its buffer, and under a sustained bulk nothing acknowledged after the first second became
   * searchable until the bulk ended. ES inverts in the indexing thread itself, so its writes wait for inversion
   * always; here they wait only for the part beyond the bound, and go on once the worker is back within half of it.
   */
  private throttleWhileInversionLags(): void {
    if (this.inversionCatchUp !== null) return;
    if (this.jobs.inversionLagMillis(performance.now()) <= MAX_INVERSION_LAG_MS) return;
    this.admission.throttle();
    const caughtUp: Promise<void> = this.jobs.whenInversionLagBelow(MAX_INVERSION_LAG_MS / 2).finally(() => {
      if (this.inversionCatchUp === caughtUp) this.inversionCatchUp = null;
      // A full buffer still being written throttles again at the next write step (afterBufferChange).
      this.openThrottle();
    });
    this.inversionCatchUp = caughtUp;
  }

  // ---------------------------------------------------------------- replication and recovery

  /**
   * Operations a primary already sequenced, applied on this copy in order with one durability wait (a replica's
   * share of a shard bulk request, or a batch of history during peer recovery). Each keeps its seqNo, term and
   * version; one this copy already has something newer for is recorded as processed and changes nothing, so
   * operations may arrive in any order and more than once (live replication and recovery overlap). Resolves
   * once every operation is in the translog and, with `request` durability, fsynced; each position holds its
   * result or its error.
   */
  async applyReplicated(
    operations: Array<ReplicatedEngineOperation | undefined>,
    origin: 'replica' | 'peer_recovery',
    maxSeqNoOfUpdatesOrDeletes?: number,
  ): Promise<Array<WriteResult | EsError>> {
    this.ensureOpen();
    // Before any operation of the batch applies (ES's replica permit advances it first). A sender that does not
    // say is taken to have updated everything it sends: none of these operations is appended without a lookup.
    if (maxSeqNoOfUpdatesOrDeletes !== undefined) this.advanceMaxSeqNoOfUpdatesOrDeletes(maxSeqNoOfUpdatesOrDeletes);
    else for (const operation of operations) if (operation !== undefined) this.advanceMaxSeqNoOfUpdatesOrDeletes(operation.seqNo);
    const started = performance.now();
    const results: Array<WriteResult | EsError> = new Array(operations.length);
    const seqNos: number[] = [];
    let indexed = 0;
    let deleted = 0;
    await this.admission.submitBatch(operations.length, (i) => {
      const operation = operations[i]!;
      try {
        this.ensureOpen();
        operations[i] = undefined;
        const applied = this.applyReplicatedOne(operation, origin);
        results[i] = applied.result;
        if (applied.location !== null) seqNos.push(applied.result.seqNo);
        if (operation.type === 'index') indexed++;
        else if (operation.type === 'delete') deleted++;
      } catch (err) {
        if (err instanceof AdmissionBarrier) {
          operations[i] = operation;
          throw err;
        }
        results[i] = toEsError(err);
      }
    });
    // As ES's InternalIndexingStats: a replica counts the indexing and deletes it applies (deletes under
    // delete_total, no-ops in neither); operations replayed by a peer recovery are not counted at all.
    if (origin === 'replica') {
      this.indexing.indexTotal += indexed;
      this.indexing.deleteTotal += deleted;
      this.indexing.indexTimeMillis += performance.now() - started;
    }
    if (seqNos.length > 0 || this.translog.syncNeeded()) {
      if (this.translog.durability === 'request') {
        try {
          await this.translog.sync();
        } catch (err) {
          throw this.fail(toEsError(err));
        }
      }
      for (const seqNo of seqNos) this.tracker.markPersisted(seqNo);
    }
    return results;
  }

  private applyReplicatedOne(operation: ReplicatedEngineOperation, origin: 'replica' | 'peer_recovery'): { result: WriteResult; location: TranslogLocation | null } {
    if (operation.type === 'noop') {
      const location = this.appendToTranslog({ type: 'noop', seqNo: operation.seqNo, primaryTerm: operation.primaryTerm, reason: operation.reason });
      this.tracker.markProcessed(operation.seqNo);
      return { result: { result: 'updated', version: 0, seqNo: operation.seqNo, primaryTerm: operation.primaryTerm }, location };
    }
    if (operation.type === 'delete') {
      return this.applyDelete({ id: operation.id, versionType: 'external', version: operation.version, origin, seqNo: operation.seqNo, primaryTerm: operation.primaryTerm });
    }
    return this.applyIndex({
      id: operation.id,
      document: operation.document,
      opType: 'index',
      versionType: 'external',
      version: operation.version,
      origin,
      seqNo: operation.seqNo,
      primaryTerm: operation.primaryTerm,
    }, false, true);
  }

  /** See Engine.fillSeqNoGaps: the missing seqNos above the processed checkpoint become no-ops. */
  async fillSeqNoGaps(primaryTerm: number): Promise<number> {
    this.ensureOpen();
    const gaps: Array<ReplicatedEngineOperation | undefined> = [];
    for (let seqNo = this.tracker.processedCheckpoint + 1; seqNo <= this.tracker.maxSeqNo; seqNo++) {
      if (!this.tracker.hasProcessed(seqNo)) gaps.push({ type: 'noop', seqNo, primaryTerm, reason: 'filling gaps' });
    }
    if (gaps.length === 0) return 0;
    const filled = gaps.length;
    const results = await this.applyReplicated(gaps, 'replica');
    for (const result of results) if (result instanceof Error) throw result;
    return filled;
  }

  /** The local checkpoint of what is fsynced (what this copy may report to its primary). */
  get persistedLocalCheckpoint(): number {
    return this.tracker.persistedCheckpoint;
  }

  get processedLocalCheckpoint(): number {
    return this.tracker.processedCheckpoint;
  }

  get maxSeqNo(): number {
    return this.tracker.maxSeqNo;
  }

  /** See the field: what this copy's requests to other copies carry. */
  get maxSeqNoOfUpdatesOrDeletes(): number {
    return this.maxUpdateOrDeleteSeqNo;
  }

  /** Never backwards (ES's advanceMaxSeqNoOfUpdatesOrDeletes). */
  advanceMaxSeqNoOfUpdatesOrDeletes(seqNo: number): void {
    if (seqNo > this.maxUpdateOrDeleteSeqNo) this.maxUpdateOrDeleteSeqNo = seqNo;
  }

  get globalCheckpoint(): number {
    return this.knownGlobalCheckpoint;
  }

  /** The local checkpoint of the last commit. */
  get lastCommitLocalCheckpoint(): number {
    return this.segments.lastCommitPoint.userData.localCheckpoint;
  }

  /**
   * The first seqNo this copy would ask its primary for if it restarted now: a restart replays its own translog
   * from its safe commit up to the global checkpoint it persisted (both kept for that), so only what lies above
   * that checkpoint has to come from the primary (ES renews a replica's lease to its global checkpoint + 1).
   */
  get restartRecoveryFromSeqNo(): number {
    const safe = this.segments.oldestRetainedCommit.userData;
    const persisted = this.translog.lastSyncedGlobalCheckpoint;
    return (safe.maxSeqNo <= persisted ? Math.max(persisted, safe.localCheckpoint) : safe.localCheckpoint) + 1;
  }

  /** Generations of the commits kept on disk (the safe commit, when older, and the last), oldest first. */
  get retainedCommitGenerations(): number[] {
    return this.segments.retainedCommitGenerations;
  }

  /**
   * The global checkpoint as the primary computed it (never backwards). It goes into the translog checkpoint at
   * the next sync, so a restarted copy knows which of its operations every in-sync copy had.
   */
  updateGlobalCheckpoint(globalCheckpoint: number): void {
    if (globalCheckpoint <= this.knownGlobalCheckpoint) return;
    this.knownGlobalCheckpoint = globalCheckpoint;
    if (!this.closed && this.failure === null) this.translog.setGlobalCheckpoint(globalCheckpoint);
  }

  /** Makes the global checkpoint (and anything added) durable now. */
  async syncTranslog(): Promise<void> {
    this.ensureOpen();
    if (!this.translog.syncNeeded()) return;
    try {
      await this.translog.sync();
    } catch (err) {
      throw this.fail(toEsError(err));
    }
  }

  /**
   * A new primary term for this copy's operations: the translog starts a generation under it (a generation's
   * header names the highest term its operations may carry).
   */
  async bumpPrimaryTerm(primaryTerm: number): Promise<void> {
    this.ensureOpen();
    if (primaryTerm <= this.translog.primaryTerm) return;
    try {
      await this.translog.rollGeneration({ primaryTerm });
    } catch (err) {
      throw this.fail(toEsError(err));
    }
  }

  /**
   * Keeps translog operations from `seqNo` on (peer recovery's retention leases); Infinity keeps only what the
   * last commit needs. Takes effect at the next flush.
   */
  retainHistoryFrom(seqNo: number): void {
    this.retainFromSeqNo = seqNo;
  }

  /**
   * The oldest translog generation a new commit keeps: the commit's own, every generation holding an operation
   * above the commit's local checkpoint, and what retention leases ask for. Operations above the checkpoint may
   * sit in generations before the commit's (a replica receives them out of order): opening replays them all,
   * which rebuilds the tombstones of deletes the commit holds only as missing documents (ES rebuilds its version
   * map from the index above the checkpoint). Replaying only what followed the commit let an older index of a
   * deleted document, logged after the commit, bring the document back, and left the delete's seqNo unprocessed.
   */
  private minRetainedGeneration(commitGeneration: number, commitLocalCheckpoint: number): number {
    const aboveCheckpoint = Math.min(commitGeneration, this.translog.minGenerationHoldingSeqNo(commitLocalCheckpoint + 1));
    if (this.retainFromSeqNo === Infinity) return aboveCheckpoint;
    return Math.min(aboveCheckpoint, this.translog.minGenerationHoldingSeqNo(this.retainFromSeqNo));
  }

  /** The operations with seqNo >= `fromSeqNo` still in the translog, in the order they were logged. */
  historySnapshot(fromSeqNo: number): AsyncIterableIterator<TranslogOperation> & { close(): Promise<void> } {
    this.ensureOpen();
    return this.translog.snapshot(fromSeqNo);
  }

  /**
   * How many logged operations have a seqNo >= `fromSeqNo`, and whether they are every operation from there to
   * this copy's local checkpoint (ES's hasCompleteHistoryOperations and countChanges, in one pass over the
   * translog): what an operations-based recovery needs to send, and its size for the target's progress figures.
   * The pass reads each record's seqNo only: it runs before a recovery's history starts, so reading and copying
   * every source here (then again to send them) was 100-250 ms of each recovery (bench/BENCHMARKS.md).
   */
  async historyFrom(fromSeqNo: number): Promise<{ complete: boolean; operations: number }> {
    this.ensureOpen();
    const upTo = this.tracker.processedCheckpoint;
    const seen = new LocalCheckpointTracker(fromSeqNo - 1, fromSeqNo - 1);
    let operations = 0;
    await this.translog.forEachSeqNo(fromSeqNo, (seqNo) => {
      operations++;
      seen.markProcessed(seqNo);
    });
    return { complete: fromSeqNo > upTo || seen.processedCheckpoint >= upTo, operations };
  }

  /** Whether the translog holds every operation from `fromSeqNo` to this copy's local checkpoint. */
  async hasCompleteHistory(fromSeqNo: number): Promise<boolean> {
    return (await this.historyFrom(fromSeqNo)).complete;
  }

  /**
   * Flushes, then holds the last commit's files (merges and later commits cannot delete them) until released:
   * what a file-based recovery copies.
   */
  async acquireLastCommit(flushFirst: boolean): Promise<CommitSnapshot> {
    this.ensureOpen();
    if (flushFirst) await this.flushInternal(true, false);
    return this.segments.acquireLastCommit();
  }

  // ---------------------------------------------------------------- reads

  async get(id: string, options: GetOptions = {}): Promise<GetResult> {
    this.ensureOpen();
    if (options.realtime !== false) {
      // Documents left out of the version map must reach the segments first (ES's getVersionFromMap).
      if (this.versionMap.isUnsafe) await this.makeVersionMapSafe();
      const entry = this.versionMap.get(id);
      if (entry !== undefined) {
        if (entry.deleted) return { found: false };
        return {
          found: true,
          version: entry.version,
          seqNo: entry.seqNo,
          primaryTerm: entry.primaryTerm,
          source: entry.source,
          routing: entry.routing,
          ignored: entry.ignored ?? [],
          ...(options.storedFields !== undefined && { storedFields: this.storedFieldsFromSource(id, entry.source, entry.routing, options.storedFields) }),
        };
      }
      const found = this.segments.lookupId(id);
      return found === null ? { found: false } : readStoredDocument(found.segment.readers, found.doc, options.storedFields);
    }
    const searcher = this.segments.acquireSearcher();
    try {
      const idBytes = Buffer.from(id, 'utf8');
      for (const view of searcher.segments) {
        const filter = this.segments.list.find((loaded) => loaded.readers === view.readers)?.idFilter ?? null;
        const doc = findInView(view.readers, view.liveDocs, idBytes, filter);
        if (doc >= 0) return readStoredDocument(view.readers, doc, options.storedFields);
      }
      return { found: false };
    } finally {
      searcher.release();
    }
  }

  /**
   * A not yet refreshed document's stored fields, from its source parsed again with the mapping (as ES's realtime
   * get reads a translog operation): what the segment will store once written.
   */
  private storedFieldsFromSource(id: string, source: Uint8Array | undefined, routing: string | undefined, names: readonly string[]): Map<string, StoredValue[]> {
    const values = new Map<string, StoredValue[]>();
    if (source === undefined || names.length === 0) return values;
    const wanted = new Set(names);
    let document: ParsedDocument;
    try {
      document = this.config.parseDocument({ id, source, routing });
    } catch {
      // The stored source no longer parses under the current mapping: there is nothing to show.
      return values;
    }
    for (const field of document.fields) {
      if (!field.stored || !wanted.has(field.field)) continue;
      const list = values.get(field.field) ?? [];
      list.push(storedValue(field));
      values.set(field.field, list);
    }
    return values;
  }

  acquireSearcher(): Searcher {
    this.ensureOpen();
    return this.segments.acquireSearcher();
  }

  clearCaches(): void {
    this.ensureOpen();
    for (const segment of this.segments.list) segment.readers.clearCaches();
  }

  // ---------------------------------------------------------------- refresh, flush, merge

  async refresh(source: string): Promise<void> {
    this.ensureOpen();
    await this.refreshInternal(source, true);
  }

  /**
   * Writes the buffer as a segment (when it holds anything) and applies the deletes it implies; publishes
   * a new Searcher when `publish`. With `rollTranslog`, the translog generation rolls at the very moment the
   * buffer is swapped, and the cut returned says which generation the segments now cover.
   */
  private refreshInternal(source: string, publish: boolean): Promise<BufferCut> {
    return this.stateLock.run(async () => {
      this.ensureOpen();
      const started = performance.now();
      const cut = await this.cutAndWrite(false);
      this.versionMap.pruneTombstones(Date.now(), this.config.gcDeletesMillis ?? DEFAULT_GC_DELETES_MILLIS, this.tracker.processedCheckpoint);
      if (publish) {
        const view = this.segments.publish(cut.processedCheckpoint);
        const tookMillis = performance.now() - started;
        this.refreshStats.total++;
        this.refreshStats.totalTimeMillis += tookMillis;
        // Every refresh here makes documents visible to search: ES counts those as external refreshes.
        if (source !== 'internal') {
          this.refreshStats.externalTotal++;
          this.refreshStats.externalTotalTimeMillis += tookMillis;
        }
        this.notifyRefreshListeners(view.refreshedSeqNo);
      }
      this.merges.maybeMerge();
      this.maybePeriodicFlush();
      return cut;
    });
  }

  /** ES's `index.translog.flush_threshold_size`: commit once the uncommitted translog grows past it. */
  private maybePeriodicFlush(): void {
    if (this.periodicFlush !== null) return;
    const threshold = this.config.flushThresholdBytes ?? DEFAULT_FLUSH_THRESHOLD_BYTES;
    if (this.translog.stats().uncommittedSize < threshold) return;
    this.periodicFlush = this.flushInternal(false, true)
      .catch(() => undefined)
      .finally(() => (this.periodicFlush = null));
  }

  /**
   * Swaps the indexing buffer and writes it as a segment (the caller holds the state lock). With
   * `rollTranslog`, the translog generation rolls in the same synchronous step as the swap, so the cut
   * names the first generation whose operations are not in the segments.
   */
  private async cutAndWrite(rollTranslog: boolean): Promise<BufferCut> {
    const flushing = this.buffer;
    const touched = this.versionMap.size > 0;
    // Decided once, at the cut: when nothing was swapped, `flushing` is still the live buffer, and documents that
    // enter it while the translog rolls below belong to the next refresh; writing it then would seal the buffer
    // under the writers' feet (append-only writes leave the version map empty, so this path is common).
    const swapped = !flushing.isEmpty || touched;
    // --- the cut: synchronous, so no operation falls between the buffer and the translog generation
    if (swapped) {
      this.buffer = this.jobs.newBuffer();
      this.bufferGeneration++;
      this.versionMap.beforeRefresh();
    }
    const rolled = rollTranslog ? this.translog.rollGeneration() : null;
    const cut: BufferCut = {
      processedCheckpoint: this.tracker.processedCheckpoint,
      maxSeqNo: this.tracker.maxSeqNo,
      translogGeneration: this.translog.currentGeneration,
    };
    // --- the write
    try {
      if (rolled !== null) await rolled;
      if (swapped) await this.installBuffer(flushing, this.versionMap.oldEntries());
      this.versionMap.afterRefresh();
    } catch (err) {
      throw this.fail(toEsError(err));
    }
    return cut;
  }

  /** Writes `flushing` as a segment and installs it with the deletes of the ids it touched. */
  private async installBuffer(flushing: BufferSink, touched: Iterable<[string, VersionValue]>): Promise<void> {
    // Deletes for older segments are resolved against the segments as they are now (the lock is held). Ids whose
    // write found them nowhere are not looked up again: in a bulk of new documents that was every id of the buffer,
    // each probing every segment's id filter on the event loop, more of them the more often a copy refreshes.
    const deletes = new Map<LoadedSegment, number[]>();
    for (const [id, entry] of touched) {
      if ((entry as BufferedVersion).mayBeInSegments === false) continue;
      const found = this.segments.lookupId(id);
      if (found === null) continue;
      const docs = deletes.get(found.segment);
      if (docs === undefined) deletes.set(found.segment, [found.doc]);
      else docs.push(found.doc);
    }
    let added: { segment: LoadedSegment; deletedInBuffer: number[] } | null = null;
    if (!flushing.isEmpty) {
      // Written even when every document is deleted: the buffer may live in a worker, which frees it by
      // writing it; the empty segment is dropped at once.
      const { written, failedDocs, timings } = await this.jobs.writeBuffer(this.segments.nextSegmentName(), flushing);
      if (timings !== undefined) this.lastBufferWrite = timings;
      const deletedInBuffer = [...new Set([...flushing.deletedDocs, ...failedDocs])];
      added = { segment: await this.segments.openWritten(written), deletedInBuffer };
    }
    await this.segments.applyFlush(added, deletes);
  }

  async waitForRefresh(seqNo: number): Promise<void> {
    this.ensureOpen();
    const published = this.segments.published;
    if (published !== null && published.refreshedSeqNo >= seqNo) return;
    const waiting = new Promise<void>((resolve, reject) => this.refreshListeners.push({ seqNo, resolve, reject }));
    // A waiter keeps the process alive until the scheduled refresh comes (the timer is unref'd otherwise).
    this.refreshTimer?.ref();
    if (this.refreshListeners.length > MAX_REFRESH_LISTENERS) void this.refreshInternal('too_many_listeners', true).catch(() => undefined);
    return waiting;
  }

  private notifyRefreshListeners(refreshedSeqNo: number): void {
    for (let i = this.refreshListeners.length - 1; i >= 0; i--) {
      const listener = this.refreshListeners[i]!;
      if (listener.seqNo <= refreshedSeqNo) {
        this.refreshListeners.splice(i, 1);
        listener.resolve();
      }
    }
    if (this.refreshListeners.length === 0) this.refreshTimer?.unref();
  }

  async flush(options: { force?: boolean } = {}): Promise<void> {
    this.ensureOpen();
    await this.flushInternal(options.force === true, false);
  }

  private async flushInternal(force: boolean, periodic: boolean): Promise<void> {
    const started = performance.now();
    const uncommitted = this.translog.stats().uncommittedOps > 0 || !this.buffer.isEmpty || this.versionMap.size > 0;
    if (!force && !uncommitted && !this.segments.changedSinceCommit) return;
    // refreshInternal releases the lock before the commit; a second lock section commits exactly the cut
    // state, since every change in between only adds segments/deletes that are also covered (they come
    // from operations in later translog generations, which the commit does not claim).
    await this.stateLock.run(async () => {
      this.ensureOpen();
      const cut = await this.cutAndWrite(true);
      try {
        await this.segments.commit({
          translogUUID: this.translog.translogUUID,
          translogGeneration: cut.translogGeneration,
          localCheckpoint: cut.processedCheckpoint,
          maxSeqNo: cut.maxSeqNo,
          historyUUID: this.historyUUID,
          maxUnsafeAutoIdTimestamp: this.maxUnsafeAutoIdTimestamp,
        });
        this.translog.markCommitted(cut.translogGeneration);
        // The safe commit stays (a restart replays this copy's translog from it), and with it the translog
        // generations its replay needs: its own and every one holding an operation above its local checkpoint.
        this.segments.releaseUnsafeOlderCommits(this.translog.lastSyncedGlobalCheckpoint);
        const safe = this.segments.oldestRetainedCommit.userData;
        await this.translog.trimUnreferencedGenerations(this.minRetainedGeneration(safe.translogGeneration, safe.localCheckpoint));
      } catch (err) {
        throw this.fail(toEsError(err));
      }
    });
    this.flushStats.total++;
    if (periodic) this.flushStats.periodic++;
    this.flushStats.totalTimeMillis += performance.now() - started;
  }

  async forceMerge(options: { maxNumSegments?: number; onlyExpungeDeletes?: boolean; flush?: boolean }): Promise<void> {
    this.ensureOpen();
    // Buffered documents take part, as in ES (which flushes the IndexWriter's buffers before merging).
    await this.refreshInternal('force_merge', false);
    await this.merges.forceMerge(options);
    this.ensureOpen();
    if (options.flush !== false) await this.flushInternal(true, false);
  }

  // ---------------------------------------------------------------- stats and lifecycle

  stats(): EngineStats {
    const searcher = this.segments.published;
    let deleted = 0;
    for (const view of searcher?.segments ?? []) deleted += view.maxDoc - view.numDocs;
    const translog = this.translog.stats();
    return {
      docs: { count: searcher?.numDocs ?? 0, deleted },
      store: { sizeInBytes: this.segments.storeSizeInBytes() },
      indexing: { ...this.indexing, indexTimeMillis: Math.round(this.indexing.indexTimeMillis), deleteTimeMillis: Math.round(this.indexing.deleteTimeMillis) },
      refresh: {
        total: this.refreshStats.total,
        totalTimeMillis: Math.round(this.refreshStats.totalTimeMillis),
        externalTotal: this.refreshStats.externalTotal,
        externalTotalTimeMillis: Math.round(this.refreshStats.externalTotalTimeMillis),
        listeners: this.refreshListeners.length,
      },
      flush: { ...this.flushStats, totalTimeMillis: Math.round(this.flushStats.totalTimeMillis) },
      merges: { ...this.mergeStats, totalTimeMillis: Math.round(this.mergeStats.totalTimeMillis) },
      translog: {
        operations: translog.numOps,
        sizeInBytes: translog.sizeInBytes,
        uncommittedOperations: translog.uncommittedOps,
        uncommittedSizeInBytes: translog.uncommittedSize,
        earliestLastModifiedAgeMillis: translog.earliestLastModifiedAge,
      },
      segments: this.segments.segmentStats(),
      seqNo: {
        maxSeqNo: this.tracker.maxSeqNo,
        localCheckpoint: this.tracker.processedCheckpoint,
        globalCheckpoint: this.knownGlobalCheckpoint,
      },
    };
  }

  /** Fails the engine: every later call throws already_closed_exception caused by `cause`. */
  private fail(cause: EsError): EsError {
    if (this.failure === null && !this.closed) {
      this.failure = cause;
      this.stopBackground();
      for (const listener of this.refreshListeners.splice(0)) listener.reject(indexErrors.engineClosed(this.shard, cause));
      this.admission.failAll(indexErrors.engineClosed(this.shard, cause));
      void this.jobs.close().catch(() => undefined);
      // After the engine refuses work: the listener may close the shard and reopen it from its store.
      queueMicrotask(() => this.config.onFailed?.(cause));
    }
    return cause;
  }

  /** The failure that closed this engine, if any (the shard must be recovered). */
  get failedWith(): EsError | null {
    return this.failure;
  }

  private stopBackground(): void {
    if (this.refreshTimer !== undefined) clearInterval(this.refreshTimer);
    this.refreshTimer = undefined;
    this.merges.stop();
  }

  /** Waits for background merges (tests and force-merge callers that want a quiet shard). */
  async waitForMerges(): Promise<void> {
    await this.merges.idle();
  }

  /**
   * Closes the engine: a final flush (unless `flush: false` or the engine failed), then the translog.
   * Without the flush, reopening recovers from the last commit plus the translog, as after a crash.
   */
  close(options: { flush?: boolean } = {}): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.closing = (async () => {
      this.stopBackground();
      // A running merge is abandoned: terminating its worker rejects it, and its files are deleted.
      const flush = this.failure === null && options.flush !== false;
      if (!flush) await this.stateLock.run(async () => undefined).catch(() => undefined);
      if (flush) {
        try {
          await this.flushInternal(false, false);
        } catch {
          // The translog still holds every acknowledged operation; the next open replays them.
        }
      }
      this.closed = true;
      await this.jobs.close().catch(() => undefined);
      await this.merges.idle().catch(() => undefined);
      for (const listener of this.refreshListeners.splice(0)) listener.reject(indexErrors.engineClosed(this.shard));
      this.admission.failAll(indexErrors.engineClosed(this.shard));
      await this.translog.close().catch(() => undefined);
      this.segments.close();
    })();
    return this.closing;
  }

  private async deleteSegmentFiles(segmentName: string): Promise<void> {
    const files = await this.segments.directory.listAll();
    for (const file of files) {
      if (file.startsWith(`${segmentName}.`) || file.startsWith(`${segmentName}_`)) await this.segments.directory.deleteFile(file);
    }
  }
}

function requireSeqNo(seqNo: number | undefined): number {
  if (seqNo === undefined || !Number.isSafeInteger(seqNo) || seqNo < 0) {
    throw errors.illegalArgument(`an operation that does not come from the primary needs its seqNo, got [${seqNo}]`);
  }
  return seqNo;
}

/** A document's stored metadata and source as a GetResult. */
function readStoredDocument(readers: SegmentReaders, doc: number, storedFields?: readonly string[]): GetResult {
  let source: Uint8Array | undefined;
  let routing: string | undefined;
  const ignored: string[] = [];
  const wanted = storedFields === undefined ? undefined : new Set(storedFields);
  const stored = new Map<string, StoredValue[]>();
  for (const { name, value } of readers.stored.document(doc)) {
    if (name === SOURCE_FIELD && value instanceof Uint8Array) source = value;
    else if (name === ROUTING_FIELD && typeof value === 'string') routing = value;
    else if (name === IGNORED_FIELD && typeof value === 'string') ignored.push(value);
    else if (wanted?.has(name) === true) {
      const list = stored.get(name) ?? [];
      list.push(value);
      stored.set(name, list);
    }
  }
  const values = readers.docValues;
  return {
    found: true,
    version: values.numeric(VERSION_FIELD)?.get(doc),
    seqNo: values.numeric(SEQ_NO_FIELD)?.get(doc),
    primaryTerm: values.numeric(PRIMARY_TERM_FIELD)?.get(doc),
    source,
    routing,
    ignored,
    ...(wanted !== undefined && { storedFields: stored }),
  };
}

/** The live doc with this id in one searcher segment (live docs as the searcher saw them), or -1. */
function findInView(readers: SegmentReaders, liveDocs: LiveDocs | null, idBytes: Uint8Array, filter: IdFilter | null): number {
  if (filter !== null && !filter.mayContain(idBytes)) return -1;
  const terms = readers.terms.terms(ID_FIELD);
  if (terms === undefined) return -1;
  const state = terms.seekExact(idBytes);
  if (state === null) return -1;
  const live = (doc: number): boolean => liveDocs === null || liveDocs.isLive(doc);
  if (state.docFreq === 1) return live(state.singletonDoc) ? state.singletonDoc : -1;
  const postings = terms.postings(state, POSTINGS_DOCS);
  let found = -1;
  for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) if (live(doc)) found = doc;
  return found;
}
