/**
 * Writes one segment from several (Lucene's SegmentMerger): documents keep their order, source after
 * source, and deleted documents are dropped; postings (with freqs and positions), norms, doc values and
 * stored fields are copied exactly, so the merged segment answers every query as its sources did.
 * Synchronous on purpose: it runs in the segment-writing worker (merge-worker.ts), off the request thread.
 */
import {
  NO_MORE_DOCS,
  POSTINGS_DOCS,
  POSTINGS_FREQS,
  POSTINGS_POSITIONS,
  SegmentWriter,
  type DocValuesType,
  type FieldSpec,
  type FieldsWriter,
  type IndexOptions,
  type LiveDocs,
  type SegmentReaders,
  type StoredCompression,
  type PostingsEnum,
  type TermsEnum,
} from '../codec/index.js';
import type { Directory } from '../store/index.js';
import { IdFilter } from '../segments/id-filter.js';
import { ID_FIELD } from '../segments/segment-names.js';
import { FloatList, IntList } from '../util/growable.js';
import type { WrittenSegment } from '../indexing/write-buffered-segment.js';

export interface MergeSource {
  readonly readers: SegmentReaders;
  /** Live docs as of the merge's start; null = no deletes. */
  readonly liveDocs: LiveDocs | null;
}

const INDEX_LEVELS: readonly IndexOptions[] = ['none', 'docs', 'freqs', 'positions'];

/** Old doc -> new doc for each source (-1 = dropped), in source order. */
export function buildDocMaps(sources: readonly { maxDoc: number; liveDocs: LiveDocs | null }[]): { maps: Int32Array[]; maxDoc: number } {
  let next = 0;
  const maps = sources.map(({ maxDoc, liveDocs }) => {
    const map = new Int32Array(maxDoc);
    for (let doc = 0; doc < maxDoc; doc++) map[doc] = liveDocs === null || liveDocs.isLive(doc) ? next++ : -1;
    return map;
  });
  return { maps, maxDoc: next };
}

function mergedSpecs(sources: readonly MergeSource[]): FieldSpec[] {
  const specs = new Map<string, { level: number; hasNorms: boolean; docValues: DocValuesType }>();
  for (const { readers } of sources) {
    for (const field of readers.info.fields) {
      const current = specs.get(field.name) ?? { level: 0, hasNorms: false, docValues: 'none' as DocValuesType };
      current.level = Math.max(current.level, INDEX_LEVELS.indexOf(field.indexOptions));
      current.hasNorms ||= field.hasNorms;
      if (current.docValues === 'none') current.docValues = field.docValues;
      else if (field.docValues !== 'none' && field.docValues !== current.docValues) {
        throw new Error(`field [${field.name}] has doc values of type [${current.docValues}] and [${field.docValues}] in the segments to merge`);
      }
      specs.set(field.name, current);
    }
  }
  return [...specs].map(([name, spec]) => ({
    name,
    indexOptions: INDEX_LEVELS[spec.level]!,
    hasNorms: spec.hasNorms && spec.level > 0,
    docValues: spec.docValues,
  }));
}

export async function mergeSegments(
  directory: Directory,
  name: string,
  sources: readonly MergeSource[],
  storedCompression: StoredCompression,
): Promise<WrittenSegment> {
  const { maps, maxDoc } = buildDocMaps(sources.map((s) => ({ maxDoc: s.readers.maxDoc, liveDocs: s.liveDocs })));
  const specs = mergedSpecs(sources);
  const writer = new SegmentWriter({ name, maxDoc, fields: specs, storedCompression, attributes: { source: 'merge' } });
  const idFilter = IdFilter.create(maxDoc);

  for (const spec of specs) {
    if (spec.indexOptions === 'none') continue;
    if (spec.hasNorms) writer.setNorms(spec.name, mergeNorms(spec.name, sources, maps, maxDoc));
    writer.writePostings(spec.name, (out) => mergePostings(out, spec, sources, maps, spec.name === ID_FIELD ? idFilter : null));
  }
  for (const spec of specs) {
    if (spec.docValues !== 'none') mergeDocValues(writer, spec, sources, maps);
  }
  for (let s = 0; s < sources.length; s++) {
    const { readers } = sources[s]!;
    const map = maps[s]!;
    for (let doc = 0; doc < map.length; doc++) if (map[doc]! >= 0) writer.stored.addDocument(readers.stored.document(doc));
  }
  const info = await writer.finish(directory);
  return { info, idFilter: idFilter.words };
}

