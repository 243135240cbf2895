/**
 * Parsed documents on their way to an indexing worker, in a compact form: the structured clone of plain
 * IndexableField objects costs about as much as inverting them, so fields travel as three flat streams
 * (ints, numbers, strings) plus one byte array of `_source`s, which postMessage moves cheaply.
 *
 *   per document:  ints    DOC SourceLength(-1: none) HasRouting IgnoredCount FieldCount
 *                  strings Id [Routing] Ignored*
 *   per field:     ints    Kind NameRef Flags ...kind-specific ints
 *     text         ints    IndexLevel Gap AnalyzerRef                     strings Value
 *     keyword      ints    IndexLevel NormalizerRef(-1: none)             strings Value
 *     long         ints    NumericType Big(0: numbers Value, 1: strings Decimal)
 *     double       ints    NumericType Scaled(0 none, 1 numbers, 2 strings)   numbers Value [Scaled]
 *     date         numbers EpochMillis
 *     boolean      ints    Value(0/1)
 *     date_nanos   strings EpochNanos (decimal)
 *     ip, binary   strings Bytes (latin1: one character per byte)
 * Names (fields, analyzers, normalizers) are interned per batch. The engine fills in seqNo, primary term
 * and version after a document is added (setMeta), before the batch is sent.
 */
import type { EncodedFields, IndexableField } from '../../mapping/index.js';
import { FloatList, IntList } from '../util/growable.js';
import { indexLevelOf, INDEX_OPTIONS_BY_LEVEL } from './field-buffer.js';

const KIND_TEXT = 1;
const KIND_KEYWORD = 2;
const KIND_LONG = 3;
const KIND_DOUBLE = 4;
const KIND_DATE = 5;
const KIND_BOOLEAN = 6;
const KIND_DATE_NANOS = 7;
const KIND_IP = 8;
const KIND_BINARY = 9;

const FLAG_INDEXED = 1;
const FLAG_DOC_VALUES = 2;
const FLAG_STORED = 4;
const FLAG_NORMS = 8;

const LONG_TYPES = ['long', 'integer', 'short', 'byte'] as const;
const DOUBLE_TYPES = ['double', 'float', 'half_float', 'scaled_float'] as const;

/** The document a worker rebuilds: what IndexingBuffer.addDocument reads. */
export interface BufferInputDocument {
  readonly routing: string | undefined;
  readonly ignored: readonly string[];
  readonly storedSource: Uint8Array | undefined;
  readonly fields: readonly IndexableField[];
  /** Fields encoded ahead (see ParsedDocument.encodedFields); `fields` is empty then. */
  readonly encodedFields?: EncodedFields;
}

export interface DocumentBatch {
  readonly ints: Int32Array;
  readonly numbers: Float64Array;
  readonly strings: string[];
  readonly names: string[];
  readonly sources: Uint8Array;
  readonly docCount: number;
  readonly seqNos: Float64Array;
  readonly primaryTerms: Float64Array;
  readonly versions: Float64Array;
  /** Buffer-wide doc ids to delete once this batch is applied (superseded or failed documents). */
  readonly deletes: Int32Array;
  /**
   * Strings of LONG_STRING_CHARS and more, moved out of `strings` (left empty there) as UTF-8 bytes that
   * postMessage transfers: cloning a 95 MB string held the event loop for ~0.4 s, encoding it costs a tenth.
   */
  readonly longStrings?: { readonly index: number; readonly utf8: Uint8Array }[];
}

/** From this length a batch's string travels to the worker as transferred UTF-8 bytes rather than cloned. */
export const LONG_STRING_CHARS = 1 << 20;

function flagsOf(field: IndexableField): number {
  let flags = 0;
  if (field.indexed) flags |= FLAG_INDEXED;
  if (field.kind !== 'text' && field.docValues) flags |= FLAG_DOC_VALUES;
  if (field.stored) flags |= FLAG_STORED;
  if ((field.kind === 'text' || field.kind === 'keyword') && field.norms) flags |= FLAG_NORMS;
  return flags;
}

export class BatchEncoder {
  private ints = new IntList(4096);
  private numbers = new FloatList(256);
  private strings: string[] = [];
  private names: string[] = [];
  private nameRefs = new Map<string, number>();
  private sources: Uint8Array<ArrayBufferLike> = new Uint8Array(64 * 1024);
  private sourcesUsed = 0;
  private meta = new FloatList(3 * 256);
  private deletes = new IntList(16);
  private docs = 0;
  /** Long strings an adopted document brought as UTF-8 bytes already (adoptEncoded). */
  private premoved: readonly { readonly index: number; readonly utf8: Uint8Array }[] = [];

