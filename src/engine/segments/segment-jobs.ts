/**
 * Where the heavy work of indexing runs. With `worker` (the default) it is off the request thread:
 * - inverting documents and writing the indexing buffer as a segment: in the copy's indexing workers, when the
 *   index's analysis settings are known (`analysisSettings`); otherwise documents are inverted on the calling
 *   thread and only the segment writing moves to a worker. With two (`indexingWorkers`, the default) they take
 *   turns, buffer by buffer: one inverts the buffer being filled while the other writes the previous one. With
 *   one, the next buffer's batches wait in that thread until the previous buffer is written (segment-worker.ts);
 *   each worker is an isolate that compiles the inverting and writing code for itself, so on a node with no
 *   core to spare for the overlap the second is CPU spent for nothing (`indexingWorkersPerCopy`, decision 0028).
 *   The jobs know how long the oldest batch sent to an indexing worker has waited there (`inversionLagMillis`), so
 *   the engine's writes can wait while the worker falls behind (decision 0032);
 * - merging: in a merge worker of its own, so a long merge never holds up a refresh.
 * `inline` runs the same code on the calling thread (tests, tools).
 */
import { Worker } from 'node:worker_threads';
import { LiveDocs, type SegmentInfo, type StoredCompression } from '../codec/index.js';
import { FsDirectory } from '../store/index.js';
import { snapshotBuffer } from '../indexing/buffered-segment.js';
import type { DocumentBatch } from '../indexing/document-batch.js';
import { IndexingBuffer, type AnalyzerLookup, type BufferSink } from '../indexing/indexing-buffer.js';
import { RemoteBuffer } from '../indexing/remote-buffer.js';
import { writeBufferedSegment, type WrittenSegment } from '../indexing/write-buffered-segment.js';
import { mergeSegments } from '../merge/segment-merger.js';
import type { LoadedSegment } from './loaded-segment.js';
import type { BufferWriteTimings, SegmentWorkerData, WorkerJob, WorkerNotice, WorkerReply } from './segment-worker-protocol.js';

export type { WrittenSegment } from '../indexing/write-buffered-segment.js';

export interface WrittenBuffer {
  readonly written: WrittenSegment;
  /** Documents that could not be inverted after all (kept in the segment, deleted). */
  readonly failedDocs: readonly number[];
  /** For a buffer that lived in an indexing worker: where its time went there. */
  readonly timings?: BufferWriteTimings;
}

export interface SegmentJobs {
  /** A new, empty indexing buffer. */
  newBuffer(): BufferSink;
  /** Writes a buffer (from newBuffer) as segment `name`; the buffer is not used afterwards. */
  writeBuffer(name: string, buffer: BufferSink): Promise<WrittenBuffer>;
  /** Merges `sources` as of the live docs given (a snapshot taken when the merge started). */
  merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment>;
  /** The copy's peer recovery finalized: its indexing workers step back to background priority (see `recovering`). */
  recovered(): void;
  /**
   * How long the oldest batch of documents sent to an indexing worker has been waiting there to be inverted, in
   * milliseconds at `now` (0 when none waits, and always with inline jobs or main-thread buffers).
   */
  inversionLagMillis(now: number): number;
  /**
   * Resolves once every batch sent to an indexing worker is applied or the oldest still waiting was sent less than
   * `millis` ago (0: once all are applied), or the jobs closed.
   */
  whenInversionLagBelow(millis: number): Promise<void>;
  close(): Promise<void>;
}

export type BackgroundWork = 'worker' | 'inline';

export interface SegmentJobsOptions {
  readonly mode: BackgroundWork;
  readonly indexPath: string;
  readonly compression: StoredCompression;
  /** Analyzers of this thread (validation, and inversion when it happens here). */
  readonly analyzers: AnalyzerLookup;
  /** The index's analysis settings, so indexing workers can build the same analyzers; null: invert here. */
  readonly analysis: { readonly settings: unknown; readonly indexName: string } | null;
  /**
   * A peer recovery's copy: its indexing workers keep the process's priority until `recovered()` (decision 0029);
   * otherwise they run at background priority from the start (decision 0019).
   */
  readonly recovering?: boolean;
  /** How many indexing workers the copy's buffers take turns in: 1 or 2 (default 2); see the file comment. */
  readonly indexingWorkers?: 1 | 2;
}

export function createSegmentJobs(options: SegmentJobsOptions): SegmentJobs {
  return options.mode === 'worker' ? new WorkerSegmentJobs(options) : new InlineSegmentJobs(options);
}

class InlineSegmentJobs implements SegmentJobs {
  private directory: Promise<FsDirectory> | undefined;

  constructor(private readonly options: SegmentJobsOptions) {}

