/**
 * A segment worker thread. Three kinds of work, each off the request thread:
 * - indexing: batches of documents are inverted into worker-side buffers, which are then written as
 *   segments (`write-buffer`);
 * - flush: a buffer inverted on the main thread arrives as a snapshot and is written as a segment;
 * - merge: segments are read from disk and merged into one.
 * Files are written but not fsynced: a commit does that.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../../common/thread-priority.js';
import { AnalysisRegistry } from '../../analysis/index.js';
import { LiveDocs, SegmentReaders } from '../codec/index.js';
import { FsDirectory } from '../store/index.js';
import { snapshotBuffer } from '../indexing/buffered-segment.js';
import { decodeBatch, type DocumentBatch } from '../indexing/document-batch.js';
import { CachedAnalyzers, IndexingBuffer } from '../indexing/indexing-buffer.js';
import { writeBufferedSegment, type WrittenSegment } from '../indexing/write-buffered-segment.js';
import { mergeSegments } from '../merge/segment-merger.js';
import type { BufferWriteTimings, SegmentWorkerData, WorkerJob, WorkerNotice, WorkerReply } from './segment-worker-protocol.js';

if (parentPort === null) throw new Error('segment-worker.js runs as a worker thread');
const port = parentPort;
// The loop answers the operator's commands: this thread steps back when they compete for a core (decision 0019).
// An indexing worker does so when its channel's `init` says whose it is: a peer recovery's copy keeps the process's
// priority until its recovery finalized, because every recovered document waits on this thread before the copy can
// be in sync (decision 0029). A nice value once raised cannot be lowered again, so the raise waits.
if ((workerData as SegmentWorkerData | undefined)?.priorityFromInit !== true) lowerThisThreadsPriority();
const directories = new Map<string, Promise<FsDirectory>>();
let analyzers: CachedAnalyzers | null = null;
const buffers = new Map<number, { buffer: IndexingBuffer; failed: number[]; invertMillis: number }>();

function directory(path: string): Promise<FsDirectory> {
  let dir = directories.get(path);
  if (dir === undefined) {
    dir = FsDirectory.open(path);
    directories.set(path, dir);
  }
  return dir;
}

function applyBatch(bufferId: number, batch: DocumentBatch): void {
  if (analyzers === null) throw new Error('indexing worker used before init');
  const started = performance.now();
  let entry = buffers.get(bufferId);
  if (entry === undefined) {
    entry = { buffer: new IndexingBuffer(analyzers), failed: [], invertMillis: 0 };
    buffers.set(bufferId, entry);
  }
  const { buffer, failed } = entry;
  for (const { id, document, seqNo, primaryTerm, version } of decodeBatch(batch)) {
    const expected = buffer.numDocs;
    try {
      buffer.addDocument(id, document);
    } catch {
      // Validated on the engine's side already; a failure here is a bug, and the document stays deleted.
      // Its doc id must exist all the same, or every later id would disagree with the engine's.
      if (buffer.numDocs === expected) buffer.addDocument(id, { routing: undefined, ignored: [], storedSource: document.storedSource, fields: [] });
      buffer.markDeleted(expected);
      failed.push(expected);
    }
    buffer.setMeta(expected, seqNo, primaryTerm, version);
  }
  for (const doc of batch.deletes) buffer.markDeleted(doc);
  entry.invertMillis += performance.now() - started;
  const reply: WorkerReply = { jobId: -1, kind: 'ram', bufferId, bytes: buffer.ramBytesUsed(), docs: buffer.numDocs };
  port.postMessage(reply);
}

async function run(job: WorkerJob): Promise<WrittenSegment & { failedDocs?: number[]; timings?: BufferWriteTimings }> {
  const dir = await directory(job.indexPath);
  switch (job.kind) {
    case 'flush':
      return writeBufferedSegment(dir, job.name, job.segment, job.compression);
    case 'write-buffer': {
      const entry = buffers.get(job.bufferId);
      if (entry === undefined) throw new Error(`no buffer ${job.bufferId} in this worker`);
      buffers.delete(job.bufferId);
      const writing = performance.now();
      const docs = entry.buffer.numDocs;
      const written = await writeBufferedSegment(dir, job.name, snapshotBuffer(entry.buffer).segment, job.compression);
      return { ...written, failedDocs: entry.failed, timings: { docs, invertMillis: Math.round(entry.invertMillis), writeMillis: Math.round(performance.now() - writing) } };
    }
    case 'merge': {
      const sources = [];
      for (const source of job.sources) {
        const readers = await SegmentReaders.open(dir, source.name, { id: source.id });
        let liveDocs: LiveDocs | null = null;
        if (source.live !== null) {
          const wrapped = LiveDocs.fromWords(readers.maxDoc, source.live.words, source.live.deletedCount);
          if (typeof wrapped === 'string') throw new Error(`live docs of [${source.name}]: ${wrapped}`);
          liveDocs = wrapped;
        }
        sources.push({ readers, liveDocs });
      }
      return mergeSegments(dir, job.name, sources, job.compression);
    }
  }
}

/**
 * While a buffer is being written, what arrives after it waits, in order: batches for the next buffer (one indexing
 * worker per copy gets them all, decision 0028) would otherwise be inverted at every await of the write, and the
 * refresh that waits for it would take as long as the bulk kept sending. The batches are inverted right after, so
 * nothing is done twice or lost; a buffer's own batches always come before its write.
 */
let writing = false;
const waiting: Array<WorkerJob | WorkerNotice> = [];

function handle(message: WorkerJob | WorkerNotice): void {
  if (writing) {
    waiting.push(message);
    return;
  }
  if (message.kind === 'init') {
    if (!message.recovering) lowerThisThreadsPriority();
    const registry = AnalysisRegistry.forIndex(message.analysisSettings ?? {}, message.indexName);
    analyzers = new CachedAnalyzers(registry);
    return;
  }
  if (message.kind === 'recovered') {
    lowerThisThreadsPriority();
    return;
  }
  if (message.kind === 'batch') {
    applyBatch(message.bufferId, message.batch);
    return;
  }
  const job = message;
  if (job.kind === 'write-buffer') writing = true;
  run(job).then(
    (written) => {
      const reply: WorkerReply = { jobId: job.jobId, ok: true, info: written.info, idFilter: written.idFilter, failedDocs: written.failedDocs, timings: written.timings };
      port.postMessage(reply, [written.idFilter.buffer as ArrayBuffer]);
    },
    (err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      const reply: WorkerReply = { jobId: job.jobId, ok: false, message: error.message, stack: error.stack };
      port.postMessage(reply);
    },
  ).finally(() => {
    if (job.kind !== 'write-buffer') return;
    writing = false;
    // Handled in order until the next write (if one waited) starts waiting again.
    while (!writing && waiting.length > 0) handle(waiting.shift()!);
  });
}

port.on('message', handle);