  get docCount(): number {
    return this.docs;
  }

  /** Bytes this batch holds so far (to cut batches at a reasonable size). */
  get bytes(): number {
    return this.sourcesUsed + this.ints.length * 4 + this.numbers.length * 8 + this.strings.length * 32;
  }

  private nameRef(name: string): number {
    let ref = this.nameRefs.get(name);
    if (ref === undefined) {
      ref = this.names.length;
      this.names.push(name);
      this.nameRefs.set(name, ref);
    }
    return ref;
  }

  private appendSource(source: Uint8Array): void {
    const needed = this.sourcesUsed + source.length;
    if (needed > this.sources.length) {
      let capacity = this.sources.length * 2;
      while (capacity < needed) capacity *= 2;
      const grown = new Uint8Array(capacity);
      grown.set(this.sources.subarray(0, this.sourcesUsed));
      this.sources = grown;
    }
    this.sources.set(source, this.sourcesUsed);
    this.sourcesUsed = needed;
  }

  add(id: string, document: BufferInputDocument): void {
    if (document.encodedFields !== undefined) {
      this.addEncoded(id, document, document.encodedFields);
      return;
    }
    const strings = this.strings;
    const source = document.storedSource;
    const fields = document.fields;
    // Written straight into the typed arrays (room reserved up front: at most 6 ints and 2 numbers per field).
    const ints = this.ints.reserve(4 + 6 * fields.length);
    const numbers = this.numbers.reserve(2 * fields.length);
    let n = this.ints.length;
    let m = this.numbers.length;
    ints[n++] = source === undefined ? -1 : source.length;
    ints[n++] = document.routing === undefined ? 0 : 1;
    ints[n++] = document.ignored.length;
    ints[n++] = fields.length;
    strings.push(id);
    if (document.routing !== undefined) strings.push(document.routing);
    for (const name of document.ignored) strings.push(name);
    if (source !== undefined) this.appendSource(source);
    for (const field of fields) {
      const flags = flagsOf(field);
      switch (field.kind) {
        case 'text':
          ints[n++] = KIND_TEXT;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          ints[n++] = indexLevelOf(field.indexOptions);
          ints[n++] = field.positionIncrementGap;
          ints[n++] = this.nameRef(field.analyzer);
          strings.push(field.value);
          break;
        case 'keyword':
          ints[n++] = KIND_KEYWORD;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          ints[n++] = indexLevelOf(field.indexOptions);
          ints[n++] = field.normalizer === null ? -1 : this.nameRef(field.normalizer);
          strings.push(field.value);
          break;
        case 'long': {
          ints[n++] = KIND_LONG;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          ints[n++] = LONG_TYPES.indexOf(field.numericType);
          const asNumber = Number(field.value);
          if (Number.isSafeInteger(asNumber)) {
            ints[n++] = 0;
            numbers[m++] = asNumber;
          } else {
            ints[n++] = 1;
            strings.push(field.value.toString());
          }
          break;
        }
        case 'double': {
          ints[n++] = KIND_DOUBLE;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          ints[n++] = DOUBLE_TYPES.indexOf(field.numericType);
          numbers[m++] = field.value;
          if (field.scaledValue === undefined) {
            ints[n++] = 0;
          } else if (Number.isSafeInteger(Number(field.scaledValue))) {
            ints[n++] = 1;
            numbers[m++] = Number(field.scaledValue);
          } else {
            ints[n++] = 2;
            strings.push(field.scaledValue.toString());
          }
          break;
        }
        case 'date':
          ints[n++] = KIND_DATE;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          numbers[m++] = field.epochMillis;
          break;
        case 'boolean':
          ints[n++] = KIND_BOOLEAN;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          ints[n++] = field.value ? 1 : 0;
          break;
        case 'date_nanos':
          ints[n++] = KIND_DATE_NANOS;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          strings.push(field.epochNanos.toString());
          break;
        case 'ip':
        case 'binary':
          ints[n++] = field.kind === 'ip' ? KIND_IP : KIND_BINARY;
          ints[n++] = this.nameRef(field.field);
          ints[n++] = flags;
          strings.push(Buffer.from(field.value.buffer, field.value.byteOffset, field.value.byteLength).toString('latin1'));
          break;
      }
    }
    this.ints.length = n;
    this.numbers.length = m;
    this.meta.push(-1);
    this.meta.push(0);
    this.meta.push(0);
    this.docs++;
  }

