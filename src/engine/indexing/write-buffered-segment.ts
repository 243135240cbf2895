/**
 * Writes a snapshotted indexing buffer as one segment through the codec's SegmentWriter. Runs in the
 * segment-writing worker (or inline in tests): sorting terms, encoding postings, building doc values
 * columns and compressing stored fields all happen here, off the thread that serves requests.
 */
import { SegmentWriter, type FieldSpec, type SegmentInfo, type StoredCompression, type StoredField } from '../codec/index.js';
import type { Directory } from '../store/index.js';
import { IdFilter } from '../segments/id-filter.js';
import { ID_FIELD, IGNORED_FIELD, PRIMARY_TERM_FIELD, ROUTING_FIELD, SEQ_NO_FIELD, SOURCE_FIELD, VERSION_FIELD } from '../segments/segment-names.js';
import type { BufferedField, BufferedSegment } from './buffered-segment.js';
import { INDEX_OPTIONS_BY_LEVEL } from './field-buffer.js';
import { SLICE_SIZES, MAX_SLICE_LEVEL } from './int-slice-pool.js';
import { compareUtf8Order, INDEX_FREQS, INDEX_POSITIONS } from './term-postings.js';

export interface WrittenSegment {
  readonly info: SegmentInfo;
  /** Bloom filter words over the segment's ids (IdFilter). */
  readonly idFilter: Uint32Array;
}

const META_NUMERIC_FIELDS = [SEQ_NO_FIELD, PRIMARY_TERM_FIELD, VERSION_FIELD] as const;

function specOf(field: BufferedField): FieldSpec {
  return {
    name: field.name,
    indexOptions: INDEX_OPTIONS_BY_LEVEL[field.postings === null ? 0 : field.indexLevel]!,
    hasNorms: field.hasNorms && field.postings !== null,
    docValues: field.sortedSet !== null ? 'sorted_set' : field.sortedNumeric !== null ? 'sorted_numeric' : 'none',
  };
}

export async function writeBufferedSegment(
  directory: Directory,
  name: string,
  segment: BufferedSegment,
  storedCompression: StoredCompression,
): Promise<WrittenSegment> {
  const maxDoc = segment.maxDoc;
  const specs: FieldSpec[] = segment.fields.map(specOf);
  for (const meta of META_NUMERIC_FIELDS) specs.push({ name: meta, indexOptions: 'none', hasNorms: false, docValues: 'numeric' });
  const writer = new SegmentWriter({ name, maxDoc, fields: specs, storedCompression });

  for (const field of segment.fields) {
    if (field.postings === null) continue;
    if (field.hasNorms && field.norms !== null) writer.setNorms(field.name, field.norms);
    writer.writePostings(field.name, (out) => writeFieldPostings(out, field, segment.pool));
  }

  for (const field of segment.fields) {
    if (field.sortedSet !== null) {
      const { docs, counts, ords } = field.sortedSet;
      const terms: readonly (string | Uint8Array)[] =
        field.termBytes === 'latin1' ? field.terms.map((term) => Buffer.from(term, 'latin1')) : field.terms;
      const values: (string | Uint8Array)[][] = new Array(docs.length);
      let offset = 0;
      for (let i = 0; i < docs.length; i++) {
        const count = counts[i]!;
        const set: (string | Uint8Array)[] = new Array(count);
        for (let j = 0; j < count; j++) set[j] = terms[ords[offset + j]!]!;
        values[i] = set;
        offset += count;
      }
      writer.docValues.addSortedSet(field.name, { docs, values });
    } else if (field.sortedNumeric !== null) {
      const column = field.sortedNumeric;
      if (column.kind === 'double') {
        writer.docValues.addSortedNumeric(field.name, { kind: 'double', docs: column.docs, counts: column.counts, values: column.numbers! });
      } else {
        writer.docValues.addSortedNumeric(field.name, { kind: 'long', docs: column.docs, counts: column.counts, values: column.bigints ?? column.numbers! });
      }
    }
  }
  const allDocs = new Int32Array(maxDoc);
  for (let doc = 0; doc < maxDoc; doc++) allDocs[doc] = doc;
  writer.docValues.addNumeric(SEQ_NO_FIELD, { kind: 'long', docs: allDocs, values: segment.seqNos });
  writer.docValues.addNumeric(PRIMARY_TERM_FIELD, { kind: 'long', docs: allDocs, values: segment.primaryTerms });
  writer.docValues.addNumeric(VERSION_FIELD, { kind: 'long', docs: allDocs, values: segment.versions });

  const idFilter = IdFilter.create(maxDoc);
  const bytes = segment.sourceBytes;
  for (let doc = 0; doc < maxDoc; doc++) {
    const id = segment.ids[doc]!;
    idFilter.add(Buffer.from(id, 'utf8'));
    const fields: StoredField[] = [{ name: ID_FIELD, value: id }];
    const start = segment.sourceStarts[doc]!;
    if (start >= 0) {
      const length = segment.sourceLengths[doc]!;
      fields.push({ name: SOURCE_FIELD, value: new Uint8Array(bytes.buffer, bytes.byteOffset + start, length) });
    }
    const routing = segment.routings[doc];
    if (routing !== null && routing !== undefined) fields.push({ name: ROUTING_FIELD, value: routing });
    const ignored = segment.ignored[doc];
    if (ignored) for (const fieldName of ignored) fields.push({ name: IGNORED_FIELD, value: fieldName });
    const extras = segment.storedExtras[doc];
    if (extras) for (const extra of extras) fields.push(extra);
    writer.stored.addDocument(fields);
  }
  const info = await writer.finish(directory);
  return { info, idFilter: idFilter.words };
}

function writeFieldPostings(out: Parameters<Parameters<SegmentWriter['writePostings']>[1]>[0], field: BufferedField, pool: Int32Array): void {
  const postings = field.postings!;
  const terms = field.terms;
  const order = sortTermIds(terms, field.needsByteOrderSort);
  const withFreqs = field.indexLevel >= INDEX_FREQS;
  const withPositions = field.indexLevel === INDEX_POSITIONS;
  for (let i = 0; i < order.length; i++) {
    const termId = order[i]!;
    if (postings.started[termId] !== 1) continue;
    out.startTerm(Buffer.from(terms[termId]!, 'utf8'));
    // Inline slice walk (see IntSlicePool): the hottest loop of a flush.
    let position = postings.streamStart[termId]!;
    const end = postings.writePos[termId]!;
    let level = 0;
    let limit = position + SLICE_SIZES[0]! - 1;
    const next = (): number => {
      if (position === limit) {
        position = pool[limit]!;
        if (level < MAX_SLICE_LEVEL) level++;
        limit = position + SLICE_SIZES[level]! - 1;
      }
      return pool[position++]!;
    };
    while (position !== end) {
      const doc = next();
      const freq = withFreqs ? next() : 1;
      out.startDoc(doc, freq);
      if (withPositions) for (let p = 0; p < freq; p++) out.addPosition(next());
    }
    out.finishTerm();
  }
}

/** Term ids in UTF-8 byte order of their terms. */
function sortTermIds(terms: readonly string[], needsByteOrderSort: boolean): Int32Array {
  const order = new Int32Array(terms.length);
  if (!needsByteOrderSort) {
    const ids = new Map<string, number>();
    for (let i = 0; i < terms.length; i++) ids.set(terms[i]!, i);
    const sorted = terms.slice().sort();
    for (let i = 0; i < sorted.length; i++) order[i] = ids.get(sorted[i]!)!;
    return order;
  }
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => compareUtf8Order(terms[a]!, terms[b]!));
}