  private dir(): Promise<FsDirectory> {
    return (this.directory ??= FsDirectory.open(this.options.indexPath));
  }

  newBuffer(): BufferSink {
    return new IndexingBuffer(this.options.analyzers);
  }

  async writeBuffer(name: string, buffer: BufferSink): Promise<WrittenBuffer> {
    if (!(buffer instanceof IndexingBuffer)) throw new Error('not a buffer of these jobs');
    const written = await writeBufferedSegment(await this.dir(), name, snapshotBuffer(buffer).segment, this.options.compression);
    return { written, failedDocs: [] };
  }

  async merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment> {
    return mergeSegments(
      await this.dir(),
      name,
      sources.map(({ segment, liveDocs }) => ({ readers: segment.readers, liveDocs })),
      this.options.compression,
    );
  }

  recovered(): void {}

  inversionLagMillis(): number {
    return 0;
  }

  async whenInversionLagBelow(): Promise<void> {}

  async close(): Promise<void> {}
}

/** A job as the engine orders it; the channel numbers it. */
type JobOrder = WorkerJob extends infer Job ? (Job extends WorkerJob ? Omit<Job, 'jobId'> : never) : never;

interface JobResult extends WrittenSegment {
  readonly failedDocs?: readonly number[];
  readonly timings?: BufferWriteTimings;
}

const SEGMENT_WORKER = new URL('./segment-worker.js', import.meta.url);

/**
 * Segment workers started ahead of need. Starting one is a new isolate loading the engine's modules (0.3-0.6 s of
 * CPU on this host), and a channel starts its worker when the first batch of documents arrives: in a peer recovery
 * that is the first batch of history, so every recovered document waited behind that start (bench/BENCHMARKS.md,
 * "Operations-based recovery under 2 s"). A copy about to recover asks for one (`prestartSegmentWorker`) while it
 * still waits for its primary; the next channel that starts a worker takes it. A worker has no state of its own
 * before its channel's `init`, so any indexing channel may take any spare (it keeps the process's priority until
 * that `init`, as every indexing worker does). One not taken within SPARE_LIFETIME_MILLIS stops.
 */
const spares: Worker[] = [];
const MAX_SPARES = 2;
const SPARE_LIFETIME_MILLIS = 60_000;
const spareExpiry = new Map<Worker, NodeJS.Timeout>();

function dropSpare(worker: Worker): void {
  const at = spares.indexOf(worker);
  if (at >= 0) spares.splice(at, 1);
  clearTimeout(spareExpiry.get(worker));
  spareExpiry.delete(worker);
  worker.removeListener('error', onSpareGone);
  worker.removeListener('exit', onSpareGone);
}

/** A spare that failed to start or exited is simply forgotten (its channel would start a new worker anyway). */
function onSpareGone(this: Worker): void {
  dropSpare(this);
}

/** Starts a segment worker for the next channel that needs one (up to MAX_SPARES wait at a time). */
export function prestartSegmentWorker(): void {
  if (spares.length >= MAX_SPARES) return;
  const worker = new Worker(SEGMENT_WORKER, { name: 'gannet-indexing', workerData: { priorityFromInit: true } satisfies SegmentWorkerData });
  // A spare never keeps the process alive.
  worker.unref();
  worker.on('error', onSpareGone);
  worker.on('exit', onSpareGone);
  const expiry = setTimeout(() => {
    dropSpare(worker);
    void worker.terminate();
  }, SPARE_LIFETIME_MILLIS);
  expiry.unref();
  spareExpiry.set(worker, expiry);
  spares.push(worker);
}

function takeSpare(): Worker | undefined {
  const worker = spares[0];
  if (worker !== undefined) dropSpare(worker);
  return worker;
}

/** One lazily started worker (or a spare taken over) with its pending jobs. */
class WorkerChannel {
  private worker: Worker | null = null;
  private nextJobId = 1;
  private readonly pending = new Map<number, { resolve: (reply: JobResult) => void; reject: (err: Error) => void }>();
  /** Sent first to every (re)started worker. */
  private initNotice: WorkerNotice | null = null;
  /** Messages that are not job replies (RAM reports of worker-side buffers). */
  onNotice: (reply: Extract<WorkerReply, { kind: 'ram' }>) => void = () => undefined;
  /** The worker failed, exited or was closed: nothing sent to it before will be answered. */
  onGone: () => void = () => undefined;

  private closed = false;
  private awaited = false;

  /** `indexing`: its worker sets its own priority at `init`, and it may take a spare started ahead of need. */
  constructor(
    private readonly role: string,
    private readonly indexing = false,
  ) {}

  init(notice: WorkerNotice): void {
    this.initNotice = notice;
    this.worker?.postMessage(notice);
  }

