/**
 * Micro-benchmark: BlockUnpacker.unpack per bit width, against the generic decoder it replaced (kept below,
 * verbatim in behaviour: copy the block's words through a DataView, then a variable-shift loop), both timed
 * in this one process with their runs interleaved, so machine load hits both alike. Not a test; prints a
 * table (ns per 128-value block, best of RUNS) and a JSON line.
 *
 *   npx tsc -p . --outDir /tmp/build-x && node /tmp/build-x/bench/micro/for-unpack.js [--widths 1,2,3]
 *
 * Blocks sit at unaligned offsets (after a width byte, as in the postings files) and at 4-byte aligned ones.
 * A second table times doc blocks: unpack followed by the prefix sum to doc ids (as a caller does it by
 * hand) against unpackDocDeltas, which sums in the decoding pass; both with the generated decoders.
 */
import { ByteWriter } from '../../src/engine/store/byte-writer.js';
import { BLOCK_SIZE, BlockUnpacker, packBlock, packedBlockBytes } from '../../src/engine/codec/packed/for-util.js';

const RUNS = 15;
const BLOCKS = 256;
const REPEATS = 20;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const widths = (option('--widths') ?? Array.from({ length: 33 }, (_, b) => b).join(','))
  .split(',')
  .map(Number);

/** The decoder before the generated ones, for an A/B in the same process. */
class GenericBlockUnpacker {
  private readonly words = new Uint32Array(BLOCK_SIZE + 1);
  private source: Uint8Array | null = null;
  private sourceView: DataView | null = null;

  unpack(source: Uint8Array, offset: number, bitsPerValue: number, out: Int32Array): void {
    if (bitsPerValue === 0) {
      out.fill(0, 0, BLOCK_SIZE);
      return;
    }
    const byteCount = packedBlockBytes(bitsPerValue);
    if (offset < 0 || offset + byteCount > source.length) throw new RangeError('packed block outside the source');
    if (source !== this.source) {
      this.source = source;
      this.sourceView = new DataView(source.buffer, source.byteOffset, source.byteLength);
    }
    const view = this.sourceView!;
    const words = this.words;
    const wordCount = byteCount >>> 2;
    for (let w = 0; w < wordCount; w++) words[w] = view.getUint32(offset + 4 * w, true);
    words[wordCount] = 0;
    const mask = bitsPerValue === 32 ? -1 : 2 ** bitsPerValue - 1;
    if (32 % bitsPerValue === 0) {
      let i = 0;
      for (let w = 0; w < 4 * bitsPerValue; w++) {
        const word = words[w]!;
        for (let shift = 0; shift < 32; shift += bitsPerValue) out[i++] = (word >>> shift) & mask;
      }
      return;
    }
    let bitPosition = 0;
    for (let i = 0; i < BLOCK_SIZE; i++) {
      const wordIndex = bitPosition >>> 5;
      const shift = bitPosition & 31;
      out[i] = ((words[wordIndex]! >>> shift) | ((words[wordIndex + 1]! << (31 - shift)) << 1)) & mask;
      bitPosition += bitsPerValue;
    }
  }
}

/** BLOCKS random blocks of width `bits`, each after a width byte (unaligned) or at a multiple of 4. */
function blocksOf(bits: number, aligned: boolean): { bytes: Buffer; offsets: number[] } {
  const out = new ByteWriter(1 << 16);
  const offsets: number[] = [];
  const values = new Int32Array(BLOCK_SIZE);
  let seed = bits * 7919 + 1;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let block = 0; block < BLOCKS; block++) {
    for (let i = 0; i < BLOCK_SIZE; i++) values[i] = bits === 32 ? random() | 0 : random() % 2 ** bits;
    if (!aligned) out.writeByte(bits);
    offsets.push(out.length);
    packBlock(values, bits, out);
  }
  return { bytes: out.toBuffer(), offsets };
}

interface Decoder {
  unpack(source: Uint8Array, offset: number, bitsPerValue: number, out: Int32Array): void;
}
const generic = new GenericBlockUnpacker();
const generated = new BlockUnpacker();
const scratch = new Int32Array(BLOCK_SIZE);
const expected = new Int32Array(BLOCK_SIZE);

function nsPerBlock(decoder: Decoder, bits: number, bytes: Buffer, offsets: number[]): number {
  const start = process.hrtime.bigint();
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    for (let k = 0; k < offsets.length; k++) decoder.unpack(bytes, offsets[k]!, bits, scratch);
  }
  return Number(process.hrtime.bigint() - start) / (REPEATS * offsets.length);
}

