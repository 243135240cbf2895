/**
 * Where segments get written: the heavy, synchronous part of a refresh (turning the indexing buffer into a
 * segment) and of a merge runs in worker threads (segment-worker.ts), so the event loop keeps serving
 * requests and ingest continues on the main thread while the second core encodes. `inline` runs the same
 * code on the calling thread (tests, tools). Flushes and merges use separate workers, so a long merge
 * never holds up a refresh.
 */
import { Worker } from 'node:worker_threads';
import { LiveDocs, type SegmentInfo, type StoredCompression } from '../codec/index.js';
import { FsDirectory } from '../store/index.js';
import { snapshotBuffer } from '../indexing/buffered-segment.js';
import type { IndexingBuffer } from '../indexing/indexing-buffer.js';
import { writeBufferedSegment, type WrittenSegment } from '../indexing/write-buffered-segment.js';
import { mergeSegments } from '../merge/segment-merger.js';
import type { LoadedSegment } from './loaded-segment.js';
import type { WorkerJob, WorkerReply } from './segment-worker-protocol.js';

export type { WrittenSegment } from '../indexing/write-buffered-segment.js';

export interface SegmentJobs {
  writeBuffer(name: string, buffer: IndexingBuffer): Promise<WrittenSegment>;
  /** Merges `sources` as of the live docs given (a snapshot taken when the merge started). */
  merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment>;
  close(): Promise<void>;
}

export type BackgroundWork = 'worker' | 'inline';

export function createSegmentJobs(mode: BackgroundWork, indexPath: string, compression: StoredCompression): SegmentJobs {
  return mode === 'worker' ? new WorkerSegmentJobs(indexPath, compression) : new InlineSegmentJobs(indexPath, compression);
}

class InlineSegmentJobs implements SegmentJobs {
  private directory: Promise<FsDirectory> | undefined;

  constructor(
    private readonly indexPath: string,
    private readonly compression: StoredCompression,
  ) {}

  private dir(): Promise<FsDirectory> {
    return (this.directory ??= FsDirectory.open(this.indexPath));
  }

  async writeBuffer(name: string, buffer: IndexingBuffer): Promise<WrittenSegment> {
    return writeBufferedSegment(await this.dir(), name, snapshotBuffer(buffer).segment, this.compression);
  }

  async merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment> {
    return mergeSegments(
      await this.dir(),
      name,
      sources.map(({ segment, liveDocs }) => ({ readers: segment.readers, liveDocs })),
      this.compression,
    );
  }

  async close(): Promise<void> {}
}

/** A job as the engine orders it; the channel numbers it. */
type JobOrder = WorkerJob extends infer Job ? (Job extends WorkerJob ? Omit<Job, 'jobId'> : never) : never;

/** One lazily started worker with its pending jobs. */
class WorkerChannel {
  private worker: Worker | null = null;
  private nextJobId = 1;
  private readonly pending = new Map<number, { resolve: (reply: WrittenSegment) => void; reject: (err: Error) => void }>();

  constructor(private readonly role: string) {}

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(new URL('./segment-worker.js', import.meta.url), { name: `gannet-${this.role}` });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const job = this.pending.get(reply.jobId);
      if (job === undefined) return;
      this.pending.delete(reply.jobId);
      if (reply.ok) job.resolve({ info: reply.info as SegmentInfo, idFilter: reply.idFilter });
      else job.reject(Object.assign(new Error(`${this.role} worker: ${reply.message}`), { workerStack: reply.stack }));
    });
    const failAll = (err: Error): void => {
      this.worker = null;
      for (const job of this.pending.values()) job.reject(err);
      this.pending.clear();
    };
    worker.on('error', (err) => failAll(err instanceof Error ? err : new Error(String(err))));
    worker.on('exit', (code) => failAll(new Error(`${this.role} worker exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  run(job: JobOrder, transfer: ArrayBuffer[]): Promise<WrittenSegment> {
    const worker = this.start();
    const jobId = this.nextJobId++;
    return new Promise((resolve, reject) => {
      // Keep the process alive while a job is out; an idle worker must not.
      worker.ref();
      const settle = (): void => {
        if (this.pending.size === 0) this.worker?.unref();
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
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) await worker.terminate();
  }
}

class WorkerSegmentJobs implements SegmentJobs {
  private readonly flushes = new WorkerChannel('flush');
  private readonly merges = new WorkerChannel('merge');

  constructor(
    private readonly indexPath: string,
    private readonly compression: StoredCompression,
  ) {}

  writeBuffer(name: string, buffer: IndexingBuffer): Promise<WrittenSegment> {
    const { segment, transfer } = snapshotBuffer(buffer);
    return this.flushes.run({ kind: 'flush', indexPath: this.indexPath, name, compression: this.compression, segment }, transfer);
  }

  merge(name: string, sources: readonly { segment: LoadedSegment; liveDocs: LiveDocs | null }[]): Promise<WrittenSegment> {
    return this.merges.run(
      {
        kind: 'merge',
        indexPath: this.indexPath,
        name,
        compression: this.compression,
        sources: sources.map(({ segment, liveDocs }) => ({
          name: segment.name,
          id: segment.id,
          live: liveDocs === null ? null : { words: liveDocs.words.slice(), deletedCount: liveDocs.deletedCount },
        })),
      },
      [],
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.flushes.close(), this.merges.close()]);
  }
}
