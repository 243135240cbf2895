/** Messages between the engine and its segment-writing workers (structured-clone data only). */
import type { StoredCompression } from '../codec/index.js';
import type { BufferedSegment } from '../indexing/buffered-segment.js';

export interface MergeSourceRef {
  readonly name: string;
  readonly id: Uint8Array;
  /** Live docs as of the merge's start, or null when the segment had no deletes. */
  readonly live: { readonly words: Uint32Array; readonly deletedCount: number } | null;
}

export type WorkerJob =
  | { readonly jobId: number; readonly kind: 'flush'; readonly indexPath: string; readonly name: string; readonly compression: StoredCompression; readonly segment: BufferedSegment }
  | {
      readonly jobId: number;
      readonly kind: 'merge';
      readonly indexPath: string;
      readonly name: string;
      readonly compression: StoredCompression;
      readonly sources: readonly MergeSourceRef[];
    };

export type WorkerReply =
  | { readonly jobId: number; readonly ok: true; readonly info: unknown; readonly idFilter: Uint32Array }
  | { readonly jobId: number; readonly ok: false; readonly message: string; readonly stack?: string };
