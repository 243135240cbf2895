/**
 * The fetch phase on one shard (ES's FetchPhase): for the hits of the final page that live on this shard,
 * load the stored `_id`, `_routing`, `_ignored` and `_source`, then run the request's fetch sub-phases
 * (docvalue_fields, `_source` filtering, `fields`, highlighting: HitFetcher), `stored_fields`, `version`,
 * `seq_no_primary_term` and `explain`. Hits come back in the order asked; stored fields are read in doc order
 * so neighbouring hits share decompressed blocks.
 */
import { RawJson } from '../../common/raw-json.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { SegmentReaders } from '../../engine/codec/index.js';
import { ID_FIELD, IGNORED_FIELD, PRIMARY_TERM_FIELD, ROUTING_FIELD, SEQ_NO_FIELD, SOURCE_FIELD, VERSION_FIELD } from '../../engine/searcher.js';
import type { SortValue } from '../collect/top-docs.js';
import type { LeafContext } from '../core/leaf-context.js';
import type { SearchRequest } from '../dsl/index.js';
import type { Explanation } from '../explanation.js';
import { HitFetcher, type FetchRequest } from '../fetch/hit-fetcher.js';
import type { DocValueList, DocValuesSource } from '../fetch/docvalue-fields.js';
import type { FieldValue } from '../fetch/value-fetchers.js';
import { displayStoredValue } from '../fetch/stored-field-values.js';
import type { StatisticsOverride } from '../searcher/index-searcher.js';
import type { PhaseControl } from './phase-control.js';
import { shardSearcher } from './query-phase.js';
import { buildShardQuery, fieldLookupFor } from './shard-query.js';
import type { ShardSearchTarget } from './shard-target.js';

export interface FetchDocRef {
  /** Shard-wide doc id. */
  readonly doc: number;
  readonly score: number;
  readonly sortValues?: readonly SortValue[];
}

export interface FetchPhaseRequest {
  readonly request: SearchRequest;
  readonly docs: readonly FetchDocRef[];
  readonly statistics?: StatisticsOverride;
  readonly nowMillis: number;
}

export interface FetchedSearchHit {
  readonly doc: number;
  readonly score: number;
  readonly sortValues?: readonly SortValue[];
  /** Undefined with `stored_fields: _none_`. */
  readonly id?: string;
  readonly routing?: string;
  readonly ignored?: readonly string[];
  readonly version?: number;
  readonly seqNo?: number;
  readonly primaryTerm?: number;
  readonly source?: RawJson;
  /** docvalue_fields, `fields` and stored_fields, merged as ES prints them under `fields`. */
  readonly fields?: Map<string, (FieldValue | null)[]>;
  readonly ignoredFieldValues?: Map<string, FieldValue[]>;
  readonly highlight?: Map<string, string[]>;
  readonly explanation?: Explanation;
}

/** How `stored_fields` and `_source` decide what a hit loads (StoredFieldsContext, FetchSourceContext). */
function fetchRequestFor(request: SearchRequest): { fetch: FetchRequest; loadId: boolean; storedFields: readonly string[] } {
  const stored = request.storedFields;
  if (stored === undefined) return { fetch: request, loadId: true, storedFields: [] };
  if (!stored.fetch) return { fetch: { ...request, source: { fetch: false, includes: [], excludes: [] } }, loadId: false, storedFields: [] };
  // Listing stored fields turns `_source` off unless the request asked for it, or listed `_source` among them
  // (FetchPhase: `_source` in stored_fields fetches it with the request's includes and excludes).
  const listsSource = stored.fields.includes('_source');
  const source = listsSource
    ? { fetch: true, includes: request.source?.includes ?? [], excludes: request.source?.excludes ?? [] }
    : (request.source ?? { fetch: false, includes: [], excludes: [] });
  return { fetch: { ...request, source }, loadId: true, storedFields: stored.fields.filter((name) => name !== '_source' && name !== '_id') };
}

function leafOf(leaves: readonly LeafContext[], doc: number): LeafContext {
  let low = 0;
  let high = leaves.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const leaf = leaves[mid]!;
    if (doc < leaf.docBase) high = mid - 1;
    else if (doc >= leaf.docBase + leaf.maxDoc) low = mid + 1;
    else return leaf;
  }
  throw new RangeError(`doc ${doc} is not in this searcher`);
}

/** A doc's doc values, read on demand for docvalue_fields. */
function docValuesOf(readers: SegmentReaders, doc: number): DocValuesSource {
  return {
    values(field: string): DocValueList | undefined {
      const docValues = readers.docValues;
      const sortedNumeric = docValues.sortedNumeric(field);
      if (sortedNumeric !== undefined) {
        const start = sortedNumeric.docStart(doc);
        const end = sortedNumeric.docEnd(doc);
        if (start === end) return undefined;
        if (sortedNumeric.kind === 'double') {
          const values: number[] = [];
          for (let i = start; i < end; i++) values.push(sortedNumeric.valueAt(i));
          return { kind: 'double', values };
        }
        const values: (number | bigint)[] = [];
        for (let i = start; i < end; i++) values.push(sortedNumeric.exactAsNumber ? sortedNumeric.valueAt(i) : sortedNumeric.bigIntAt(i));
        return { kind: 'long', values };
      }
      const sortedSet = docValues.sortedSet(field);
      if (sortedSet !== undefined) {
        const start = sortedSet.docStart(doc);
        const end = sortedSet.docEnd(doc);
        if (start === end) return undefined;
        const values: Uint8Array[] = [];
        for (let i = start; i < end; i++) values.push(sortedSet.lookupOrd(sortedSet.ordAt(i)));
        return { kind: 'bytes', values };
      }
      const sorted = docValues.sorted(field);
      if (sorted !== undefined) {
        const ord = sorted.ord(doc);
        return ord < 0 ? undefined : { kind: 'bytes', values: [sorted.lookupOrd(ord)] };
      }
      const numeric = docValues.numeric(field);
      if (numeric !== undefined && numeric.has(doc)) {
        return numeric.kind === 'double' ? { kind: 'double', values: [numeric.get(doc)] } : { kind: 'long', values: [numeric.get(doc)] };
      }
      return undefined;
    },
  };
}

