/** Opens a segment's term dictionary (and, through PostingsReader, its postings): field name -> FieldTerms. */
import { openCodecFile, openToc } from '../codec-file.js';
import { PostingsReader } from '../postings/postings-reader.js';
import { FieldTerms } from './field-terms.js';
import { FIELD_FLAG_FREQS, FIELD_FLAG_POSITIONS, TERMS_CODEC, TERMS_VERSION_CURRENT, TERMS_VERSION_START } from './terms-format.js';

export interface TermsFiles {
  terms: { bytes: Buffer; resource: string };
  doc: { bytes: Buffer; resource: string };
  pos: { bytes: Buffer; resource: string };
}

export class TermsReader {
  private readonly fields = new Map<string, FieldTerms>();

  constructor(files: TermsFiles, segmentId: Uint8Array) {
    const file = openCodecFile(files.terms.bytes, files.terms.resource, {
      codec: TERMS_CODEC,
      minVersion: TERMS_VERSION_START,
      maxVersion: TERMS_VERSION_CURRENT,
      segmentId,
    });
    const postings = new PostingsReader(files.doc.bytes, files.doc.resource, files.pos.bytes, files.pos.resource, segmentId);
    const toc = openToc(file.body);
    const sections = file.body.slice(file.body.start, toc.start);
    const fieldCount = toc.readCount();
    for (let i = 0; i < fieldCount; i++) {
      const name = toc.readString();
      const flags = toc.readByte();
      const termCount = toc.readVLong();
      const sumDocFreq = toc.readVLong();
      const sumTotalTermFreq = toc.readVLong();
      const docCount = toc.readVInt();
      const indexFP = toc.readUInt64LE();
      const minTerm = toc.readLengthPrefixedBytes();
      const maxTerm = toc.readLengthPrefixedBytes();
      if (sections.start + indexFP >= sections.end) throw toc.corrupt(`index of field [${name}] at ${indexFP} lies outside the term blocks`);
      if (sumDocFreq < termCount || sumTotalTermFreq < sumDocFreq) {
        throw toc.corrupt(`inconsistent statistics for field [${name}]: terms=${termCount} sumDocFreq=${sumDocFreq} sumTotalTermFreq=${sumTotalTermFreq}`);
      }
      const stats = { docCount, sumDocFreq, sumTotalTermFreq, termCount };
      this.fields.set(
        name,
        new FieldTerms(
          name,
          (flags & FIELD_FLAG_FREQS) !== 0,
          (flags & FIELD_FLAG_POSITIONS) !== 0,
          stats,
          minTerm,
          maxTerm,
          indexFP,
          sections,
          postings,
        ),
      );
    }
    if (toc.remaining !== 0) throw toc.corrupt(`${toc.remaining} unexpected bytes after the fields table`);
  }

  /** The field's terms, or undefined when no document of the segment indexed it. */
  terms(field: string): FieldTerms | undefined {
    return this.fields.get(field);
  }

  fieldNames(): string[] {
    return [...this.fields.keys()];
  }
}