  /**
   * A document whose fields were encoded where it was parsed: the header and source as add() writes them, then
   * the fields copied over with their name references moved to this batch's names.
   */
  private addEncoded(id: string, document: BufferInputDocument, encoded: EncodedFields): void {
    if (this.docs === 0 && this.ints.length === 0 && this.deletes.length === 0) {
      this.adoptEncoded(id, document, encoded);
      return;
    }
    const source = document.storedSource;
    // The encoded header: no source, routing flag, ignored count, field count; strings: id, [routing], ignored.
    const fieldCount = encoded.ints[3]!;
    const fieldStrings = 1 + encoded.ints[1]! + encoded.ints[2]!;
    const fieldInts = encoded.ints.length - 4;
    const ints = this.ints.reserve(4 + fieldInts);
    const numbers = this.numbers.reserve(encoded.numbers.length);
    let n = this.ints.length;
    ints[n++] = source === undefined ? -1 : source.length;
    ints[n++] = document.routing === undefined ? 0 : 1;
    ints[n++] = document.ignored.length;
    ints[n++] = fieldCount;
    this.strings.push(id);
    if (document.routing !== undefined) this.strings.push(document.routing);
    for (const name of document.ignored) this.strings.push(name);
    if (source !== undefined) this.appendSource(source);
    const refs = encoded.names.map((name) => this.nameRef(name));
    // The fields' ints are copied at once; name references are then moved only if this batch numbers the
    // names differently (a batch that starts with this document numbers them alike).
    ints.set(encoded.ints.subarray(4), n);
    if (refs.some((ref, local) => ref !== local)) {
      let i = n;
      for (let f = 0; f < fieldCount; f++) {
        const kind = ints[i]!;
        ints[i + 1] = refs[ints[i + 1]!]!;
        if (kind === KIND_TEXT) ints[i + 5] = refs[ints[i + 5]!]!;
        else if (kind === KIND_KEYWORD && ints[i + 4]! >= 0) ints[i + 4] = refs[ints[i + 4]!]!;
        i += kind === KIND_TEXT ? 6 : kind === KIND_DATE ? 3 : kind === KIND_BOOLEAN ? 4 : 5;
      }
    }
    n += fieldInts;
    const strings = restoreLongStrings(encoded);
    for (let s = fieldStrings; s < strings.length; s++) this.strings.push(strings[s]!);
    let m = this.numbers.length;
    numbers.set(encoded.numbers, m);
    m += encoded.numbers.length;
    this.ints.length = n;
    this.numbers.length = m;
    this.meta.push(-1);
    this.meta.push(0);
    this.meta.push(0);
    this.docs++;
  }

  /**
   * The encoded document becomes this (empty) batch as it is: its arrays are taken over instead of copied, which
   * for a document of 5,000,000 values is the difference between no work and a second of it. The worker wrote
   * the same routing and ignored fields; only the id and the source length differ.
   */
  private adoptEncoded(id: string, document: BufferInputDocument, encoded: EncodedFields): void {
    const ints = encoded.ints;
    const source = document.storedSource;
    ints[0] = source === undefined ? -1 : source.length;
    this.ints = IntList.adopt(ints);
    this.numbers = FloatList.adopt(encoded.numbers);
    this.strings = [...encoded.strings];
    this.strings[0] = id;
    this.names = [...encoded.names];
    this.nameRefs = new Map(this.names.map((name, ref) => [name, ref]));
    if (source !== undefined) {
      // Shared bytes (a large request body, decision 0019) are referenced: the worker reads them as they are.
      // Anything else is copied into a buffer sized to it (one copy, not the default buffer's growth by doubling).
      if (source.buffer instanceof SharedArrayBuffer) this.sources = source;
      else {
        this.sources = new Uint8Array(source.length);
        this.sources.set(source);
      }
      this.sourcesUsed = source.length;
    }
    // Long strings the parse worker already moved out as UTF-8 bytes stay that way (their slots hold '').
    this.premoved = encoded.longStrings ?? [];
    this.meta.push(-1);
    this.meta.push(0);
    this.meta.push(0);
    this.docs++;
  }

  /** Sets the metadata of the batch's `index`-th document. */
  setMeta(index: number, seqNo: number, primaryTerm: number, version: number): void {
    this.meta.set(index * 3, seqNo);
    this.meta.set(index * 3 + 1, primaryTerm);
    this.meta.set(index * 3 + 2, version);
  }

  markDeleted(doc: number): void {
    this.deletes.push(doc);
  }

  get isEmpty(): boolean {
    return this.docs === 0 && this.deletes.length === 0;
  }

