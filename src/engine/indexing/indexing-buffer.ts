/**
 * The indexing buffer of one shard (Lucene's DocumentsWriterPerThread, for the one JS thread): turns
 * ParsedDocuments into in-memory postings, norms, doc values and stored fields, until the engine writes
 * it out as a segment (see buffer-snapshot.ts and segment-jobs.ts).
 *
 * Per document it records, besides the mapped fields:
 *   `_id`      indexed (docs only, one term per document: how ids are looked up per segment) and stored
 *   `_source`  stored (ParsedDocument.storedSource), `_routing` and `_ignored` indexed and stored
 *   `_seq_no`, `_primary_term`, `_version`  numeric doc values (set by the engine once the seqNo is known)
 *
 * Errors while inverting a document (an immense term, say) leave its doc id in the buffer as deleted,
 * the way Lucene does: the structures stay consistent and the document is never visible.
 */
import { errors } from '../../common/errors.js';
import type { AnalysisRegistry, Analyzer } from '../../analysis/index.js';
import { lowerCaseTerm } from '../../analysis/index.js';
import type { IndexableField, TextField } from '../../mapping/index.js';
import type { StoredField } from '../codec/index.js';
import { FloatList } from '../util/growable.js';
import { FieldBuffer, indexLevelOf } from './field-buffer.js';
import { IntSlicePool } from './int-slice-pool.js';
import { SourceStore } from './source-store.js';
import { INDEX_DOCS } from './term-postings.js';
import { ID_FIELD, IGNORED_FIELD, ROUTING_FIELD } from '../searcher.js';
import { decodeDocumentFields, type BufferInputDocument } from './document-batch.js';

/** Lucene's IndexWriter.MAX_TERM_LENGTH: the longest term, in UTF-8 bytes. */
export const MAX_TERM_BYTES = 32766;
/** Lucene's IndexWriter.MAX_POSITION. */
const MAX_POSITION = 2147483647 - 128;

/** What the buffer keeps per document beyond the inverted fields. */
export interface BufferedDocMeta {
  readonly id: string;
  readonly routing: string | undefined;
  readonly ignored: readonly string[];
}

/**
 * What the engine writes documents into: an IndexingBuffer on this thread, or a RemoteBuffer whose
 * IndexingBuffer lives in an indexing worker (remote-buffer.ts). Doc ids are assigned in call order.
 */
export interface BufferSink {
  readonly numDocs: number;
  readonly isEmpty: boolean;
  /** Documents superseded (or failed) within the buffer. */
  readonly deletedDocs: ReadonlySet<number>;
  addDocument(id: string, document: BufferInputDocument): number;
  setMeta(doc: number, seqNo: number, primaryTerm: number, version: number): void;
  markDeleted(doc: number): void;
  ramBytesUsed(): number;
}

/**
 * Checks what could make a document fail to index, before any structure changes: unknown analyzers or
 * normalizers, and terms over Lucene's length limit (possible only in values over MAX_TERM_BYTES / 3
 * characters, which are analyzed here for that reason).
 */
export function prevalidate(document: BufferInputDocument, analyzers: AnalyzerLookup): void {
  const longTextsChecked = LONG_TEXTS_CHECKED.has(document);
  for (const field of document.fields) {
    if (field.kind === 'text' && field.indexed) {
      const analyzer = analyzers.analyzer(field.analyzer);
      if (field.value.length > MAX_TERM_BYTES / 3 && !longTextsChecked) {
        const stream = analyzer.tokenStream(field.value);
        while (stream.incrementToken()) if (stream.token.term.length > MAX_TERM_BYTES / 3) checkTermLength(field.field, stream.token.term);
        stream.end();
      }
    } else if (field.kind === 'keyword' && field.indexed) {
      const value = field.normalizer === null ? field.value : analyzers.normalize(field.normalizer, field.value);
      if (value.length > MAX_TERM_BYTES / 3) checkTermLength(field.field, value);
    }
  }
}

/** Documents whose long text values were checked ahead (checkLongTextValues): prevalidate need not analyze them. */
const LONG_TEXTS_CHECKED = new WeakSet<object>();

/** Whether prevalidate would have to analyze a text value of `document` (one long enough to hold an immense term). */
export function hasLongTextValues(document: BufferInputDocument): boolean {
  for (const field of document.fields) if (field.kind === 'text' && field.indexed && field.value.length > MAX_TERM_BYTES / 3) return true;
  return false;
}

/**
 * prevalidate's term-length check for the long text values of `document`, done ahead in slices (`pause`
 * between batches of tokens): a 95 MB text value takes seconds to tokenize, which must not hold the event
 * loop. Each value is analyzed with its own copy of the analyzer (a shared one may be used meanwhile).
 */
