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

/*
 * What the engine writes per document and field (the same types in every segment, as in Elasticsearch):
 * - text: terms with the field's index options (offsets are indexed as positions), norms unless disabled.
 * - keyword: terms (docs or freqs, after the normalizer) and `sorted_set` doc values.
 * - long, date (epoch millis), boolean (0/1), scaled_float (the scaled long): `sorted_numeric` long doc
 *   values; double/float/half_float: `sorted_numeric` double doc values. A numeric field that is indexed
 *   but has doc_values false still gets doc values: there is no points index, so range and term queries on
 *   numbers run on doc values. Booleans that are indexed also get the terms "T" / "F", as in ES.
 * - `_id` (terms, docs only: one per document), `_routing` and `_ignored` (terms, docs only) are stored too.
 * - `_seq_no`, `_primary_term`, `_version`: dense `numeric` long doc values.
 * - fields mapped with `store: true` are stored under their full name (booleans as "T"/"F").
 */

/** Stored field names the engine writes for every document. */
export const ID_FIELD = '_id';
export const SOURCE_FIELD = '_source';
export const ROUTING_FIELD = '_routing';
export const IGNORED_FIELD = '_ignored';
/** Doc values the engine writes for every document (numeric). */
export const SEQ_NO_FIELD = '_seq_no';
export const PRIMARY_TERM_FIELD = '_primary_term';
export const VERSION_FIELD = '_version';
