/** Random postings for the codec property tests, and a writer/reader pair over them. */
import fc from 'fast-check';
import { ByteWriter } from '../../../../src/engine/store/byte-writer.js';
import { finishCodecFile, startCodecFile } from '../../../../src/engine/codec/codec-file.js';
import { PostingsWriter } from '../../../../src/engine/codec/postings/postings-writer.js';
import { PostingsReader } from '../../../../src/engine/codec/postings/postings-reader.js';
import {
  POSTINGS_DOC_CODEC,
  POSTINGS_POS_CODEC,
  POSTINGS_VERSION_CURRENT,
  type TermState,
} from '../../../../src/engine/codec/postings/postings-format.js';

export const SEGMENT_ID = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');

export interface TermPostings {
  docs: number[];
  freqs: number[];
  positions: number[][] | null;
}

/** List lengths around block boundaries (127/128/129, two blocks) and anything else up to 600. */
export const postingsLength = fc.oneof(
  fc.constantFrom(1, 2, 3, 127, 128, 129, 255, 256, 257, 384, 385),
  fc.integer({ min: 1, max: 600 }),
);

/** Strictly increasing doc ids below `maxDoc`, from dense runs to gaps of a million. */
export function docIds(length: number, maxDoc: number): fc.Arbitrary<number[]> {
  const maxGap = Math.max(1, Math.floor((maxDoc - 1) / (length + 1)));
  const gap = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: Math.min(10, maxGap) }), fc.integer({ min: 1, max: Math.min(1_000_000, maxGap) }));
  return fc.tuple(fc.array(gap, { minLength: length, maxLength: length }), fc.double({ min: 0, max: 1, noNaN: true })).map(([gaps, startFraction]) => {
    const span = gaps.reduce((a, b) => a + b, 0);
    const start = Math.floor(startFraction * (maxDoc - 1 - span));
    const docs: number[] = [];
    let doc = start - 1;
    for (const g of gaps) docs.push((doc += g));
    return docs;
  });
}

export const bigFreq = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }));
const smallFreq = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 6 }));
/** Mostly small, sometimes more positions than a block (129+), so docs span packed position blocks. */
const positionsFreq = fc.oneof(
  { arbitrary: smallFreq, weight: 30 },
  { arbitrary: fc.integer({ min: 120, max: 300 }), weight: 1 },
);
// Small gaps (narrow packed blocks), up to 2^24 (read in place from the block) and up to 2^31 - 1.
const position = fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 2 ** 24 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }));

export function termPostings(maxDoc: number, withFreqs: boolean, withPositions: boolean): fc.Arbitrary<TermPostings> {
  return postingsLength.chain((length) =>
    fc
      .tuple(
        docIds(length, maxDoc),
        fc.array(withPositions ? positionsFreq : withFreqs ? bigFreq : fc.constant(1), { minLength: length, maxLength: length }),
      )
      .chain(([docs, freqs]): fc.Arbitrary<TermPostings> => {
        if (!withPositions) return fc.constant({ docs, freqs, positions: null });
        return fc
          .tuple(...freqs.map((freq) => fc.array(position, { minLength: freq, maxLength: freq }).map((p) => p.sort((a, b) => a - b))))
          .map((positions) => ({ docs, freqs, positions }));
      }),
  );
}

function frame(codec: string, body: ByteWriter, version: number): Buffer {
  const out = startCodecFile(codec, version, SEGMENT_ID);
  out.writeBytes(body.bytes());
  return finishCodecFile(out).bytes;
}

export function writeAndOpen(
  terms: TermPostings[],
  withFreqs: boolean,
  withPositions: boolean,
  norms: Uint8Array | null,
  /** Format to write (1: vInt positions, as older segments have them). */
  version = POSTINGS_VERSION_CURRENT,
): { reader: PostingsReader; states: TermState[]; docBytes: number; posBytes: number; files: { doc: Buffer; pos: Buffer } } {
  const docOut = new ByteWriter();
  const posOut = new ByteWriter();
  const writer = new PostingsWriter(docOut, posOut, version);
  writer.setField(withFreqs, withPositions, norms);
  const states = terms.map((term) => {
    writer.startTerm();
    for (let i = 0; i < term.docs.length; i++) {
      writer.startDoc(term.docs[i]!, term.freqs[i]!);
      if (term.positions !== null) for (const p of term.positions[i]!) writer.addPosition(p);
    }
    return writer.finishTerm();
  });
  const files = { doc: frame(POSTINGS_DOC_CODEC, docOut, version), pos: frame(POSTINGS_POS_CODEC, posOut, version) };
  const reader = new PostingsReader(files.doc, 'test.doc', files.pos, 'test.pos', SEGMENT_ID);
  return { reader, states, docBytes: docOut.length, posBytes: posOut.length, files };
}