function longDocValue(readers: SegmentReaders, field: string, doc: number): number | undefined {
  const values = readers.docValues.numeric(field);
  return values !== undefined && values.has(doc) ? values.get(doc) : undefined;
}

/** The names `stored_fields` resolves to: mapped fields stored separately, by exact name or pattern. */
function storedFieldNames(target: ShardSearchTarget, patterns: readonly string[]): Set<string> {
  const names = new Set<string>();
  if (patterns.length === 0) return names;
  const lookup = fieldLookupFor(target.mapping, target.mappingSettings);
  for (const pattern of patterns) {
    for (const name of lookup.matchingFieldNames(pattern)) {
      const field = lookup.get(name);
      if (field?.kind === 'mapped' && field.options.store && (!pattern.includes('*') || simpleMatch(pattern, name))) names.add(name);
    }
  }
  return names;
}

export async function executeFetchPhase(target: ShardSearchTarget, input: FetchPhaseRequest, control: PhaseControl): Promise<FetchedSearchHit[]> {
  control.check();
  const { request } = input;
  const plan = fetchRequestFor(request);
  const fetcher = HitFetcher.create(
    {
      index: target.index,
      mapping: target.mapping,
      mappingSettings: target.mappingSettings,
      analysis: target.analysis,
      sourceEnabled: target.mapping.source?.enabled !== false && target.mapping.source?.mode !== 'disabled',
      maxAnalyzedOffset: target.settings.maxAnalyzedOffset,
      weightMatchesEnabled: target.settings.weightMatchesEnabled ?? true,
      maxDocvalueFieldsSearch: target.settings.maxDocvalueFieldsSearch,
    },
    plan.fetch,
  );
  const storedNames = storedFieldNames(target, plan.storedFields);
  const wanted = new Set<string>([ID_FIELD, ROUTING_FIELD, IGNORED_FIELD, ...storedNames]);
  if (fetcher.needsSource) wanted.add(SOURCE_FIELD);
  const searcher = shardSearcher(target, input.statistics);
  const leaves = searcher.leaves;
  const explainQuery = request.explain === true ? searcher.rewrite(buildShardQuery(target, request.query, input.nowMillis)) : undefined;
  const order = input.docs.map((ref, index) => ({ ref, index })).sort((a, b) => a.ref.doc - b.ref.doc);
  const hits = new Array<FetchedSearchHit>(input.docs.length);
  for (const { ref, index } of order) {
    await control.checkpoint();
    const leaf = leafOf(leaves, ref.doc);
    const segmentDoc = ref.doc - leaf.docBase;
    let id = '';
    let routing: string | undefined;
    const ignored: string[] = [];
    let source: Uint8Array | null = null;
    const stored = new Map<string, FieldValue[]>();
    for (const field of leaf.readers.stored.document(segmentDoc, wanted)) {
      if (field.name === ID_FIELD) id = String(field.value);
      else if (field.name === SOURCE_FIELD) source = field.value instanceof Uint8Array ? field.value : Buffer.from(String(field.value));
      else if (field.name === ROUTING_FIELD) routing = String(field.value);
      else if (field.name === IGNORED_FIELD) ignored.push(String(field.value));
      else if (storedNames.has(field.name)) {
        const values = stored.get(field.name) ?? [];
        values.push(displayStoredValue(fieldLookupFor(target.mapping, target.mappingSettings), field.name, field.value));
        stored.set(field.name, values);
      }
    }
    const fetched = fetcher.fetch({
      id,
      index: target.index,
      routing: routing ?? null,
      ignored,
      source,
      ...(fetcher.needsDocValues && { docValues: docValuesOf(leaf.readers, segmentDoc) }),
    });
    let fields = fetched.fields;
    if (stored.size > 0) {
      fields = new Map(fields ?? []);
      for (const [name, values] of stored) if (!fields.has(name)) fields.set(name, values);
    }
    const version = request.version === true ? longDocValue(leaf.readers, VERSION_FIELD, segmentDoc) : undefined;
    const seqNo = request.seqNoPrimaryTerm === true ? longDocValue(leaf.readers, SEQ_NO_FIELD, segmentDoc) : undefined;
    const primaryTerm = request.seqNoPrimaryTerm === true ? longDocValue(leaf.readers, PRIMARY_TERM_FIELD, segmentDoc) : undefined;
    hits[index] = {
      doc: ref.doc,
      score: ref.score,
      ...(ref.sortValues !== undefined && { sortValues: ref.sortValues }),
      ...(plan.loadId && { id }),
      ...(routing !== undefined && { routing }),
      ...(ignored.length > 0 && { ignored }),
      ...(version !== undefined && { version }),
      ...(seqNo !== undefined && { seqNo, primaryTerm: primaryTerm ?? 0 }),
      ...(fetched.source !== undefined && { source: fetched.source }),
      ...(fields !== undefined && fields.size > 0 && { fields }),
      ...(fetched.ignoredFieldValues !== undefined && { ignoredFieldValues: fetched.ignoredFieldValues }),
      ...(fetched.highlight !== undefined && { highlight: fetched.highlight }),
      ...(explainQuery !== undefined && { explanation: searcher.explain(explainQuery, ref.doc) }),
    };
  }
  return hits;
}
