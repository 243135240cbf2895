/**
 * Writes a snapshotted indexing buffer as one segment through the codec's SegmentWriter. Runs in the
 * segment-writing worker (or inline in tests): sorting terms, encoding postings, building doc values
 * columns and compressing stored fields all happen here, off the thread that serves requests.
 */
import { SegmentWriter, type FieldSpec, type OrdinalSortedSetColumn, type SegmentInfo, type StoredCompression, type StoredField } from '../codec/index.js';
import type { Directory } from '../store/index.js';
import { IdFilter } from '../segments/id-filter.js';
import { ID_FIELD, IGNORED_FIELD, PRIMARY_TERM_FIELD, ROUTING_FIELD, SEQ_NO_FIELD, SOURCE_FIELD, VERSION_FIELD } from '../segments/segment-names.js';
import type { BufferedField, BufferedSegment } from './buffered-segment.js';
import { INDEX_OPTIONS_BY_LEVEL } from './field-buffer.js';
import { SLICE_SIZES, MAX_SLICE_LEVEL } from './int-slice-pool.js';
import { SortedTermBytes } from './sorted-term-bytes.js';
import { INDEX_FREQS, INDEX_POSITIONS } from './term-postings.js';

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

  // Each field's terms encoded once, in byte order, for its postings and its doc values alike.
  const sortedTerms = new Map<BufferedField, SortedTermBytes>();
  for (const field of segment.fields) {
    if (field.postings === null && field.sortedSet === null) continue;
    const terms = SortedTermBytes.encode(field.terms, field.needsByteOrderSort, field.termBytes);
    sortedTerms.set(field, terms);
    if (field.postings === null) continue;
    if (field.hasNorms && field.norms !== null) writer.setNorms(field.name, field.norms);
    writer.writePostings(field.name, (out) => writeFieldPostings(out, field, terms, segment.pool));
  }

  for (const field of segment.fields) {
    if (field.sortedSet !== null) {
      writer.docValues.addSortedSetOrds(field.name, sortedSetColumn(field.sortedSet, sortedTerms.get(field)!));
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
  // One fields list and its first two entries reused for every document: the writer copies what it reads.
  const idField: { name: string; value: StoredField['value'] } = { name: ID_FIELD, value: '' };
  const sourceField: { name: string; value: StoredField['value'] } = { name: SOURCE_FIELD, value: bytes };
  const fields: StoredField[] = [];
  let idBytes = Buffer.allocUnsafe(512);
  for (let doc = 0; doc < maxDoc; doc++) {
    const id = segment.ids[doc]!;
    if (3 * id.length > idBytes.length) idBytes = Buffer.allocUnsafe(3 * id.length);
    idFilter.add(idBytes.subarray(0, idBytes.write(id, 0, 'utf8')));
    fields.length = 0;
    idField.value = id;
    fields.push(idField);
    const start = segment.sourceStarts[doc]!;
    if (start >= 0) {
      sourceField.value = bytes.subarray(start, start + segment.sourceLengths[doc]!);
      fields.push(sourceField);
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

/**
 * The column with ords into the terms its documents use, in byte order: the dictionary may hold terms only the
 * postings have (a keyword indexed in one document, doc values only in another), which the column must not list.
 */
function sortedSetColumn(column: NonNullable<BufferedField['sortedSet']>, terms: SortedTermBytes): OrdinalSortedSetColumn {
  const ordOfTermId = new Int32Array(terms.size).fill(-1);
  const ords = column.ords;
  for (let i = 0; i < ords.length; i++) ordOfTermId[ords[i]!] = 0;
  const used: Uint8Array[] = [];
  for (let i = 0; i < terms.size; i++) {
    const termId = terms.order[i]!;
    if (ordOfTermId[termId] === 0) {
      ordOfTermId[termId] = used.length;
      used.push(terms.term(i));
    }
  }
  const mapped = new Int32Array(ords.length);
  for (let i = 0; i < ords.length; i++) mapped[i] = ordOfTermId[ords[i]!]!;
  return { docs: column.docs, counts: column.counts, ords: mapped, terms: used };
}

function writeFieldPostings(out: Parameters<Parameters<SegmentWriter['writePostings']>[1]>[0], field: BufferedField, terms: SortedTermBytes, pool: Int32Array): void {
  const postings = field.postings!;
  const order = terms.order;
  const withFreqs = field.indexLevel >= INDEX_FREQS;
  const withPositions = field.indexLevel === INDEX_POSITIONS;
  for (let i = 0; i < order.length; i++) {
    const termId = order[i]!;
    if (postings.started[termId] !== 1) continue;
    // The segment's own bytes, never changed: the term dictionary keeps them without a copy.
    out.startTerm(terms.term(i), true);
    // Inline slice walk (see IntSlicePool), the hottest loop of a flush: at a slice's last int (its link), jump to
    // the next slice. No closure: one per term, capturing the cursor, cost more than the walk itself.
    let position = postings.streamStart[termId]!;
    const end = postings.writePos[termId]!;
    let level = 0;
    let limit = position + SLICE_SIZES[0]! - 1;
    while (position !== end) {
      if (position === limit) {
        position = pool[limit]!;
        if (level < MAX_SLICE_LEVEL) level++;
        limit = position + SLICE_SIZES[level]! - 1;
      }
      const doc = pool[position++]!;
      let freq = 1;
      if (withFreqs) {
        if (position === limit) {
          position = pool[limit]!;
          if (level < MAX_SLICE_LEVEL) level++;
          limit = position + SLICE_SIZES[level]! - 1;
        }
        freq = pool[position++]!;
      }
      out.startDoc(doc, freq);
      if (withPositions) {
        for (let p = 0; p < freq; p++) {
          if (position === limit) {
            position = pool[limit]!;
            if (level < MAX_SLICE_LEVEL) level++;
            limit = position + SLICE_SIZES[level]! - 1;
          }
          out.addPosition(pool[position++]!);
        }
      }
    }
    out.finishTerm();
  }
}