const rows: { bits: number; aligned: boolean; genericNs: number; generatedNs: number; speedup: number }[] = [];
for (const aligned of [false, true]) {
  for (const bits of widths) {
    const { bytes, offsets } = blocksOf(bits, aligned);
    for (const offset of offsets) {
      generic.unpack(bytes, offset, bits, expected);
      generated.unpack(bytes, offset, bits, scratch);
      if (!scratch.every((value, i) => value === expected[i])) throw new Error(`decoders disagree at width ${bits}, offset ${offset}`);
    }
    let genericNs = Infinity;
    let generatedNs = Infinity;
    for (let run = 0; run < RUNS; run++) {
      genericNs = Math.min(genericNs, nsPerBlock(generic, bits, bytes, offsets));
      generatedNs = Math.min(generatedNs, nsPerBlock(generated, bits, bytes, offsets));
    }
    rows.push({ bits, aligned, genericNs, generatedNs, speedup: genericNs / generatedNs });
  }
}

/** unpack, then the running sum of gaps minus one, in the caller's loop. */
function decodeThenSum(bytes: Buffer, offsets: number[], bits: number): number {
  const docs = scratch; // a local, as in a reader's loop (a module binding is reloaded on every access)
  const unpacker = generated;
  let last = 0;
  for (let k = 0; k < offsets.length; k++) {
    unpacker.unpack(bytes, offsets[k]!, bits, docs);
    let doc = k;
    for (let i = 0; i < BLOCK_SIZE; i++) docs[i] = doc += docs[i]! + 1;
    last = doc;
  }
  return last;
}

function decodeDeltas(bytes: Buffer, offsets: number[], bits: number): number {
  const docs = scratch;
  const unpacker = generated;
  let last = 0;
  for (let k = 0; k < offsets.length; k++) last = unpacker.unpackDocDeltas(bytes, offsets[k]!, bits, docs, k);
  return last;
}

function nsPerDocBlock(decode: typeof decodeDeltas, bits: number, bytes: Buffer, offsets: number[]): number {
  const start = process.hrtime.bigint();
  for (let repeat = 0; repeat < REPEATS; repeat++) decode(bytes, offsets, bits);
  return Number(process.hrtime.bigint() - start) / (REPEATS * offsets.length);
}

const deltaRows: { bits: number; unpackThenSumNs: number; unpackDocDeltasNs: number; speedup: number }[] = [];
for (const bits of widths.filter((b) => b < 32)) {
  const { bytes, offsets } = blocksOf(bits, false);
  if (decodeThenSum(bytes, offsets, bits) !== decodeDeltas(bytes, offsets, bits)) throw new Error(`doc decoders disagree at width ${bits}`);
  let unpackThenSumNs = Infinity;
  let unpackDocDeltasNs = Infinity;
  for (let run = 0; run < RUNS; run++) {
    unpackThenSumNs = Math.min(unpackThenSumNs, nsPerDocBlock(decodeThenSum, bits, bytes, offsets));
    unpackDocDeltasNs = Math.min(unpackDocDeltasNs, nsPerDocBlock(decodeDeltas, bits, bytes, offsets));
  }
  deltaRows.push({ bits, unpackThenSumNs, unpackDocDeltasNs, speedup: unpackThenSumNs / unpackDocDeltasNs });
}

console.log(`BlockUnpacker.unpack, ns per block of 128, best of ${RUNS}, runs interleaved:`);
console.log('  width  offsets    generic  generated  speedup');
for (const row of rows) {
  console.log(
    `  ${String(row.bits).padStart(5)}  ${(row.aligned ? 'aligned' : 'unaligned').padEnd(9)}  ${row.genericNs.toFixed(0).padStart(7)}  ${row.generatedNs.toFixed(0).padStart(9)}  ${row.speedup.toFixed(2).padStart(6)}x`,
  );
}
const geometricMean = (values: number[]): number => Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
console.log(`  geometric mean speedup over widths 1..32: ${geometricMean(rows.filter((r) => r.bits > 0).map((r) => r.speedup)).toFixed(2)}x`);
console.log(`doc blocks (unaligned), ns per block of 128, best of ${RUNS}, runs interleaved:`);
console.log('  width  unpack+sum  unpackDocDeltas  speedup');
for (const row of deltaRows) {
  console.log(`  ${String(row.bits).padStart(5)}  ${row.unpackThenSumNs.toFixed(0).padStart(10)}  ${row.unpackDocDeltasNs.toFixed(0).padStart(15)}  ${row.speedup.toFixed(2).padStart(6)}x`);
}
console.log(JSON.stringify({ rows, deltaRows }));
