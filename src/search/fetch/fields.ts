/**
 * The `fields` option (ES's FetchFieldsPhase and FieldFetcher): each requested pattern resolves against the
 * mapping (metadata fields only by exact name), each resolved field reads its values from `_source` through
 * its type's value fetcher, and `include_unmapped` patterns also collect source values no requested mapped
 * field covers (UnmappedFieldFetcher, including its list-handling order). Resolution and format errors are
 * raised once per request, when the fetcher is created, with ES's "error fetching [...]" wording.
 */
import type { AnalysisRegistry } from '../../analysis/index.js';
import type { MappingSettings, RootMapping } from '../../mapping/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { EsError } from '../../common/errors.js';
import { FieldCatalog, INTERNAL_METADATA_FIELDS } from './field-catalog.js';
import { GlobAutomaton, type GlobState } from './glob-automaton.js';
import { extractRawValues } from './source-lookup.js';
import { isSourceObject, type SourceObject, type SourceValue } from './source-tree.js';
import { rawFieldValue, sourceValueFetcher, type FieldValue, type ValueFetcher } from './value-fetchers.js';

/** An entry of `fields` / `docvalue_fields` (FieldAndFormat). */
export interface FieldAndFormat {
  readonly field: string;
  readonly format?: string;
  readonly includeUnmapped?: boolean;
}

/** What fetching needs to know about the index a hit comes from. */
export interface FetchIndexContext {
  readonly index: string;
  readonly mapping: RootMapping;
  readonly mappingSettings?: MappingSettings;
  /** The index's analysis registry: keyword normalizers (fields), field analyzers (highlighting). */
  readonly analysis?: AnalysisRegistry;
  /** `_source.enabled` of the mapping; default true. */
  readonly sourceEnabled?: boolean;
}

/** The hit's metadata that `fields` can return by exact name. */
export interface HitMetadata {
  readonly id: string;
  readonly index: string;
  readonly routing?: string | null;
  /** Field names recorded in `_ignored`. */
  readonly ignored?: readonly string[];
}

/** One field of a hit: its values, and the source values it had to ignore (printed as ignored_field_values). */
export interface DocumentField {
  readonly values: readonly (FieldValue | null)[];
  readonly ignoredValues: readonly FieldValue[];
}

interface FieldContext {
  readonly name: string;
  readonly fetch: (source: SourceObject, hit: HitMetadata) => DocumentField | undefined;
}

function fromValueFetcher(fetcher: ValueFetcher): FieldContext['fetch'] {
  return (source) => {
    const { values, ignored } = fetcher.fetch(source);
    return values.length === 0 && ignored.length === 0 ? undefined : { values, ignoredValues: ignored };
  };
}

function metadataFetch(name: string): FieldContext['fetch'] {
  return (_source, hit) => {
    let values: string[] = [];
    if (name === '_id') values = [hit.id];
    else if (name === '_index') values = [hit.index];
    else if (name === '_routing') values = hit.routing === null || hit.routing === undefined ? [] : [hit.routing];
    else if (name === '_ignored') values = [...(hit.ignored ?? [])];
    return values.length === 0 ? undefined : { values, ignoredValues: [] };
  };
}

export class FieldsFetcher {
  private constructor(
    private readonly contexts: readonly FieldContext[],
    private readonly mappedFields: ReadonlySet<string>,
    private readonly unmappedAutomaton: GlobAutomaton | null,
    private readonly unmappedConcrete: readonly string[],
  ) {}

