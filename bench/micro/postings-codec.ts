/**
 * Micro-benchmark: postings encoding on the Debian corpus (`description` field, lower-cased alphanumeric
 * tokens). Not a test; prints a table and a JSON line.
 *
 *   npx tsc -p . --outDir /tmp/build-codec && node /tmp/build-codec/bench/micro/postings-codec.js
 *
 * 1. Block codec, the format choice: every full block of 128 doc deltas and 128 freqs in the corpus,
 *    encoded as frame-of-reference bit-packing (what the postings format uses) and as LEB128 vInts
 *    (the alternative), then decoded into an Int32Array(128) over and over. Reports bytes per integer and
 *    decoded millions of integers (and MB of int32) per second.
 * 2. End to end: write every term's postings with PostingsWriter, then iterate them all through the
 *    PostingsEnum (nextDoc + freq), and advance() through the longest lists.
 * 3. Term dictionary: bytes per term, seekExact latency, full iteration speed.
 */
import { ByteWriter } from '../../src/engine/store/byte-writer.js';
import { BLOCK_SIZE, BlockUnpacker, blockBitsRequired, packBlock } from '../../src/engine/codec/packed/for-util.js';
import { PostingsWriter } from '../../src/engine/codec/postings/postings-writer.js';
import { PostingsReader } from '../../src/engine/codec/postings/postings-reader.js';
import { finishCodecFile, startCodecFile } from '../../src/engine/codec/codec-file.js';
import {
  NO_MORE_DOCS,
  POSTINGS_DOC_CODEC,
  POSTINGS_FREQS,
  POSTINGS_POS_CODEC,
  POSTINGS_VERSION_CURRENT,
  type TermState,
} from '../../src/engine/codec/postings/postings-format.js';
import { FieldsWriter } from '../../src/engine/codec/terms/fields-writer.js';
import { TermsReader } from '../../src/engine/codec/terms/terms-reader.js';
import { readCorpusLines, tokenize } from './corpus.js';

const RUNS = 9;
const SEGMENT_ID = Buffer.alloc(16, 1);

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Best of RUNS after a warm-up: the least disturbed run, stable on a shared machine. */
function timeBest(fn: () => void): number {
  fn();
  return Math.min(...Array.from({ length: RUNS }, () => time(fn)));
}

// ---- build postings from the corpus ----
const lines = readCorpusLines();
const postings = new Map<string, { docs: number[]; freqs: number[] }>();
lines.forEach((line, doc) => {
  const description = (JSON.parse(line.toString('utf8')) as { description?: string }).description ?? '';
  const counts = new Map<string, number>();
  for (const token of tokenize(description)) counts.set(token, (counts.get(token) ?? 0) + 1);
  for (const [term, freq] of counts) {
    let list = postings.get(term);
    if (list === undefined) postings.set(term, (list = { docs: [], freqs: [] }));
    list.docs.push(doc);
    list.freqs.push(freq);
  }
});
const terms = [...postings.keys()].sort();
const totalPostings = terms.reduce((sum, t) => sum + postings.get(t)!.docs.length, 0);

// ---- 1. block codec: FOR vs vInt on the corpus's full blocks ----
const blocks: Int32Array[] = [];
for (const term of terms) {
  const { docs, freqs } = postings.get(term)!;
  for (let start = 0; start + BLOCK_SIZE <= docs.length; start += BLOCK_SIZE) {
    const deltas = new Int32Array(BLOCK_SIZE);
    const freqBlock = new Int32Array(BLOCK_SIZE);
    let previous = start === 0 ? -1 : docs[start - 1]!;
    for (let i = 0; i < BLOCK_SIZE; i++) {
      deltas[i] = docs[start + i]! - previous - 1;
      previous = docs[start + i]!;
      freqBlock[i] = freqs[start + i]! - 1;
    }
    blocks.push(deltas, freqBlock);
  }
}
const blockInts = blocks.length * BLOCK_SIZE;

const forOut = new ByteWriter(1 << 20);
const forOffsets: number[] = [];
const encodeFor = (): void => {
  forOut.reset();
  forOffsets.length = 0;
  for (const block of blocks) {
    forOffsets.push(forOut.length);
    const bits = blockBitsRequired(block);
    forOut.writeByte(bits);
    packBlock(block, bits, forOut);
  }
};
const varOut = new ByteWriter(1 << 20);
const encodeVar = (): void => {
  varOut.reset();
  for (const block of blocks) for (let i = 0; i < BLOCK_SIZE; i++) varOut.writeVInt(block[i]!);
};
/** Best of RUNS for two functions, alternating runs so both see the same machine load. */
function timeBestPair(a: () => void, b: () => void): [number, number] {
  a();
  b();
  let bestA = Infinity;
  let bestB = Infinity;
  for (let run = 0; run < RUNS * 2; run++) {
    bestA = Math.min(bestA, time(a));
    bestB = Math.min(bestB, time(b));
  }
  return [bestA, bestB];
}

