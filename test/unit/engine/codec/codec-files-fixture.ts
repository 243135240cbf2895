/** One small, valid file of every codec format, with the function that opens it: for corruption tests. */
import { FieldsWriter } from '../../../../src/engine/codec/terms/fields-writer.js';
import { TermsReader } from '../../../../src/engine/codec/terms/terms-reader.js';
import { NormsWriter } from '../../../../src/engine/codec/norms/norms-writer.js';
import { NormsReader } from '../../../../src/engine/codec/norms/norms-reader.js';
import { DocValuesWriter } from '../../../../src/engine/codec/docvalues/doc-values-writer.js';
import { DocValuesReader } from '../../../../src/engine/codec/docvalues/doc-values-reader.js';
import { StoredFieldsWriter } from '../../../../src/engine/codec/stored/stored-fields-writer.js';
import { StoredFieldsReader } from '../../../../src/engine/codec/stored/stored-fields-reader.js';
import { LiveDocs, readLiveDocs, writeLiveDocs } from '../../../../src/engine/codec/livedocs/live-docs.js';
import { readSegmentInfo, writeSegmentInfo, CODEC_VERSION } from '../../../../src/engine/codec/segment/segment-info.js';
import { POSTINGS_POSITIONS } from '../../../../src/engine/codec/postings/postings-format.js';
import { SEGMENT_ID } from './postings-fixtures.js';

export interface CodecFileFixture {
  name: string;
  bytes: Buffer;
  /** Opens the file and reads everything in it (so damage that slips past a check would show). */
  open: (bytes: Buffer) => void;
}

const MAX_DOC = 300;

export function codecFileFixtures(): CodecFileFixture[] {
  const fields = new FieldsWriter(MAX_DOC);
  fields.startField('body', 'positions', new Uint8Array(MAX_DOC).fill(3));
  for (const [term, docs] of [
    ['apple', [1]],
    ['banana', [0, 2, 3]],
    ['cherry', Array.from({ length: 200 }, (_, i) => i)],
  ] as const) {
    fields.startTerm(Buffer.from(term));
    for (const doc of docs) {
      fields.startDoc(doc, 2);
      fields.addPosition(1);
      fields.addPosition(4);
    }
    fields.finishTerm();
  }
  fields.finishField();
  const inverted = fields.finish(SEGMENT_ID);
  const readAllPostings = (tim: Buffer, doc: Buffer, pos: Buffer): void => {
    const reader = new TermsReader(
      { terms: { bytes: tim, resource: '_0.tim' }, doc: { bytes: doc, resource: '_0.doc' }, pos: { bytes: pos, resource: '_0.pos' } },
      SEGMENT_ID,
    );
    const termsEnum = reader.terms('body')!.iterator();
    while (termsEnum.next()) {
      const postings = termsEnum.postings(POSTINGS_POSITIONS);
      postings.impacts();
      while (postings.nextDoc() !== 0x7fffffff) for (let i = 0; i < postings.freq(); i++) postings.nextPosition();
    }
  };

  const norms = new NormsWriter(MAX_DOC);
  norms.addField('body', Uint8Array.from({ length: MAX_DOC }, (_, i) => i % 7));

  const docValues = new DocValuesWriter(SEGMENT_ID, MAX_DOC);
  docValues.addNumeric('n', { kind: 'long', docs: Int32Array.of(1, 5, 9), values: BigInt64Array.of(-5n, 10n, 2n ** 60n) });
  docValues.addNumeric('d', { kind: 'double', docs: Int32Array.of(0, 1), values: Float64Array.of(0.5, NaN) });
  docValues.addSorted('k', { docs: Int32Array.of(0, 1, 2), values: ['b', 'a', 'b'] });
  docValues.addSortedSet('t', { docs: Int32Array.of(3), values: [['x', 'y']] });
  docValues.addSortedNumeric('m', { kind: 'long', docs: Int32Array.of(4), counts: Int32Array.of(2), values: Float64Array.of(3, 1) });
  const dvBytes = docValues.finish().bytes;

  // Tiny blocks and chunks, so the fixture holds several of each (and dictionaries).
  const smallBlocks = { dictionaryBlockBytes: 256, blockBytes: 512, blocksPerChunk: 3, maxDocsPerBlock: 16 };
  const stored = new StoredFieldsWriter(SEGMENT_ID, 'lz4', smallBlocks);
  for (let doc = 0; doc < MAX_DOC; doc++) {
    stored.addDocument([
      { name: '_id', value: `id-${doc}` },
      { name: '_source', value: Buffer.from(JSON.stringify({ n: doc, text: 'some text '.repeat(doc % 5) })) },
    ]);
  }
  const deflated = new StoredFieldsWriter(SEGMENT_ID, 'deflate_fast', smallBlocks);
  for (let doc = 0; doc < MAX_DOC; doc++) deflated.addDocument([{ name: '_id', value: `id-${doc}` }, { name: '_source', value: Buffer.from(`{"n":${doc}}`) }]);
  const readAllStored = (bytes: Buffer): void => {
    const reader = new StoredFieldsReader(bytes, '_0.fdt', SEGMENT_ID, MAX_DOC);
    for (let doc = 0; doc < MAX_DOC; doc++) reader.document(doc);
  };

  const liveDocs = LiveDocs.allLive(MAX_DOC).withDeleted([0, 7, 299]);

  const info = writeSegmentInfo({
    name: '_0',
    id: SEGMENT_ID,
    maxDoc: MAX_DOC,
    codecVersion: CODEC_VERSION,
    fields: [{ name: 'body', number: 0, indexOptions: 'positions', hasNorms: true, docValues: 'none', stats: { docCount: 3, sumDocFreq: 4, sumTotalTermFreq: 8, termCount: 2 } }],
    files: [{ name: '_0.tim', length: 100, checksum: 12345 }],
    attributes: { a: 'b' },
  });

  return [
    { name: '_0.tim', bytes: inverted.terms.bytes, open: (b) => readAllPostings(b, inverted.doc.bytes, inverted.pos.bytes) },
    { name: '_0.doc', bytes: inverted.doc.bytes, open: (b) => readAllPostings(inverted.terms.bytes, b, inverted.pos.bytes) },
    { name: '_0.pos', bytes: inverted.pos.bytes, open: (b) => readAllPostings(inverted.terms.bytes, inverted.doc.bytes, b) },
    { name: '_0.nvd', bytes: norms.finish(SEGMENT_ID).bytes, open: (b) => void new NormsReader(b, '_0.nvd', SEGMENT_ID, MAX_DOC) },
    { name: '_0.dvd', bytes: dvBytes, open: (b) => void new DocValuesReader(b, '_0.dvd', SEGMENT_ID, MAX_DOC) },
    { name: '_0.fdt', bytes: stored.finish().bytes, open: readAllStored },
    { name: '_0.fdt(deflate)', bytes: deflated.finish().bytes, open: readAllStored },
    { name: '_0_1.liv', bytes: writeLiveDocs(SEGMENT_ID, 1, liveDocs).bytes, open: (b) => void readLiveDocs(b, '_0_1.liv', SEGMENT_ID, 1, MAX_DOC) },
    { name: '_0.si', bytes: info.bytes, open: (b) => void readSegmentInfo(b, '_0.si', SEGMENT_ID) },
  ];
}