function mergeNorms(field: string, sources: readonly MergeSource[], maps: readonly Int32Array[], maxDoc: number): Uint8Array {
  const norms = new Uint8Array(maxDoc);
  sources.forEach(({ readers }, s) => {
    const source = readers.norms.get(field);
    if (source === undefined) return;
    const map = maps[s]!;
    for (let doc = 0; doc < map.length; doc++) if (map[doc]! >= 0) norms[map[doc]!] = source[doc]!;
  });
  return norms;
}

/** One term's postings gathered from the sources, remapped, before they are written. */
class TermScratch {
  readonly docs = new IntList(64);
  readonly freqs = new IntList(64);
  readonly positions = new IntList(256);

  reset(): void {
    this.docs.length = 0;
    this.freqs.length = 0;
    this.positions.length = 0;
  }
}

function mergePostings(out: FieldsWriter, spec: FieldSpec, sources: readonly MergeSource[], maps: readonly Int32Array[], idFilter: IdFilter | null): void {
  const withFreqs = spec.indexOptions === 'freqs' || spec.indexOptions === 'positions';
  const withPositions = spec.indexOptions === 'positions';
  const flags = withPositions ? POSTINGS_POSITIONS : withFreqs ? POSTINGS_FREQS : POSTINGS_DOCS;
  const cursors: { source: number; terms: TermsEnum; exhausted: boolean; positions: boolean; reuse: PostingsEnum | undefined }[] = [];
  sources.forEach(({ readers }, source) => {
    const fieldTerms = readers.terms.terms(spec.name);
    if (fieldTerms === undefined) return;
    const terms = fieldTerms.iterator();
    cursors.push({ source, terms, exhausted: !terms.next(), positions: fieldTerms.hasPositions, reuse: undefined });
  });
  const scratch = new TermScratch();
  const matching: number[] = [];
  for (;;) {
    // The smallest current term over the sources (few sources: a linear scan beats a heap).
    let smallest: Buffer | null = null;
    matching.length = 0;
    for (let c = 0; c < cursors.length; c++) {
      const cursor = cursors[c]!;
      if (cursor.exhausted) continue;
      const term = cursor.terms.term();
      const cmp = smallest === null ? -1 : Buffer.compare(term, smallest);
      if (cmp < 0) {
        smallest = term;
        matching.length = 0;
        matching.push(c);
      } else if (cmp === 0) {
        matching.push(c);
      }
    }
    if (smallest === null) return;
    const termBytes = Buffer.from(smallest);
    scratch.reset();
    // Sources are merged in order, so remapped doc ids come out increasing.
    for (const c of matching) {
      const cursor = cursors[c]!;
      const map = maps[cursor.source]!;
      // One postings cursor per source, reused term after term (no allocation per term).
      const postings = cursor.terms.postings(flags, cursor.reuse);
      cursor.reuse = postings;
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) {
        const target = map[doc]!;
        if (target < 0) continue;
        const freq = withFreqs ? postings.freq() : 1;
        scratch.docs.push(target);
        scratch.freqs.push(freq);
        if (withPositions) {
          // A source indexed without positions contributes no positions: write each occurrence at 0.
          for (let p = 0; p < freq; p++) scratch.positions.push(cursor.positions ? postings.nextPosition() : 0);
        }
      }
      cursor.exhausted = !cursor.terms.next();
    }
    if (scratch.docs.length === 0) continue;
    out.startTerm(termBytes);
    let p = 0;
    for (let i = 0; i < scratch.docs.length; i++) {
      const freq = scratch.freqs.get(i);
      out.startDoc(scratch.docs.get(i), freq);
      if (withPositions) for (let j = 0; j < freq; j++) out.addPosition(scratch.positions.get(p++));
    }
    out.finishTerm();
    idFilter?.add(termBytes);
  }
}

