/**
 * A small test-only indexer over the codec's SegmentWriter, until the engine writes segments: text fields
 * through an analyzer (positions, norms as Lucene computes them), keyword fields (exact terms, docs only,
 * sorted-set doc values), numeric and date fields (sorted-numeric doc values). Builds a Searcher over one
 * or more in-memory segments, with optional deletes.
 */
import {
  computeNormByte,
  LiveDocs,
  SegmentReaders,
  SegmentWriter,
  type FieldSpec,
  type StoredCompression,
} from '../../../../src/engine/codec/index.js';
import type { Searcher, SegmentView } from '../../../../src/engine/searcher.js';
import { MemoryDirectory } from '../../../../src/engine/store/memory-directory.js';
import { invertValues, standardAnalyzer, type Analyzer } from '../../../../src/analysis/index.js';

export type FieldMapping =
  | { readonly type: 'text'; readonly analyzer?: Analyzer }
  | { readonly type: 'keyword' }
  | { readonly type: 'long' }
  | { readonly type: 'double' }
  | { readonly type: 'date' }
  /** Exact 64-bit longs (bigint values in the source), as date_nanos stores nanoseconds. */
  | { readonly type: 'date_nanos' };

export type Mappings = Readonly<Record<string, FieldMapping>>;

export interface TestDoc {
  readonly id: string;
  readonly source: Readonly<Record<string, unknown>>;
}

interface Posting {
  docs: number[];
  positions: number[][];
}

function valuesOf(raw: unknown): unknown[] {
  if (raw === undefined || raw === null) return [];
  return Array.isArray(raw) ? raw.filter((value) => value !== null && value !== undefined) : [raw];
}

function fieldSpec(name: string, mapping: FieldMapping): FieldSpec {
  switch (mapping.type) {
    case 'text':
      return { name, indexOptions: 'positions', hasNorms: true, docValues: 'none' };
    case 'keyword':
      return { name, indexOptions: 'docs', hasNorms: false, docValues: 'sorted_set' };
    default:
      return { name, indexOptions: 'none', hasNorms: false, docValues: 'sorted_numeric' };
  }
}

function toNumber(mapping: FieldMapping, value: unknown): number {
  if (mapping.type === 'date') return typeof value === 'number' ? value : Date.parse(String(value));
  const number = Number(value);
  return mapping.type === 'long' ? Math.trunc(number) : number;
}

function sortedTerms(postings: Map<string, Posting>): Array<[Buffer, Posting]> {
  const entries = [...postings].map(([term, posting]) => [Buffer.from(term, 'utf8'), posting] as [Buffer, Posting]);
  entries.sort((a, b) => Buffer.compare(a[0], b[0]));
  return entries;
}

