/**
 * The fetch sub-phases a search request asks for, prepared once per request and index and run per hit in
 * ES's order (docvalue_fields, _source, fields, highlight): what the search API calls between loading a
 * hit's stored fields and rendering it. Request-level errors (bad formats, unknown highlighter types, too
 * many docvalue fields, `fields` on an index without `_source`) are thrown by `create`, so a request fails
 * before any hit is fetched, as in ES.
 */
import type { RawJson } from '../../common/raw-json.js';
import type { JsonValue, QueryAst } from '../dsl/ast/query-ast.js';
import { HighlightPhase, type HighlightIndexContext, type SearchQueryInput } from '../highlight/highlight-phase.js';
import { parseHighlight } from '../highlight/highlight-options.js';
import { DocValueFieldsFetcher, type DocValuesSource } from './docvalue-fields.js';
import { FieldsFetcher, type FieldAndFormat, type HitMetadata } from './fields.js';
import { hitFields } from './hit-fields.js';
import { SourceFilter, sourceDisabledError, type FetchSourceSpec } from './source-filter.js';
import { parseSource, type SourceObject } from './source-tree.js';
import type { FieldValue } from './value-fetchers.js';

/** The parts of a search request the fetch phase reads (the DSL's SearchRequest satisfies it). */
export interface FetchRequest {
  readonly query?: QueryAst;
  readonly source?: FetchSourceSpec;
  readonly fields?: readonly FieldAndFormat[];
  readonly docvalueFields?: readonly FieldAndFormat[];
  readonly highlight?: { readonly [key: string]: JsonValue };
}

export interface FetchIndexSettings extends HighlightIndexContext {
  /** index.max_docvalue_fields_search (default 100). */
  readonly maxDocvalueFieldsSearch?: number;
}

/** What the search API knows about a hit before the sub-phases run. */
export interface HitInput extends HitMetadata {
  /** The stored `_source` bytes; null when the index does not store it. */
  readonly source: Uint8Array | null;
  /** The hit's doc values, needed only when docvalue_fields were requested. */
  readonly docValues?: DocValuesSource;
}

/** The sub-phases' contribution to one rendered hit; absent keys are not printed. */
export interface FetchedHit {
  readonly source?: RawJson;
  readonly fields?: Map<string, (FieldValue | null)[]>;
  readonly ignoredFieldValues?: Map<string, FieldValue[]>;
  readonly highlight?: Map<string, string[]>;
}

export class HitFetcher {
  private constructor(
    private readonly sourceFilter: SourceFilter | undefined,
    private readonly fields: FieldsFetcher | undefined,
    private readonly docValueFields: DocValueFieldsFetcher | undefined,
    private readonly highlighter: HighlightPhase | undefined,
  ) {}

  /**
   * Prepares the sub-phases for one index. `query` may be given already built (the DSL's query plan) to
   * spare re-analysing the search query for highlighting.
   */
  static create(index: FetchIndexSettings, request: FetchRequest, query?: SearchQueryInput): HitFetcher {
    const sourceSpec = request.source;
    const fetchSource = sourceSpec === undefined || sourceSpec.fetch;
    const filtered = sourceSpec !== undefined && (sourceSpec.includes.length > 0 || sourceSpec.excludes.length > 0);
    if (fetchSource && filtered && index.sourceEnabled === false) throw sourceDisabledError(index.index);
    return new HitFetcher(
      fetchSource ? new SourceFilter(sourceSpec?.includes ?? [], sourceSpec?.excludes ?? []) : undefined,
      request.fields === undefined || request.fields.length === 0 ? undefined : FieldsFetcher.create(index, request.fields),
      request.docvalueFields === undefined || request.docvalueFields.length === 0
        ? undefined
        : DocValueFieldsFetcher.create(index, request.docvalueFields, index.maxDocvalueFieldsSearch),
      request.highlight === undefined ? undefined : HighlightPhase.create(index, parseHighlight(request.highlight), query ?? { ast: request.query }),
    );
  }

  /** Whether hits must be loaded with their `_source` bytes. */
  get needsSource(): boolean {
    return this.sourceFilter !== undefined || this.fields !== undefined || this.highlighter !== undefined;
  }

  /** Whether hits must come with a DocValuesSource. */
  get needsDocValues(): boolean {
    return this.docValueFields !== undefined;
  }

  fetch(hit: HitInput): FetchedHit {
    let tree: SourceObject | null | undefined;
    const sourceTree = (): SourceObject | null => {
      if (tree === undefined) tree = hit.source === null ? null : parseSource(hit.source);
      return tree;
    };
    const docValues = this.docValueFields !== undefined && hit.docValues !== undefined ? this.docValueFields.fetch(hit.docValues) : undefined;
    const source = this.sourceFilter !== undefined && hit.source !== null ? this.sourceFilter.apply(hit.source) : undefined;
    const fieldsSource = this.fields !== undefined ? sourceTree() : null;
    const fetched = this.fields !== undefined && fieldsSource !== null ? this.fields.fetch(fieldsSource, hit) : undefined;
    const merged = docValues !== undefined || fetched !== undefined ? hitFields(docValues, fetched) : undefined;
    const highlight = this.highlighter?.highlight(sourceTree(), hit);
    return {
      ...(source !== undefined && { source }),
      ...(merged !== undefined && merged.fields.size > 0 && { fields: merged.fields }),
      ...(merged !== undefined && merged.ignoredFieldValues.size > 0 && { ignoredFieldValues: merged.ignoredFieldValues }),
      ...(highlight !== undefined && { highlight }),
    };
  }
}