  /** FieldFetcher.create; throws ES's errors for `_source` disabled and unsupported formats. */
  static create(context: FetchIndexContext, requested: readonly FieldAndFormat[]): FieldsFetcher {
    if (context.sourceEnabled === false) {
      throw illegalArgument(`Unable to retrieve the requested [fields] since _source is disabled in the mappings for index [${context.index}]`);
    }
    const catalog = FieldCatalog.of(context.mapping, context.mappingSettings);
    const unmappedPatterns: string[] = [];
    const resolved: Array<{ name: string; matchingPattern: string | undefined; format: string | undefined }> = [];
    for (const fieldAndFormat of requested) {
      const pattern = fieldAndFormat.field;
      const matchingPattern = pattern.includes('*') ? pattern : undefined;
      if (fieldAndFormat.includeUnmapped === true) unmappedPatterns.push(pattern);
      for (const name of catalog.matchingFieldNames(pattern)) {
        if (catalog.isMetadataField(name) && matchingPattern !== undefined) continue;
        resolved.push({ name, matchingPattern, format: fieldAndFormat.format });
      }
    }
    // ES sorts the resolved fields by name before building their fetchers; a field resolved twice keeps the last.
    resolved.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const byName = new Map<string, FieldContext>();
    for (const field of resolved) {
      const mapped = catalog.get(field.name);
      let fetch: FieldContext['fetch'];
      if (INTERNAL_METADATA_FIELDS.has(field.name)) {
        throw illegalArgument(`error fetching [${field.name}]: Cannot fetch values for internal field [${field.name}].`);
      }
      if (mapped === undefined) fetch = metadataFetch(field.name);
      else {
        try {
          fetch = fromValueFetcher(sourceValueFetcher(mapped, catalog, field.format, context.analysis));
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const which = field.matchingPattern === undefined ? '' : ` which matched [${field.matchingPattern}]`;
          throw illegalArgument(`error fetching [${field.name}]${which}: ${message}`, err instanceof EsError ? err : undefined);
        }
      }
      byName.delete(field.name);
      byName.set(field.name, { name: field.name, fetch });
    }
    const wildcardUnmapped = unmappedPatterns.filter((pattern) => pattern.includes('*'));
    const concreteUnmapped = unmappedPatterns.filter((pattern) => !pattern.includes('*'));
    return new FieldsFetcher(
      [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      new Set(byName.keys()),
      wildcardUnmapped.length > 0 ? new GlobAutomaton(wildcardUnmapped) : null,
      concreteUnmapped,
    );
  }

  /** The hit's fields, in the order ES inserts them into its (hash) map: mapped by name, then unmapped. */
  fetch(source: SourceObject, hit: HitMetadata): Map<string, DocumentField> {
    const fields = new Map<string, DocumentField>();
    for (const context of this.contexts) {
      const field = context.fetch(source, hit);
      if (field !== undefined) fields.set(context.name, field);
    }
    if (this.unmappedAutomaton !== null || this.unmappedConcrete.length > 0) {
      this.collectUnmapped(fields, source, '', this.unmappedAutomaton?.start() ?? null);
    }
    return fields;
  }

  private collectUnmapped(fields: Map<string, DocumentField>, source: SourceObject, parentPath: string, lastState: GlobState): void {
    const automaton = this.unmappedAutomaton;
    if (automaton !== null) {
      for (const [key, value] of source) {
        const currentPath = parentPath + key;
        if (this.mappedFields.has(currentPath)) continue;
        const state = automaton.step(lastState, key);
        if (state === null) continue;
        if (isSourceObject(value)) {
          this.collectUnmapped(fields, value, currentPath + '.', automaton.step(state, '.'));
        } else if (Array.isArray(value)) {
          this.collectUnmappedList(fields, value, currentPath, state);
        } else if (automaton.isAccept(state) && value !== null) {
          appendValues(fields, currentPath, [rawFieldValue(value)]);
        }
      }
    }
    for (const path of this.unmappedConcrete) {
      if (this.mappedFields.has(parentPath + path)) continue;
      const values = extractRawValues(path, source);
      if (values.length > 0) fields.set(path, { values: values.map(rawFieldValue), ignoredValues: [] });
    }
  }

  private collectUnmappedList(fields: Map<string, DocumentField>, list: readonly SourceValue[], parentPath: string, lastState: GlobState): void {
    const automaton = this.unmappedAutomaton!;
    const collected: (FieldValue | null)[] = [];
    for (const value of list) {
      if (isSourceObject(value)) this.collectUnmapped(fields, value, parentPath + '.', automaton.step(lastState, '.'));
      else if (Array.isArray(value)) this.collectUnmappedList(fields, value, parentPath, lastState);
      else if (automaton.isAccept(lastState) && !this.mappedFields.has(parentPath)) collected.push(value === null ? null : rawFieldValue(value));
    }
    if (collected.length > 0) appendValues(fields, parentPath, collected);
  }
}

function appendValues(fields: Map<string, DocumentField>, path: string, values: readonly (FieldValue | null)[]): void {
  const existing = fields.get(path);
  fields.set(path, existing === undefined ? { values: [...values], ignoredValues: [] } : { values: [...existing.values, ...values], ignoredValues: existing.ignoredValues });
}