/** Writes `docs` as one segment and opens it; `storeSource: false` stores only `_id` (as the Lucene kit does). */
export async function buildSegment(
  name: string,
  docs: readonly TestDoc[],
  mappings: Mappings,
  storeSource = true,
  storedCompression?: StoredCompression,
): Promise<SegmentReaders> {
  const fields = Object.entries(mappings).map(([field, mapping]) => fieldSpec(field, mapping));
  const writer = new SegmentWriter({ name, maxDoc: docs.length, fields, ...(storedCompression ? { storedCompression } : {}) });
  const analyzers = new Map<string, Analyzer>();
  for (const [field, mapping] of Object.entries(mappings)) {
    if (mapping.type === 'text') analyzers.set(field, mapping.analyzer ?? standardAnalyzer());
  }

  for (const [field, mapping] of Object.entries(mappings)) {
    if (mapping.type === 'text') {
      const analyzer = analyzers.get(field)!;
      const postings = new Map<string, Posting>();
      const norms = new Uint8Array(docs.length);
      docs.forEach((doc, docId) => {
        const values = valuesOf(doc.source[field]).map(String);
        if (values.length === 0) return;
        const stats = invertValues(analyzer, values, (token, position) => {
          let posting = postings.get(token.term);
          if (posting === undefined) postings.set(token.term, (posting = { docs: [], positions: [] }));
          if (posting.docs[posting.docs.length - 1] !== docId) {
            posting.docs.push(docId);
            posting.positions.push([]);
          }
          posting.positions[posting.positions.length - 1]!.push(position);
        });
        norms[docId] = computeNormByte('positions', { length: stats.length, numOverlap: stats.numOverlap, uniqueTermCount: 0 });
      });
      writer.setNorms(field, norms);
      writer.writePostings(field, (out) => {
        for (const [bytes, posting] of sortedTerms(postings)) {
          out.startTerm(bytes);
          posting.docs.forEach((docId, i) => {
            const positions = posting.positions[i]!;
            out.startDoc(docId, positions.length);
            for (const position of positions) out.addPosition(position);
          });
          out.finishTerm();
        }
      });
    } else if (mapping.type === 'keyword') {
      const postings = new Map<string, Posting>();
      const dvDocs: number[] = [];
      const dvValues: string[][] = [];
      docs.forEach((doc, docId) => {
        const values = valuesOf(doc.source[field]).map(String);
        if (values.length === 0) return;
        dvDocs.push(docId);
        dvValues.push(values);
        for (const value of new Set(values)) {
          let posting = postings.get(value);
          if (posting === undefined) postings.set(value, (posting = { docs: [], positions: [] }));
          posting.docs.push(docId);
        }
      });
      writer.writePostings(field, (out) => {
        for (const [bytes, posting] of sortedTerms(postings)) {
          out.startTerm(bytes);
          for (const docId of posting.docs) out.startDoc(docId, 1);
          out.finishTerm();
        }
      });
      writer.docValues.addSortedSet(field, { docs: Int32Array.from(dvDocs), values: dvValues });
    } else if (mapping.type === 'date_nanos') {
      const dvDocs: number[] = [];
      const counts: number[] = [];
      const values: bigint[] = [];
      docs.forEach((doc, docId) => {
        const longs = valuesOf(doc.source[field]).map((value) => BigInt(value as bigint));
        if (longs.length === 0) return;
        dvDocs.push(docId);
        counts.push(longs.length);
        values.push(...longs);
      });
      writer.docValues.addSortedNumeric(field, { kind: 'long', docs: Int32Array.from(dvDocs), counts: Int32Array.from(counts), values: BigInt64Array.from(values) });
    } else {
      const dvDocs: number[] = [];
      const counts: number[] = [];
      const values: number[] = [];
      docs.forEach((doc, docId) => {
        const numbers = valuesOf(doc.source[field]).map((value) => toNumber(mapping, value));
        if (numbers.length === 0) return;
        dvDocs.push(docId);
        counts.push(numbers.length);
        values.push(...numbers);
      });
      writer.docValues.addSortedNumeric(
        field,
        mapping.type === 'double'
          ? { kind: 'double', docs: Int32Array.from(dvDocs), counts: Int32Array.from(counts), values: Float64Array.from(values) }
          : { kind: 'long', docs: Int32Array.from(dvDocs), counts: Int32Array.from(counts), values: Float64Array.from(values) },
      );
    }
  }
  for (const doc of docs) {
    writer.stored.addDocument(
      storeSource
        ? [{ name: '_id', value: doc.id }, { name: '_source', value: Buffer.from(JSON.stringify(doc.source, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) }]
        : [{ name: '_id', value: doc.id }],
    );
  }
  const directory = new MemoryDirectory();
  await writer.finish(directory);
  return SegmentReaders.open(directory, name);
}

export interface BuildOptions {
  /** Ids of documents to delete (through live docs). */
  readonly deletedIds?: readonly string[];
  /** Default true; false stores only `_id`. */
  readonly storeSource?: boolean;
  /** The codec's default unless given. */
  readonly storedCompression?: StoredCompression;
}

/** A Searcher over one segment per entry of `segments`, in order. */
export async function buildSearcher(segments: readonly (readonly TestDoc[])[], mappings: Mappings, options: BuildOptions = {}): Promise<Searcher> {
  const deleted = new Set(options.deletedIds ?? []);
  const views: SegmentView[] = [];
  let docBase = 0;
  for (let i = 0; i < segments.length; i++) {
    const docs = segments[i]!;
    const readers = await buildSegment(`_${i}`, docs, mappings, options.storeSource ?? true, options.storedCompression);
    const deletedDocs = docs.flatMap((doc, docId) => (deleted.has(doc.id) ? [docId] : []));
    const liveDocs = deletedDocs.length > 0 ? LiveDocs.allLive(docs.length).withDeleted(deletedDocs) : null;
    views.push({ readers, docBase, maxDoc: docs.length, liveDocs, numDocs: docs.length - deletedDocs.length });
    docBase += docs.length;
  }
  return {
    segments: views,
    maxDoc: docBase,
    numDocs: views.reduce((sum, view) => sum + view.numDocs, 0),
    generation: 1,
    release() {},
  };
}