  /**
   * The finished batch and the buffers postMessage may move instead of copying. The batch views the encoder's
   * own arrays (no copy of them): the encoder is done once finished, and is not used again.
   */
  finish(): { batch: DocumentBatch; transfer: ArrayBuffer[] } {
    const meta = this.meta.toArray();
    const seqNos = new Float64Array(this.docs);
    const primaryTerms = new Float64Array(this.docs);
    const versions = new Float64Array(this.docs);
    for (let i = 0; i < this.docs; i++) {
      seqNos[i] = meta[i * 3]!;
      primaryTerms[i] = meta[i * 3 + 1]!;
      versions[i] = meta[i * 3 + 2]!;
    }
    const batch: DocumentBatch = {
      ints: this.ints.values.subarray(0, this.ints.length),
      numbers: this.numbers.values.subarray(0, this.numbers.length),
      strings: this.strings,
      names: this.names,
      sources: this.sources.subarray(0, this.sourcesUsed),
      docCount: this.docs,
      seqNos,
      primaryTerms,
      versions,
      deletes: this.deletes.toArray(),
    };
    const transfer = [batch.ints.buffer, batch.numbers.buffer, seqNos.buffer, primaryTerms.buffer, versions.buffer, batch.deletes.buffer];
    // A shared source crosses as it is (it cannot be transferred, and the translog still holds it).
    if (!(batch.sources.buffer instanceof SharedArrayBuffer)) transfer.push(batch.sources.buffer);
    const longStrings = [...this.premoved, ...moveLongStrings(this.strings)];
    if (longStrings.length === 0) return { batch, transfer: transfer as ArrayBuffer[] };
    for (const moved of longStrings) transfer.push(moved.utf8.buffer as ArrayBuffer);
    return { batch: { ...batch, longStrings }, transfer: transfer as ArrayBuffer[] };
  }
}

/** Takes the long strings out of `strings` (in place: the encoder is finished) as UTF-8 bytes of their own. */
function moveLongStrings(strings: string[]): { index: number; utf8: Uint8Array }[] {
  const moved: { index: number; utf8: Uint8Array }[] = [];
  for (let index = 0; index < strings.length; index++) {
    const value = strings[index]!;
    if (value.length < LONG_STRING_CHARS) continue;
    // A buffer of its own (not Node's shared pool), so it can be transferred.
    const utf8 = new Uint8Array(Buffer.byteLength(value));
    Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength).write(value);
    moved.push({ index, utf8 });
    strings[index] = '';
  }
  return moved;
}

/** The encoded fields' strings with any long string moved out as UTF-8 bytes put back. */
function restoreLongStrings(encoded: EncodedFields): readonly string[] {
  if (encoded.longStrings === undefined || encoded.longStrings.length === 0) return encoded.strings;
  const strings = [...encoded.strings];
  for (const moved of encoded.longStrings) strings[moved.index] = Buffer.from(moved.utf8.buffer, moved.utf8.byteOffset, moved.utf8.byteLength).toString('utf8');
  return strings;
}