  /** A recovering copy's worker steps back to background priority; a worker started later does so at its init. */
  recovered(): void {
    if (this.initNotice?.kind === 'init' && this.initNotice.recovering) this.initNotice = { ...this.initNotice, recovering: false };
    if (!this.closed) this.worker?.postMessage({ kind: 'recovered' } satisfies WorkerNotice);
  }

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    // A failed engine closes its jobs while work may still be on its way (post and run check `closed`): no new
    // thread for it, which would hold the process open with a job nobody waits for.
    const worker =
      (this.indexing ? takeSpare() : undefined) ??
      new Worker(SEGMENT_WORKER, { name: `gannet-${this.role}`, workerData: { priorityFromInit: this.indexing } satisfies SegmentWorkerData });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      if ('kind' in reply) {
        this.onNotice(reply);
        return;
      }
      const job = this.pending.get(reply.jobId);
      if (job === undefined) return;
      this.pending.delete(reply.jobId);
      if (reply.ok) job.resolve({ info: reply.info as SegmentInfo, idFilter: reply.idFilter, failedDocs: reply.failedDocs, timings: reply.timings });
      else job.reject(Object.assign(new Error(`${this.role} worker: ${reply.message}`), { workerStack: reply.stack }));
    });
    const failAll = (err: Error): void => {
      if (this.worker === worker) this.worker = null;
      for (const job of this.pending.values()) job.reject(err);
      this.pending.clear();
      this.onGone();
    };
    worker.on('error', (err) => failAll(err instanceof Error ? err : new Error(String(err))));
    worker.on('exit', (code) => failAll(new Error(`${this.role} worker exited with code ${code}`)));
    this.worker = worker;
    if (this.initNotice !== null) worker.postMessage(this.initNotice);
    return worker;
  }

  /**
   * Someone waits for this worker to apply what was sent (the engine's writes, while it is behind): the worker keeps
   * the process alive meanwhile, as it does while a job is out, or a process with nothing else to do would exit with
   * the wait unanswered.
   */
  set keepAlive(on: boolean) {
    this.awaited = on;
    if (on) this.worker?.ref();
    else if (this.pending.size === 0) this.worker?.unref();
  }

  /** Sends `notice`; false when it was dropped instead. */
  post(notice: WorkerNotice, transfer: ArrayBuffer[]): boolean {
    // What is sent to closed jobs is dropped: their engine has failed or closed, and nothing will read it.
    if (this.closed) return false;
    this.start().postMessage(notice, transfer);
    return true;
  }

  run(job: JobOrder, transfer: ArrayBuffer[]): Promise<JobResult> {
    if (this.closed) return Promise.reject(new Error(`${this.role} worker: the segment jobs are closed`));
    const worker = this.start();
    const jobId = this.nextJobId++;
    return new Promise((resolve, reject) => {
      // Keep the process alive while a job is out; an idle worker must not.
      worker.ref();
      const settle = (): void => {
        if (this.pending.size === 0 && !this.awaited) this.worker?.unref();
      };
      this.pending.set(jobId, {
        resolve: (value) => {
          resolve(value);
          settle();
        },
        reject: (err) => {
          reject(err);
          settle();
        },
      });
      worker.postMessage({ ...job, jobId } as WorkerJob, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.onGone();
    if (worker !== null) await worker.terminate();
  }
}

/**
 * The indexing worker a buffer lives in, and the buffer's id there. It also knows how far behind the worker is: the
 * worker answers every batch it applied with a RAM report, in the order the batches were sent, so the send times of
 * the batches not yet answered say how long the oldest one has waited to be inverted (decision 0032).
 */
class IndexingChannel {
  readonly channel: WorkerChannel;
  readonly buffers = new Map<number, RemoteBuffer>();
  /** When each batch not yet applied by the worker was sent, oldest first (`unappliedHead` is the oldest). */
  private readonly unappliedSentAt: number[] = [];
  private unappliedHead = 0;
  private lagWaiters: Array<{ millis: number; resolve: () => void }> = [];

  constructor(role: string, analysis: { settings: unknown; indexName: string }, recovering: boolean) {
    this.channel = new WorkerChannel(role, true);
    this.channel.init({ kind: 'init', analysisSettings: analysis.settings, indexName: analysis.indexName, recovering });
    this.channel.onNotice = (report) => {
      this.batchApplied();
      this.buffers.get(report.bufferId)?.onRamReport(report.bytes, report.docs);
    };
    // A worker that died or was terminated applies nothing more: nobody waits for it (its engine fails or closed).
    this.channel.onGone = () => {
      this.unappliedSentAt.length = 0;
      this.unappliedHead = 0;
      for (const waiter of this.lagWaiters.splice(0)) waiter.resolve();
      this.channel.keepAlive = false;
    };
  }

  sendBatch(bufferId: number, batch: DocumentBatch, transfer: ArrayBuffer[]): void {
    if (!this.channel.post({ kind: 'batch', bufferId, batch }, transfer)) return;
    this.unappliedSentAt.push(performance.now());
  }

  lagMillis(now: number): number {
    return this.unappliedHead < this.unappliedSentAt.length ? now - this.unappliedSentAt[this.unappliedHead]! : 0;
  }

  /** Whether no batch waits, or the oldest has waited less than `millis`. */
  private within(millis: number, now: number): boolean {
    return this.unappliedHead >= this.unappliedSentAt.length || this.lagMillis(now) < millis;
  }

  whenLagBelow(millis: number): Promise<void> {
    if (this.within(millis, performance.now())) return Promise.resolve();
    this.channel.keepAlive = true;
    return new Promise((resolve) => this.lagWaiters.push({ millis, resolve }));
  }

  private batchApplied(): void {
    if (this.unappliedHead >= this.unappliedSentAt.length) return;
    this.unappliedHead++;
    if (this.unappliedHead === this.unappliedSentAt.length) {
      this.unappliedSentAt.length = 0;
      this.unappliedHead = 0;
    } else if (this.unappliedHead > 1024) {
      this.unappliedSentAt.splice(0, this.unappliedHead);
      this.unappliedHead = 0;
    }
    if (this.lagWaiters.length > 0) this.wakeLagWaiters(performance.now());
  }

  private wakeLagWaiters(now: number): void {
    const waiting = this.lagWaiters;
    this.lagWaiters = [];
    for (const waiter of waiting) {
      if (this.within(waiter.millis, now)) waiter.resolve();
      else this.lagWaiters.push(waiter);
    }
    if (this.lagWaiters.length === 0) this.channel.keepAlive = false;
  }
}

class WorkerSegmentJobs implements SegmentJobs {
  private readonly flushes = new WorkerChannel('flush');
  private readonly merges = new WorkerChannel('merge');
  private readonly indexing: IndexingChannel[];
  private nextBufferId = 0;

  constructor(private readonly options: SegmentJobsOptions) {
    const { analysis } = options;
    const workers = options.indexingWorkers ?? 2;
    this.indexing = analysis === null ? [] : Array.from({ length: workers }, (_, i) => new IndexingChannel(`indexing-${i + 1}`, analysis, options.recovering === true));
  }

  newBuffer(): BufferSink {
    if (this.indexing.length === 0) return new IndexingBuffer(this.options.analyzers);
    const bufferId = this.nextBufferId++;
    const indexing = this.indexing[bufferId % this.indexing.length]!;
    const buffer = new RemoteBuffer(bufferId, indexing, this.options.analyzers);
    indexing.buffers.set(bufferId, buffer);
    return buffer;
  }

  async writeBuffer(name: string, buffer: BufferSink): Promise<WrittenBuffer> {
    const { indexPath, compression } = this.options;
    if (buffer instanceof RemoteBuffer) {
      const indexing = this.indexing[buffer.bufferId % this.indexing.length]!;
      buffer.seal();
      try {
        const result = await indexing.channel.run({ kind: 'write-buffer', bufferId: buffer.bufferId, indexPath, name, compression }, []);
        return { written: result, failedDocs: result.failedDocs ?? [], ...(result.timings !== undefined && { timings: result.timings }) };
      } finally {
        indexing.buffers.delete(buffer.bufferId);
      }
    }
    if (!(buffer instanceof IndexingBuffer)) throw new Error('not a buffer of these jobs');
    const { segment, transfer } = snapshotBuffer(buffer);
    const written = await this.flushes.run({ kind: 'flush', indexPath, name, compression, segment }, transfer);
    return { written, failedDocs: [] };
  }

  merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment> {
    const { indexPath, compression } = this.options;
    return this.merges.run(
      {
        kind: 'merge',
        indexPath,
        name,
        compression,
        sources: sources.map(({ segment, liveDocs }) => ({
          name: segment.name,
          id: segment.id,
          live: liveDocs === null ? null : { words: liveDocs.words.slice(), deletedCount: liveDocs.deletedCount },
        })),
      },
      [],
    );
  }

  recovered(): void {
    for (const indexing of this.indexing) indexing.channel.recovered();
  }

  inversionLagMillis(now: number): number {
    let lag = 0;
    for (const indexing of this.indexing) lag = Math.max(lag, indexing.lagMillis(now));
    return lag;
  }

  async whenInversionLagBelow(millis: number): Promise<void> {
    for (const indexing of this.indexing) await indexing.whenLagBelow(millis);
  }

  async close(): Promise<void> {
    await Promise.all([this.flushes.close(), this.merges.close(), ...this.indexing.map((indexing) => indexing.channel.close())]);
  }
}
