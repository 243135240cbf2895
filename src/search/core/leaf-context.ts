/**
 * One segment as search sees it (Lucene's LeafReaderContext): the segment's readers, its position among
 * the searcher's segments and the doc base that turns its doc ids into searcher-wide ones.
 */
import type { LiveDocs, SegmentReaders } from '../../engine/codec/index.js';

export interface LeafContext {
  /** Index of this segment in the searcher's list. */
  readonly ord: number;
  /** Searcher-wide id of the segment's doc 0. */
  readonly docBase: number;
  readonly maxDoc: number;
  readonly readers: SegmentReaders;
  /** Null when every document of the segment is live. */
  readonly liveDocs: LiveDocs | null;
}