export async function checkLongTextValues(document: BufferInputDocument, analyzerFor: (name: string) => Analyzer, pause: () => Promise<void>): Promise<void> {
  for (const field of document.fields) {
    if (field.kind !== 'text' || !field.indexed || field.value.length <= MAX_TERM_BYTES / 3) continue;
    const shared = analyzerFor(field.analyzer);
    const stream = shared.with(shared.name, {}).tokenStream(field.value);
    let tokens = 0;
    while (stream.incrementToken()) {
      if (stream.token.term.length > MAX_TERM_BYTES / 3) checkTermLength(field.field, stream.token.term);
      if (++tokens % 4096 === 0) await pause();
    }
    stream.end();
  }
  LONG_TEXTS_CHECKED.add(document);
}

export class IndexingBuffer implements BufferSink {
  readonly pool = new IntSlicePool();
  readonly fields = new Map<string, FieldBuffer>();
  readonly sources = new SourceStore();
  readonly ids: string[] = [];
  readonly routings: (string | null)[] = [];
  readonly ignored: (readonly string[] | null)[] = [];
  /** Stored copies of mapped fields with `store: true`, per document (null: none). */
  readonly storedExtras: (StoredField[] | null)[] = [];
  readonly seqNos = new FloatList(1024);
  readonly primaryTerms = new FloatList(1024);
  readonly versions = new FloatList(1024);
  /** Documents superseded or failed within this buffer. */
  readonly deletedDocs = new Set<number>();
  /** Highest seqNo and lowest seqNo buffered (-1 when none). */
  maxSeqNo = -1;
  minSeqNo = -1;

  private readonly idField: FieldBuffer;
  private readonly touched: FieldBuffer[] = [];
  private fieldBytes = 0;
  private fieldBytesCheckedAt = 0;

  constructor(private readonly analyzers: AnalyzerLookup) {
    this.idField = this.field(ID_FIELD);
    this.idField.enableIndexing(INDEX_DOCS, false);
  }

  get numDocs(): number {
    return this.ids.length;
  }

  get isEmpty(): boolean {
    return this.ids.length === 0;
  }

  private field(name: string): FieldBuffer {
    let field = this.fields.get(name);
    if (field === undefined) {
      field = new FieldBuffer(name, this.pool);
      this.fields.set(name, field);
    }
    return field;
  }

  /**
   * Inverts `document` as the next doc id and returns that id. The engine sets the document's seqNo,
   * primary term and version right after with setMeta (before anything else can run).
   */
  addDocument(id: string, input: BufferInputDocument): number {
    // Fields encoded where a large document was parsed come back as objects here (this buffer reads objects).
    const document = input.encodedFields === undefined ? input : { ...input, fields: decodeDocumentFields(input.encodedFields), encodedFields: undefined };
    // Resolve every analyzer first: an unknown analyzer fails the request before the buffer changes.
    for (const field of document.fields) if (field.kind === 'text' && field.indexed) this.analyzers.analyzer(field.analyzer);
    const doc = this.ids.length;
    this.ids.push(id);
    this.routings.push(document.routing ?? null);
    this.ignored.push(document.ignored.length > 0 ? document.ignored : null);
    this.sources.add(document.storedSource);
    this.seqNos.push(-1);
    this.primaryTerms.push(0);
    this.versions.push(0);
    let extras: StoredField[] | null = null;
    const touched = this.touched;
    touched.length = 0;
    try {
      this.addTerm(this.idField, id, doc);
      if (document.routing !== undefined) this.addKeywordTerm(ROUTING_FIELD, document.routing, doc, INDEX_DOCS, false);
      for (const name of document.ignored) this.addKeywordTerm(IGNORED_FIELD, name, doc, INDEX_DOCS, false);
      for (const field of document.fields) {
        this.addField(field, doc);
        if (field.stored) (extras ??= []).push({ name: field.field, value: storedValue(field) });
      }
    } catch (err) {
      this.deletedDocs.add(doc);
      throw err;
    } finally {
      for (const field of touched) field.finishDocument(doc);
      this.storedExtras.push(extras);
    }
    return doc;
  }

  setMeta(doc: number, seqNo: number, primaryTerm: number, version: number): void {
    this.seqNos.set(doc, seqNo);
    this.primaryTerms.set(doc, primaryTerm);
    this.versions.set(doc, version);
    if (seqNo > this.maxSeqNo) this.maxSeqNo = seqNo;
    if (this.minSeqNo < 0 || seqNo < this.minSeqNo) this.minSeqNo = seqNo;
  }