function mergeDocValues(writer: SegmentWriter, spec: FieldSpec, sources: readonly MergeSource[], maps: readonly Int32Array[]): void {
  const docs = new IntList(1024);
  switch (spec.docValues) {
    case 'numeric': {
      let kind: 'long' | 'double' | null = null;
      const exact = sources.every(({ readers }) => {
        const values = readers.docValues.numeric(spec.name);
        return values === undefined || values.kind === 'double' || values.exactAsNumber;
      });
      const values = new LongOrDoubleList(exact);
      sources.forEach(({ readers }, s) => {
        const column = readers.docValues.numeric(spec.name);
        if (column === undefined) return;
        kind ??= column.kind;
        const map = maps[s]!;
        for (let doc = 0; doc < map.length; doc++) {
          if (map[doc]! < 0 || !column.has(doc)) continue;
          docs.push(map[doc]!);
          if (column.kind === 'long' && !exact) values.pushBigInt(column.getBigInt(doc));
          else values.push(column.get(doc));
        }
      });
      if (kind === 'double') writer.docValues.addNumeric(spec.name, { kind, docs: docs.toArray(), values: values.doubles() });
      else writer.docValues.addNumeric(spec.name, { kind: 'long', docs: docs.toArray(), values: values.longs() });
      return;
    }
    case 'sorted': {
      const values: Buffer[] = [];
      sources.forEach(({ readers }, s) => {
        const column = readers.docValues.sorted(spec.name);
        if (column === undefined) return;
        const terms = allTerms(column.valueCount, (ord) => column.lookupOrd(ord));
        const map = maps[s]!;
        for (let doc = 0; doc < map.length; doc++) {
          const ord = column.ord(doc);
          if (map[doc]! < 0 || ord < 0) continue;
          docs.push(map[doc]!);
          values.push(terms[ord]!);
        }
      });
      writer.docValues.addSorted(spec.name, { docs: docs.toArray(), values });
      return;
    }
    case 'sorted_set': {
      const values: Buffer[][] = [];
      sources.forEach(({ readers }, s) => {
        const column = readers.docValues.sortedSet(spec.name);
        if (column === undefined) return;
        const terms = allTerms(column.valueCount, (ord) => column.lookupOrd(ord));
        const map = maps[s]!;
        for (let doc = 0; doc < map.length; doc++) {
          const start = column.docStart(doc);
          const end = column.docEnd(doc);
          if (map[doc]! < 0 || start === end) continue;
          docs.push(map[doc]!);
          const set: Buffer[] = new Array(end - start);
          for (let i = start; i < end; i++) set[i - start] = terms[column.ordAt(i)]!;
          values.push(set);
        }
      });
      writer.docValues.addSortedSet(spec.name, { docs: docs.toArray(), values });
      return;
    }
    case 'sorted_numeric': {
      let kind: 'long' | 'double' | null = null;
      const exact = sources.every(({ readers }) => readers.docValues.sortedNumeric(spec.name)?.exactAsNumber ?? true);
      const counts = new IntList(1024);
      const values = new LongOrDoubleList(exact);
      sources.forEach(({ readers }, s) => {
        const column = readers.docValues.sortedNumeric(spec.name);
        if (column === undefined) return;
        if (kind !== null && kind !== column.kind) throw new Error(`field [${spec.name}] holds both long and double values in the segments to merge`);
        kind = column.kind;
        const map = maps[s]!;
        for (let doc = 0; doc < map.length; doc++) {
          const start = column.docStart(doc);
          const end = column.docEnd(doc);
          if (map[doc]! < 0 || start === end) continue;
          docs.push(map[doc]!);
          counts.push(end - start);
          for (let i = start; i < end; i++) {
            if (column.kind === 'long' && !exact) values.pushBigInt(column.bigIntAt(i));
            else values.push(column.valueAt(i));
          }
        }
      });
      if (kind === 'double') {
        writer.docValues.addSortedNumeric(spec.name, { kind, docs: docs.toArray(), counts: counts.toArray(), values: values.doubles() });
      } else {
        writer.docValues.addSortedNumeric(spec.name, { kind: 'long', docs: docs.toArray(), counts: counts.toArray(), values: values.longs() });
      }
      return;
    }
    case 'none':
      return;
  }
}

/** Values of a numeric column: plain numbers, or BigInts when some long is beyond 2^53. */
class LongOrDoubleList {
  private readonly numbers = new FloatList(1024);
  private readonly bigints: bigint[] = [];

  constructor(private readonly exact: boolean) {}

  push(value: number): void {
    this.numbers.push(value);
  }

  pushBigInt(value: bigint): void {
    this.bigints.push(value);
  }

  doubles(): Float64Array {
    return this.numbers.toArray();
  }

  longs(): Float64Array | BigInt64Array {
    return this.exact ? this.numbers.toArray() : BigInt64Array.from(this.bigints);
  }
}

function allTerms(count: number, lookup: (ord: number) => Buffer): Buffer[] {
  const terms: Buffer[] = new Array(count);
  for (let ord = 0; ord < count; ord++) terms[ord] = lookup(ord);
  return terms;
}
