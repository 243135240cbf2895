/**
 * Writes one complete segment: drives every format writer, then writes the segment info listing the files
 * with their lengths and checksums. This is the codec's whole write-side surface for the indexing buffer
 * and for merges:
 *
 *   const writer = new SegmentWriter({ name: '_0', maxDoc, fields })
 *   writer.setNorms('body', norms)                    -- before the field's postings
 *   writer.writePostings('body', (out) => { out.startTerm(...); out.startDoc(...); ...; out.finishTerm() })
 *   writer.docValues.addNumeric(...); writer.stored.addDocument(...) for every doc
 *   const info = await writer.finish(directory)       -- files are written but not yet synced
 */
import { randomBytes } from 'node:crypto';
import type { Directory } from '../../store/directory.js';
import { SEGMENT_ID_LENGTH } from '../codec-file.js';
import { DocValuesWriter } from '../docvalues/doc-values-writer.js';
import { NormsWriter } from '../norms/norms-writer.js';
import type { StoredCompression } from '../stored/compression.js';
import { StoredFieldsWriter } from '../stored/stored-fields-writer.js';
import { FieldsWriter } from '../terms/fields-writer.js';
import type { DocValuesType, FieldInfo, FieldStats, IndexOptions } from './field-info.js';
import { segmentFileName, SegmentFileExtensions } from './file-names.js';
import { CODEC_VERSION, writeSegmentInfo, type SegmentFile, type SegmentInfo } from './segment-info.js';

export interface FieldSpec {
  readonly name: string;
  readonly indexOptions: IndexOptions;
  readonly hasNorms: boolean;
  readonly docValues: DocValuesType;
}

export interface SegmentWriterOptions {
  readonly name: string;
  readonly maxDoc: number;
  readonly fields: readonly FieldSpec[];
  readonly storedCompression?: StoredCompression;
  /** A fresh random id unless given (tests). */
  readonly id?: Uint8Array;
  readonly attributes?: Readonly<Record<string, string>>;
}

export class SegmentWriter {
  readonly id: Uint8Array;
  readonly docValues: DocValuesWriter;
  readonly stored: StoredFieldsWriter;
  private readonly specs = new Map<string, FieldSpec>();
  private readonly norms = new Map<string, Uint8Array>();
  private readonly stats = new Map<string, FieldStats>();
  private readonly postings: FieldsWriter;
  private finished = false;

  constructor(private readonly options: SegmentWriterOptions) {
    if (!/^[A-Za-z0-9_]+$/.test(options.name)) throw new RangeError(`invalid segment name [${options.name}]`);
    if (!Number.isInteger(options.maxDoc) || options.maxDoc < 0 || options.maxDoc >= 0x7fffffff) {
      throw new RangeError(`maxDoc out of range: ${options.maxDoc}`);
    }
    this.id = options.id ?? randomBytes(SEGMENT_ID_LENGTH);
    for (const spec of options.fields) {
      if (this.specs.has(spec.name)) throw new RangeError(`field [${spec.name}] declared twice`);
      if (spec.hasNorms && spec.indexOptions === 'none') throw new RangeError(`field [${spec.name}] has norms but is not indexed`);
      this.specs.set(spec.name, spec);
    }
    this.postings = new FieldsWriter(options.maxDoc);
    this.docValues = new DocValuesWriter(this.id, options.maxDoc);
    this.stored = new StoredFieldsWriter(this.id, options.storedCompression ?? 'deflate_fast');
  }

  private spec(name: string): FieldSpec {
    const spec = this.specs.get(name);
    if (spec === undefined) throw new RangeError(`field [${name}] is not declared in this segment`);
    return spec;
  }

  /** Norm bytes of an indexed field with norms, one per doc (see norms/small-float.ts). */
  setNorms(field: string, norms: Uint8Array): void {
    if (!this.spec(field).hasNorms) throw new RangeError(`field [${field}] has no norms`);
    if (this.stats.has(field)) throw new Error(`norms of [${field}] must be set before its postings`);
    if (norms.length !== this.options.maxDoc) throw new RangeError(`norms of [${field}] must have ${this.options.maxDoc} entries`);
    this.norms.set(field, norms);
  }

  /** Writes an indexed field's terms and postings through `write` (see FieldsWriter for the call order). */
  writePostings(field: string, write: (out: FieldsWriter) => void): FieldStats {
    const spec = this.spec(field);
    if (spec.indexOptions === 'none') throw new RangeError(`field [${field}] is not indexed`);
    const norms = spec.hasNorms ? (this.norms.get(field) ?? new Uint8Array(this.options.maxDoc)) : null;
    this.postings.startField(field, spec.indexOptions, norms);
    write(this.postings);
    const stats = this.postings.finishField();
    this.stats.set(field, stats);
    return stats;
  }

  async finish(directory: Directory): Promise<SegmentInfo> {
    if (this.finished) throw new Error('segment already finished');
    this.finished = true;
    if (this.stored.numDocs !== this.options.maxDoc) {
      throw new Error(`stored fields hold ${this.stored.numDocs} docs, segment has ${this.options.maxDoc}`);
    }
    const name = this.options.name;
    const normsWriter = new NormsWriter(this.options.maxDoc);
    for (const spec of this.specs.values()) {
      if (spec.hasNorms) normsWriter.addField(spec.name, this.norms.get(spec.name) ?? new Uint8Array(this.options.maxDoc));
    }
    const inverted = this.postings.finish(this.id);
    const outputs: Array<[string, { bytes: Buffer; checksum: number }]> = [
      [SegmentFileExtensions.terms, inverted.terms],
      [SegmentFileExtensions.doc, inverted.doc],
      [SegmentFileExtensions.pos, inverted.pos],
      [SegmentFileExtensions.norms, normsWriter.finish(this.id)],
      [SegmentFileExtensions.docValues, this.docValues.finish()],
      [SegmentFileExtensions.stored, this.stored.finish()],
    ];
    const files: SegmentFile[] = [];
    for (const [extension, { bytes, checksum }] of outputs) {
      const fileName = segmentFileName(name, extension);
      await directory.writeFile(fileName, bytes);
      files.push({ name: fileName, length: bytes.length, checksum });
    }
    const fields: FieldInfo[] = [...this.specs.values()].map((spec, number) => ({
      name: spec.name,
      number,
      indexOptions: spec.indexOptions,
      hasNorms: spec.hasNorms,
      docValues: spec.docValues,
      stats:
        spec.indexOptions === 'none' ? null : (this.stats.get(spec.name) ?? { docCount: 0, sumDocFreq: 0, sumTotalTermFreq: 0, termCount: 0 }),
    }));
    const info: SegmentInfo = {
      name,
      id: this.id,
      maxDoc: this.options.maxDoc,
      codecVersion: CODEC_VERSION,
      fields,
      files,
      attributes: { 'stored.compression': this.options.storedCompression ?? 'deflate_fast', ...this.options.attributes },
    };
    await directory.writeFile(segmentFileName(name, SegmentFileExtensions.segmentInfo), writeSegmentInfo(info).bytes);
    return info;
  }
}