  /** Marks a buffered document deleted (superseded by a later operation on its id, or failed). */
  markDeleted(doc: number): void {
    this.deletedDocs.add(doc);
  }

  private addField(field: IndexableField, doc: number): void {
    switch (field.kind) {
      case 'text':
        if (field.indexed) this.invertText(field, doc);
        return;
      case 'keyword': {
        const value = field.normalizer === null ? field.value : this.analyzers.normalize(field.normalizer, field.value);
        const buffer = this.field(field.field);
        let termId = -1;
        if (field.indexed) {
          buffer.enableIndexing(indexLevelOf(field.indexOptions), field.norms);
          termId = this.addTerm(buffer, value, doc);
        }
        if (field.docValues) buffer.enableSortedSet().add(doc, termId >= 0 ? termId : buffer.termId(value));
        return;
      }
      case 'long':
        if (field.docValues || field.indexed) this.field(field.field).enableSortedNumeric('long').addLong(doc, field.value);
        return;
      case 'double':
        if (!(field.docValues || field.indexed)) return;
        // scaled_float doc values are the scaled long, as Elasticsearch stores them.
        if (field.scaledValue !== undefined) this.field(field.field).enableSortedNumeric('long').addLong(doc, field.scaledValue);
        else this.field(field.field).enableSortedNumeric('double').addDouble(doc, field.value);
        return;
      case 'date':
        if (field.docValues || field.indexed) this.field(field.field).enableSortedNumeric('long').addLong(doc, field.epochMillis);
        return;
      case 'boolean': {
        const buffer = this.field(field.field);
        // Elasticsearch indexes booleans as the terms "T" and "F".
        if (field.indexed) {
          buffer.enableIndexing(INDEX_DOCS, false);
          this.addTerm(buffer, field.value ? 'T' : 'F', doc);
        }
        if (field.docValues) buffer.enableSortedNumeric('long').addLong(doc, field.value ? 1 : 0);
        return;
      }
      case 'date_nanos':
        // Nanoseconds past 1970-04-15 exceed 2^53: the column keeps them exactly as 64-bit longs.
        if (field.docValues || field.indexed) this.field(field.field).enableSortedNumeric('long').addLong(doc, field.epochNanos);
        return;
      case 'ip':
        // Like numbers, an indexed ip is searched through its doc values: a sorted set of 16-byte terms.
        if (field.docValues || field.indexed) this.addBytesValue(field.field, field.value, doc);
        else if (field.stored) this.addExistenceMarker(field.field, doc);
        return;
      case 'binary':
        if (field.docValues) this.addBytesValue(field.field, field.value, doc);
        else if (field.stored) this.addExistenceMarker(field.field, doc);
        return;
    }
  }

  /** A raw byte value in the field's sorted set doc values (the dictionary keys it by its latin1 string). */
  private addBytesValue(name: string, bytes: Uint8Array, doc: number): void {
    const buffer = this.field(name);
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    buffer.enableBytesSortedSet().add(doc, buffer.termId(key));
  }

  /**
   * A field with neither index nor doc values but a stored copy still answers `exists` (ES records it in
   * _field_names): one empty term per document, docs only. Nothing else searches these fields.
   */
  private addExistenceMarker(name: string, doc: number): void {
    const buffer = this.field(name);
    buffer.enableIndexing(INDEX_DOCS, false);
    this.addTerm(buffer, '', doc);
  }

  private addKeywordTerm(name: string, value: string, doc: number, level: number, norms: boolean): void {
    const buffer = this.field(name);
    buffer.enableIndexing(level, norms);
    this.addTerm(buffer, value, doc);
  }

  /** One untokenized value as one term (keyword, boolean, metadata); returns its term id. */
  private addTerm(buffer: FieldBuffer, term: string, doc: number): number {
    if (term.length > MAX_TERM_BYTES / 3) checkTermLength(buffer.name, term);
    if (buffer.beginDocument(doc)) this.touched.push(buffer);
    buffer.position++;
    buffer.length++;
    const termId = buffer.termId(term);
    if (buffer.postings!.add(termId, doc, buffer.position)) buffer.uniqueTerms++;
    return termId;
  }

