/**
 * The on-disk formats of one immutable segment: what the rest of the engine may use. Writing goes through
 * SegmentWriter (plus writeLiveDocs for deletes); reading through SegmentReaders, whose per-format readers
 * hand out term dictionaries, postings cursors, norms, doc values and stored documents. Everything below
 * this surface (framing, packing, block layouts) is private to the codec.
 */

// segment
export { SegmentWriter, type FieldSpec, type SegmentWriterOptions } from './segment/segment-writer.js';
export { SegmentReaders, type OpenSegmentOptions } from './segment/segment-reader.js';
export { CODEC_VERSION, readSegmentInfo, type SegmentFile, type SegmentInfo } from './segment/segment-info.js';
export { segmentFileName, SegmentFileExtensions } from './segment/file-names.js';
export {
  hasFreqs,
  hasPositions,
  type DocValuesType,
  type FieldInfo,
  type FieldStats,
  type IndexOptions,
  type NumericKind,
} from './segment/field-info.js';

// inverted index
export type { FieldsWriter } from './terms/fields-writer.js';
export type { TermsReader } from './terms/terms-reader.js';
export type { FieldTerms } from './terms/field-terms.js';
export type { TermsEnum, SeekStatus } from './terms/terms-enum.js';
export type { PostingsEnum } from './postings/postings-enum.js';
export { TermImpacts, type ImpactScorer } from './postings/impacts.js';
export {
  MAX_FREQ,
  NO_MORE_DOCS,
  POSTINGS_DOCS,
  POSTINGS_FREQS,
  POSTINGS_POSITIONS,
  type PostingsFlags,
  type TermState,
} from './postings/postings-format.js';

// norms
export { byte4ToInt, computeNormByte, intToByte4, LENGTH_TABLE, type FieldLengthState } from './norms/small-float.js';
export type { NormsReader } from './norms/norms-reader.js';

// doc values
export type {
  NumericColumn,
  OrdinalSortedSetColumn,
  SortedColumn,
  SortedNumericColumn,
  SortedSetColumn,
} from './docvalues/doc-values-writer.js';
export type {
  DocValuesReader,
  DoubleDocValues,
  LongDocValues,
  NumericDocValues,
  SortedDocValues,
  SortedNumericDocValues,
  SortedSetDocValues,
} from './docvalues/doc-values-reader.js';

// stored fields
export type { StoredField, StoredValue } from './stored/stored-fields-format.js';
export type { StoredCompression } from './stored/compression.js';
export type { StoredFieldsReader } from './stored/stored-fields-reader.js';

// deletes
export { LiveDocs, liveDocsFileName, readLiveDocs, writeLiveDocs } from './livedocs/live-docs.js';
