/**
 * What search reads: a point-in-time view of a shard's segments (Lucene's DirectoryReader + leaves). A
 * Searcher is acquired from the engine, stays valid (its files are not deleted, its live docs do not change)
 * until released, and lists the segments in doc-id order with the doc base of each, so a global doc id is
 * `docBase + segment doc`. Documents indexed after the acquiring refresh are not visible through it.
 */
import type { SegmentReaders } from './codec/index.js';
import type { LiveDocs } from './codec/index.js';

export interface SegmentView {
  readonly readers: SegmentReaders;
  /** Global doc id of this segment's doc 0 within the searcher. */
  readonly docBase: number;
  readonly maxDoc: number;
  /** Live docs as of this view (deletes applied after the segment was written); null = all live. */
  readonly liveDocs: LiveDocs | null;
  /** maxDoc minus deleted docs. */
  readonly numDocs: number;
}

export interface Searcher {
  readonly segments: readonly SegmentView[];
  readonly maxDoc: number;
  readonly numDocs: number;
  /** Increases with every refresh that changed what is visible. */
  readonly generation: number;
  /** Releases this view; files it needs are kept until every holder has released it. */
  release(): void;
}

/** Stored field names the engine writes for every document. */
export const ID_FIELD = '_id';
export const SOURCE_FIELD = '_source';
export const ROUTING_FIELD = '_routing';
export const IGNORED_FIELD = '_ignored';
/** Doc values the engine writes for every document (numeric). */
export const SEQ_NO_FIELD = '_seq_no';
export const PRIMARY_TERM_FIELD = '_primary_term';
export const VERSION_FIELD = '_version';
