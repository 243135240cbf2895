/** Messages between the engine and its segment-writing workers (structured-clone data only). */
import type { StoredCompression } from '../codec/index.js';
import type { BufferedSegment } from '../indexing/buffered-segment.js';
import type { DocumentBatch } from '../indexing/document-batch.js';

export interface MergeSourceRef {
  readonly name: string;
  readonly id: Uint8Array;
  /** Live docs as of the merge's start, or null when the segment had no deletes. */
  readonly live: { readonly words: Uint32Array; readonly deletedCount: number } | null;
}

/** Orders that expect a reply (carry a jobId). */
export type WorkerJob =
  | { readonly jobId: number; readonly kind: 'flush'; readonly indexPath: string; readonly name: string; readonly compression: StoredCompression; readonly segment: BufferedSegment }
  | {
      readonly jobId: number;
      readonly kind: 'merge';
      readonly indexPath: string;
      readonly name: string;
      readonly compression: StoredCompression;
      readonly sources: readonly MergeSourceRef[];
    }
  | {
      readonly jobId: number;
      readonly kind: 'write-buffer';
      readonly bufferId: number;
      readonly indexPath: string;
      readonly name: string;
      readonly compression: StoredCompression;
    };

/**
 * Orders without a reply: set-up (`recovering`: the worker of a peer recovery's copy keeps the process's priority
 * until `recovered`, see segment-worker.ts), batches of documents for a worker-side buffer, the end of a recovery.
 */
export type WorkerNotice =
  | { readonly kind: 'init'; readonly analysisSettings: unknown; readonly indexName: string; readonly recovering: boolean }
  | { readonly kind: 'batch'; readonly bufferId: number; readonly batch: DocumentBatch }
  | { readonly kind: 'recovered' };

/** workerData of a segment worker: an indexing worker sets its priority when its channel's `init` comes. */
export interface SegmentWorkerData {
  readonly priorityFromInit: boolean;
}

/**
 * Where the time of writing a worker-side buffer went, in wall-clock milliseconds of the worker thread (which waits
 * for a core behind the event loop, decision 0019): applying its batches (inverting the documents, spread over the
 * buffer's life) and writing it as a segment.
 */
export interface BufferWriteTimings {
  readonly docs: number;
  readonly invertMillis: number;
  readonly writeMillis: number;
}

export type WorkerReply =
  | { readonly jobId: number; readonly ok: true; readonly info: unknown; readonly idFilter: Uint32Array; readonly failedDocs?: readonly number[]; readonly timings?: BufferWriteTimings }
  | { readonly jobId: number; readonly ok: false; readonly message: string; readonly stack?: string }
  | { readonly jobId: -1; readonly kind: 'ram'; readonly bufferId: number; readonly bytes: number; readonly docs: number };
