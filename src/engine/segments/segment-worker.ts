/**
 * The segment-writing worker thread: receives a snapshotted indexing buffer or a merge order, writes the
 * segment's files (not fsynced: a commit does that) and replies with the segment info and id filter.
 */
import { parentPort } from 'node:worker_threads';
import { LiveDocs, SegmentReaders } from '../codec/index.js';
import { FsDirectory } from '../store/index.js';
import { writeBufferedSegment, type WrittenSegment } from '../indexing/write-buffered-segment.js';
import { mergeSegments } from '../merge/segment-merger.js';
import type { WorkerJob, WorkerReply } from './segment-worker-protocol.js';

if (parentPort === null) throw new Error('segment-worker.js runs as a worker thread');
const port = parentPort;
const directories = new Map<string, Promise<FsDirectory>>();

function directory(path: string): Promise<FsDirectory> {
  let dir = directories.get(path);
  if (dir === undefined) {
    dir = FsDirectory.open(path);
    directories.set(path, dir);
  }
  return dir;
}

async function run(job: WorkerJob): Promise<WrittenSegment> {
  const dir = await directory(job.indexPath);
  if (job.kind === 'flush') return writeBufferedSegment(dir, job.name, job.segment, job.compression);
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

port.on('message', (job: WorkerJob) => {
  run(job).then(
    (written) => {
      const reply: WorkerReply = { jobId: job.jobId, ok: true, info: written.info, idFilter: written.idFilter };
      port.postMessage(reply, [written.idFilter.buffer as ArrayBuffer]);
    },
    (err: unknown) => {
      const error = err instanceof Error ? err : new Error(String(err));
      const reply: WorkerReply = { jobId: job.jobId, ok: false, message: error.message, stack: error.stack };
      port.postMessage(reply);
    },
  );
});