const [forEncodeSeconds, varEncodeSeconds] = timeBestPair(encodeFor, encodeVar);
const forBytes = forOut.toBuffer();
const varBytes = varOut.toBuffer();

const unpacker = new BlockUnpacker();
const scratch = new Int32Array(BLOCK_SIZE);
let checksum = 0;
const decodeFor = (): void => {
  let pos = 0;
  for (let b = 0; b < blocks.length; b++) {
    const bits = forBytes[pos]!;
    unpacker.unpack(forBytes, pos + 1, bits, scratch);
    pos += 1 + 16 * bits;
    checksum += scratch[127]!;
  }
};
const decodeVar = (): void => {
  const bytes = varBytes;
  let pos = 0;
  for (let b = 0; b < blocks.length; b++) {
    for (let i = 0; i < BLOCK_SIZE; i++) {
      let byte = bytes[pos++]!;
      let value = byte & 0x7f;
      for (let shift = 7; byte >= 0x80; shift += 7) {
        byte = bytes[pos++]!;
        value |= (byte & 0x7f) << shift;
      }
      scratch[i] = value;
    }
    checksum += scratch[127]!;
  }
};
const [forDecodeSeconds, varDecodeSeconds] = timeBestPair(decodeFor, decodeVar);

// ---- 2. end to end through PostingsWriter / PostingsEnum ----
let states: TermState[] = [];
let reader: PostingsReader | null = null;
let docFileBytes = 0;
const writeAll = (): void => {
  const docOut = new ByteWriter(1 << 20);
  const posOut = new ByteWriter(16);
  const writer = new PostingsWriter(docOut, posOut);
  writer.setField(true, false, null);
  states = terms.map((term) => {
    const { docs, freqs } = postings.get(term)!;
    writer.startTerm();
    for (let i = 0; i < docs.length; i++) writer.startDoc(docs[i]!, freqs[i]!);
    return writer.finishTerm();
  });
  const frame = (codec: string, body: ByteWriter): Buffer => {
    const out = startCodecFile(codec, POSTINGS_VERSION_CURRENT, SEGMENT_ID);
    out.writeBytes(body.bytes());
    return finishCodecFile(out).bytes;
  };
  const docFile = frame(POSTINGS_DOC_CODEC, docOut);
  docFileBytes = docFile.length;
  reader = new PostingsReader(docFile, 'bench.doc', frame(POSTINGS_POS_CODEC, posOut), 'bench.pos', SEGMENT_ID);
};
const writeSeconds = timeBest(writeAll);
const iterateAll = (): void => {
  let reuse;
  for (const state of states) {
    const cursor = reader!.postings(state, true, false, POSTINGS_FREQS, reuse);
    reuse = cursor;
    for (let doc = cursor.nextDoc(); doc !== NO_MORE_DOCS; doc = cursor.nextDoc()) checksum += cursor.freq();
  }
};
const iterateSeconds = timeBest(iterateAll);
const longest = states
  .map((state, i) => ({ state, i }))
  .sort((a, b) => b.state.docFreq - a.state.docFreq)
  .slice(0, 20);
let advanceCalls = 0;
const advanceLongest = (): void => {
  advanceCalls = 0;
  for (const { state } of longest) {
    const cursor = reader!.postings(state, true, false, POSTINGS_FREQS);
    for (let doc = cursor.advance(0); doc !== NO_MORE_DOCS; doc = cursor.advance(doc + 1 + ((doc * 7919) % 500))) advanceCalls++;
  }
};
const advanceSeconds = timeBest(advanceLongest);