/** Rebuilds each document of a batch, in order, with its metadata. */
export function* decodeBatch(batch: DocumentBatch): Generator<{ id: string; document: BufferInputDocument; seqNo: number; primaryTerm: number; version: number }> {
  const { ints, numbers, names, sources } = batch;
  const strings = batch.strings;
  for (const moved of batch.longStrings ?? []) strings[moved.index] = Buffer.from(moved.utf8.buffer, moved.utf8.byteOffset, moved.utf8.byteLength).toString('utf8');
  let i = 0;
  let n = 0;
  let s = 0;
  let sourceOffset = 0;
  for (let doc = 0; doc < batch.docCount; doc++) {
    const sourceLength = ints[i++]!;
    const hasRouting = ints[i++]! === 1;
    const ignoredCount = ints[i++]!;
    const fieldCount = ints[i++]!;
    const id = strings[s++]!;
    const routing = hasRouting ? strings[s++]! : undefined;
    const ignored = strings.slice(s, s + ignoredCount);
    s += ignoredCount;
    let storedSource: Uint8Array | undefined;
    if (sourceLength >= 0) {
      storedSource = sources.subarray(sourceOffset, sourceOffset + sourceLength);
      sourceOffset += sourceLength;
    }
    const fields: IndexableField[] = new Array(fieldCount);
    for (let f = 0; f < fieldCount; f++) {
      const kind = ints[i++]!;
      const field = names[ints[i++]!]!;
      const flags = ints[i++]!;
      const indexed = (flags & FLAG_INDEXED) !== 0;
      const docValues = (flags & FLAG_DOC_VALUES) !== 0;
      const stored = (flags & FLAG_STORED) !== 0;
      const norms = (flags & FLAG_NORMS) !== 0;
      switch (kind) {
        case KIND_TEXT: {
          const level = ints[i++]!;
          const positionIncrementGap = ints[i++]!;
          const analyzer = names[ints[i++]!]!;
          const indexOptions = INDEX_OPTIONS_BY_LEVEL[level] as 'docs' | 'freqs' | 'positions';
          fields[f] = { kind: 'text', field, value: strings[s++]!, indexed, stored, analyzer, positionIncrementGap, indexOptions, norms };
          break;
        }
        case KIND_KEYWORD: {
          const level = ints[i++]!;
          const normalizerRef = ints[i++]!;
          const indexOptions = INDEX_OPTIONS_BY_LEVEL[level] as 'docs' | 'freqs';
          const normalizer = normalizerRef < 0 ? null : names[normalizerRef]!;
          fields[f] = { kind: 'keyword', field, value: strings[s++]!, indexed, docValues, stored, normalizer, norms, indexOptions };
          break;
        }
        case KIND_LONG: {
          const numericType = LONG_TYPES[ints[i++]!]!;
          const value = ints[i++]! === 0 ? BigInt(numbers[n++]!) : BigInt(strings[s++]!);
          fields[f] = { kind: 'long', field, indexed, docValues, stored, numericType, value };
          break;
        }
        case KIND_DOUBLE: {
          const numericType = DOUBLE_TYPES[ints[i++]!]!;
          const value = numbers[n++]!;
          const scaled = ints[i++]!;
          const scaledValue = scaled === 0 ? undefined : scaled === 1 ? BigInt(numbers[n++]!) : BigInt(strings[s++]!);
          fields[f] = scaledValue === undefined
            ? { kind: 'double', field, indexed, docValues, stored, numericType, value }
            : { kind: 'double', field, indexed, docValues, stored, numericType, value, scaledValue };
          break;
        }
        case KIND_DATE:
          fields[f] = { kind: 'date', field, indexed, docValues, stored, epochMillis: numbers[n++]! };
          break;
        case KIND_BOOLEAN:
          fields[f] = { kind: 'boolean', field, indexed, docValues, stored, value: ints[i++]! === 1 };
          break;
        case KIND_DATE_NANOS:
          fields[f] = { kind: 'date_nanos', field, indexed, docValues, stored, epochNanos: BigInt(strings[s++]!) };
          break;
        case KIND_IP:
        case KIND_BINARY:
          fields[f] = { kind: kind === KIND_IP ? 'ip' : 'binary', field, indexed, docValues, stored, value: new Uint8Array(Buffer.from(strings[s++]!, 'latin1')) };
          break;
        default:
          throw new Error(`unknown field kind ${kind} in a document batch`);
      }
    }
    yield {
      id,
      document: { routing, ignored, storedSource, fields },
      seqNo: batch.seqNos[doc]!,
      primaryTerm: batch.primaryTerms[doc]!,
      version: batch.versions[doc]!,
    };
  }
}

/** A document's fields encoded for another batch (a parse worker's answer): a one-document batch without source. */
export function encodeDocumentFields(document: BufferInputDocument): { encoded: EncodedFields; transfer: ArrayBuffer[] } {
  const encoder = new BatchEncoder();
  encoder.add('', { ...document, storedSource: undefined });
  const { batch } = encoder.finish();
  // Long strings (a 95 MB text value) leave as the UTF-8 bytes finish() moved them to, which postMessage
  // transfers: a string is cloned, and its copy on the receiving side held the event loop. (They must travel:
  // finish() left '' in their slots.)
  const longStrings = batch.longStrings ?? [];
  const encoded: EncodedFields = { ints: batch.ints.slice(), numbers: batch.numbers.slice(), strings: batch.strings, names: batch.names, ...(longStrings.length > 0 && { longStrings }) };
  return { encoded, transfer: [encoded.ints.buffer as ArrayBuffer, encoded.numbers.buffer as ArrayBuffer, ...longStrings.map((moved) => moved.utf8.buffer as ArrayBuffer)] };
}

/** The field objects of encoded fields (for a buffer on this thread, which reads objects). */
export function decodeDocumentFields(encoded: EncodedFields): IndexableField[] {
  const batch: DocumentBatch = {
    ints: encoded.ints,
    numbers: encoded.numbers,
    strings: [...restoreLongStrings(encoded)],
    names: [...encoded.names],
    sources: new Uint8Array(0),
    docCount: 1,
    seqNos: new Float64Array(1),
    primaryTerms: new Float64Array(1),
    versions: new Float64Array(1),
    deletes: new Int32Array(0),
  };
  for (const { document } of decodeBatch(batch)) return [...document.fields];
  return [];
}
