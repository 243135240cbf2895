/**
 * search/fetch: what a search hit carries besides its id and score. The request-level entry point is
 * HitFetcher (docvalue_fields, `_source` filtering, `fields`, highlighting, prepared once and run per hit);
 * the pieces are exported for callers that need only one of them. (doc-value-reader.ts and stored-hits.ts,
 * the sort-value and stored-field readers, are exported from search/index.ts.)
 */
export { HitFetcher, type FetchedHit, type FetchIndexSettings, type FetchRequest, type HitInput } from './hit-fetcher.js';
export { SourceFilter, sourceForHit, sourceDisabledError, type FetchSourceSpec } from './source-filter.js';
export { FieldsFetcher, type DocumentField, type FetchIndexContext, type FieldAndFormat, type HitMetadata } from './fields.js';
export { DocValueFieldsFetcher, DEFAULT_MAX_DOCVALUE_FIELDS_SEARCH, type DocValueList, type DocValuesSource } from './docvalue-fields.js';
export { hitFields, type HitFields } from './hit-fields.js';
export { FieldCatalog, type MappedField } from './field-catalog.js';
export { parseSource, SourceNumber, type SourceObject, type SourceValue } from './source-tree.js';
export type { FieldValue } from './value-fetchers.js';