// ---- 3. term dictionary: the same field through FieldsWriter / TermsReader ----
const fieldsWriter = new FieldsWriter(lines.length);
fieldsWriter.startField('description', 'freqs', null);
for (const term of terms) {
  const { docs, freqs } = postings.get(term)!;
  fieldsWriter.startTerm(Buffer.from(term));
  for (let i = 0; i < docs.length; i++) fieldsWriter.startDoc(docs[i]!, freqs[i]!);
  fieldsWriter.finishTerm();
}
fieldsWriter.finishField();
const fieldFiles = fieldsWriter.finish(SEGMENT_ID);
const termsReader = new TermsReader(
  {
    terms: { bytes: fieldFiles.terms.bytes, resource: 'bench.tim' },
    doc: { bytes: fieldFiles.doc.bytes, resource: 'bench.doc' },
    pos: { bytes: fieldFiles.pos.bytes, resource: 'bench.pos' },
  },
  SEGMENT_ID,
);
const fieldTerms = termsReader.terms('description')!;
const probes = terms.map((t, i) => Buffer.from(i % 2 === 0 ? t : `${t}~`)); // half present, half absent
const shuffled = probes.map((p, i) => probes[(i * 7919) % probes.length]!);
const seekSeconds = timeBest(() => {
  for (const probe of shuffled) if (fieldTerms.seekExact(probe) !== null) checksum++;
});
const iterateTermsSeconds = timeBest(() => {
  const termsEnum = fieldTerms.iterator();
  while (termsEnum.next()) checksum += termsEnum.docFreq();
});

const mb = (bytes: number): number => bytes / 1e6;
const results = {
  corpus: { docs: lines.length, terms: terms.length, postings: totalPostings },
  blockCodec: {
    blocks: blocks.length,
    integers: blockInts,
    for: {
      bytesPerInt: forBytes.length / blockInts,
      encodeMIntsPerSec: blockInts / forEncodeSeconds / 1e6,
      decodeMIntsPerSec: blockInts / forDecodeSeconds / 1e6,
      decodeMBPerSec: mb(blockInts * 4) / forDecodeSeconds,
    },
    vint: {
      bytesPerInt: varBytes.length / blockInts,
      encodeMIntsPerSec: blockInts / varEncodeSeconds / 1e6,
      decodeMIntsPerSec: blockInts / varDecodeSeconds / 1e6,
      decodeMBPerSec: mb(blockInts * 4) / varDecodeSeconds,
    },
  },
  endToEnd: {
    docFileBytes,
    bytesPerPosting: docFileBytes / totalPostings,
    writeMPostingsPerSec: totalPostings / writeSeconds / 1e6,
    iterateMPostingsPerSec: totalPostings / iterateSeconds / 1e6,
    advanceCallsPerSec: advanceCalls / advanceSeconds,
  },
  termDictionary: {
    termsFileBytes: fieldFiles.terms.bytes.length,
    bytesPerTerm: fieldFiles.terms.bytes.length / terms.length,
    termBytesRaw: terms.reduce((sum, t) => sum + Buffer.byteLength(t), 0),
    seekExactMicros: (seekSeconds / shuffled.length) * 1e6,
    iterateMTermsPerSec: terms.length / iterateTermsSeconds / 1e6,
  },
  checksum,
};

const f = (n: number, digits = 2): string => n.toFixed(digits);
console.log(`corpus: ${results.corpus.docs} docs, ${results.corpus.terms} terms, ${results.corpus.postings} postings (description)`);
console.log(`block codec on ${blocks.length} full blocks (${blockInts} ints: doc deltas and freqs), best of ${RUNS * 2}, the two codecs' runs interleaved:`);
console.log('  codec  bytes/int  encode Mint/s  decode Mint/s  decode MB/s(int32)');
for (const [name, r] of [['FOR', results.blockCodec.for], ['vInt', results.blockCodec.vint]] as const) {
  console.log(`  ${name.padEnd(5)}  ${f(r.bytesPerInt, 3).padStart(9)}  ${f(r.encodeMIntsPerSec, 1).padStart(13)}  ${f(r.decodeMIntsPerSec, 1).padStart(13)}  ${f(r.decodeMBPerSec, 0).padStart(18)}`);
}
console.log('end to end (PostingsWriter / PostingsEnum, docs + freqs, skip data and impacts included):');
console.log(`  doc file ${results.endToEnd.docFileBytes} bytes = ${f(results.endToEnd.bytesPerPosting, 3)} bytes/posting`);
console.log(`  write ${f(results.endToEnd.writeMPostingsPerSec)} M postings/s, iterate (nextDoc+freq) ${f(results.endToEnd.iterateMPostingsPerSec)} M postings/s`);
console.log(`  advance() on the 20 longest lists: ${f(results.endToEnd.advanceCallsPerSec / 1e6)} M calls/s`);
const td = results.termDictionary;
console.log(`term dictionary: ${td.termsFileBytes} bytes = ${f(td.bytesPerTerm)} bytes/term (term bytes alone: ${td.termBytesRaw}), stats and pointers included`);
console.log(`  seekExact (random order, half absent): ${f(td.seekExactMicros)} µs/seek; full iteration ${f(td.iterateMTermsPerSec)} M terms/s`);
console.log(JSON.stringify(results));