  private invertText(field: TextField, doc: number): void {
    const buffer = this.field(field.field);
    const postings = buffer.enableIndexing(indexLevelOf(field.indexOptions), field.norms);
    if (buffer.beginDocument(doc)) this.touched.push(buffer);
    // Values after the first are separated by the gap (Lucene adds it after each value of a field).
    else buffer.position += field.positionIncrementGap;
    const stream = this.analyzers.analyzer(field.analyzer).tokenStream(field.value);
    const token = stream.token;
    const dictionary = buffer.dictionary;
    const ids = dictionary.ids;
    let position = buffer.position;
    let length = buffer.length;
    let numOverlap = buffer.numOverlap;
    let uniqueTerms = buffer.uniqueTerms;
    try {
      while (stream.incrementToken()) {
        const increment = token.positionIncrement;
        position += increment;
        if (increment === 0) numOverlap++;
        length++;
        const term = token.term;
        let termId = ids.get(term);
        if (termId === undefined) {
          if (term.length > MAX_TERM_BYTES / 3) checkTermLength(buffer.name, term);
          termId = dictionary.add(term);
        }
        if (postings.add(termId, doc, position)) uniqueTerms++;
      }
      stream.end();
      position += token.positionIncrement;
      if (position > MAX_POSITION) throw errors.illegalArgument(`position overflowed Integer.MAX_VALUE (field=${buffer.name})`);
    } finally {
      buffer.position = position;
      buffer.length = length;
      buffer.numOverlap = numOverlap;
      buffer.uniqueTerms = uniqueTerms;
    }
  }

  /** Estimated heap held by the buffer; recounts the per-field structures every 64 documents. */
  ramBytesUsed(): number {
    if (this.ids.length - this.fieldBytesCheckedAt >= 64 || this.fieldBytesCheckedAt === 0) {
      let bytes = 0;
      for (const field of this.fields.values()) bytes += field.bytesUsed;
      this.fieldBytes = bytes;
      this.fieldBytesCheckedAt = this.ids.length;
    }
    return this.pool.bytesUsed + this.sources.bytesUsed + this.fieldBytes + this.ids.length * 120;
  }

  metaOf(doc: number): BufferedDocMeta {
    return { id: this.ids[doc]!, routing: this.routings[doc] ?? undefined, ignored: this.ignored[doc] ?? [] };
  }
}

/** How the buffer finds analyzers and keyword normalizers (cached; see analyzer-lookup.ts). */
export interface AnalyzerLookup {
  analyzer(name: string): Analyzer;
  normalize(normalizer: string, value: string): string;
}

function checkTermLength(field: string, term: string): void {
  const bytes = Buffer.byteLength(term, 'utf8');
  if (bytes <= MAX_TERM_BYTES) return;
  const prefix = Buffer.from(term, 'utf8').subarray(0, 30);
  throw errors.illegalArgument(
    `Document contains at least one immense term in field="${field}" (whose UTF8 encoding is longer than the max length ${MAX_TERM_BYTES}), ` +
      `all of which were skipped.  Please correct the analyzer to not produce such terms.  The prefix of the first immense term is: ` +
      `'[${[...prefix].map((b) => (b << 24) >> 24).join(', ')}]...', original message: bytes can be at most ${MAX_TERM_BYTES} in length; got ${bytes}`,
  );
}

/** What the segment's stored fields keep of a `store: true` field (booleans as `T`/`F`, dates as epoch millis). */
export function storedValue(field: IndexableField): StoredField['value'] {
  switch (field.kind) {
    case 'text':
    case 'keyword':
      return field.value;
    case 'long': {
      const asNumber = Number(field.value);
      return Number.isSafeInteger(asNumber) ? asNumber : field.value;
    }
    case 'double':
      return field.value;
    case 'date':
      return field.epochMillis;
    case 'boolean':
      return field.value ? 'T' : 'F';
    case 'date_nanos':
      return field.epochNanos;
    case 'ip':
    case 'binary':
      return field.value;
  }
}

/** Caches analyzers by name; keyword normalizers by name (`lowercase` built in, others as analyzers). */
export class CachedAnalyzers implements AnalyzerLookup {
  private readonly analyzers = new Map<string, Analyzer>();

  constructor(private readonly registry: AnalysisRegistry) {}

  analyzer(name: string): Analyzer {
    let analyzer = this.analyzers.get(name);
    if (analyzer === undefined) {
      analyzer = this.registry.analyzer(name);
      this.analyzers.set(name, analyzer);
    }
    return analyzer;
  }

  normalize(normalizer: string, value: string): string {
    if (normalizer === 'lowercase') return lowerCaseTerm(value);
    // A normalizer yields exactly one token for the whole value (the keyword tokenizer and its filters).
    const found = this.registry.findAnalyzer(normalizer);
    if (found === undefined) throw errors.illegalArgument(`failed to find normalizer [${normalizer}]`);
    const stream = found.tokenStream(value);
    let out = value;
    if (stream.incrementToken()) out = stream.token.term;
    while (stream.incrementToken()) {
      /* drain */
    }
    stream.end();
    return out;
  }
}
