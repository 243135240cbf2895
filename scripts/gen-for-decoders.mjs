#!/usr/bin/env node
/**
 * Generates src/engine/codec/packed/for-decoders.ts: one straight-line decoder per bit width 1..32 for the
 * packed postings blocks of for-util.ts (128 values of b bits, little-endian 32-bit words, value i at bit i * b).
 *
 *   node scripts/gen-for-decoders.mjs          # rewrites the file
 *   node scripts/gen-for-decoders.mjs --check  # exits 1 if the checked-in file differs
 *
 * Why generated code (as Lucene's ForUtil is): with b fixed, every shift and mask is a constant and whether a
 * value straddles two words is known, so each value costs one or two shifts, an and, and a store; the generic
 * loop paid a variable shift, an extra load and an or for every value. 32 values fill exactly b words, so each
 * decoder is a loop of 4 groups of 32 statements (a fully unrolled 128 was no faster in V8 and 4x the code),
 * each word loaded just before its first use (2-10% faster than loading a group's words up front, same process).
 * Words are read straight from the file through a DataView (TurboFan inlines getUint32 to one load), so
 * blocks at any byte offset decode without first copying their words; figures in bench/micro/for-unpack.ts.
 * Three variants per width, because V8 runs a second pass over the 128 values at about 1 ns per value, more
 * than the straight-line decode itself: plain (doc gaps read raw, positions), plus `add` (freqs, stored minus
 * one), and running doc ids (doc gaps minus one, summed in the same pass).
 * The unit test test/unit/engine/codec/packed-for-decoders.test.ts checks the file is up to date.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const GENERATED_PATH = 'src/engine/codec/packed/for-decoders.ts';

const hex = (value) => `0x${value.toString(16)}`;

/** The expression of value `index` (0..31) of a group of 32 values of `bits` bits held in words w0..w{bits-1}. */
function valueExpression(bits, index) {
  const bit = index * bits;
  const word = bit >>> 5;
  const shift = bit & 31;
  const mask = hex(2 ** bits - 1);
  if (bits === 32) return `w${word} | 0`;
  if (shift + bits > 32) return `((w${word} >>> ${shift}) | (w${word + 1} << ${32 - shift})) & ${mask}`;
  // Ends exactly at the word's top: the unsigned shift leaves nothing above the value to mask.
  if (shift + bits === 32) return `w${word} >>> ${shift}`;
  return shift === 0 ? `w${word} & ${mask}` : `(w${word} >>> ${shift}) & ${mask}`;
}

function decoder(bits) {
  const lines = [`function decode${bits}(view: DataView, offset: number, out: Int32Array): void {`];
  lines.push(...groupLoop(bits, (index) => `out[${slot(index)}] = ${valueExpression(bits, index)};`));
  lines.push('}');
  return lines.join('\n');
}

/** Freq blocks store each freq minus one: adding in the decoding pass costs far less than a second loop. */
function addingDecoder(bits) {
  const lines = [`function decodePlus${bits}(view: DataView, offset: number, out: Int32Array, add: number): void {`];
  lines.push(...groupLoop(bits, (index) => `out[${slot(index)}] = (${valueExpression(bits, index)}) + add;`));
  lines.push('}');
  return lines.join('\n');
}

/** Doc blocks store each gap minus one: the running sum is kept in the same pass as the decode. */
function deltaDecoder(bits) {
  const lines = [`function decodeDeltas${bits}(view: DataView, offset: number, out: Int32Array, base: number): number {`, '  let doc = base;'];
  lines.push(...groupLoop(bits, (index) => `out[${slot(index)}] = doc = doc + (${valueExpression(bits, index)}) + 1;`));
  lines.push('  return doc;', '}');
  return lines.join('\n');
}

/** Width 0 doc blocks: every gap is 1. Straight-line too: a loop over the typed array runs ~3x slower. */
function consecutiveDocs() {
  const lines = ['export function consecutiveDocs(out: Int32Array, base: number): number {'];
  lines.push('  for (let i = 0, doc = base + 1; i < 128; i += 32, doc += 32) {');
  for (let index = 0; index < 32; index++) lines.push(`    out[${slot(index)}] = ${index === 0 ? 'doc' : `doc + ${index}`};`);
  lines.push('  }', '  return base + 128;', '}');
  return lines.join('\n');
}

const slot = (index) => (index === 0 ? 'i' : `i + ${index}`);

/** 4 groups of 32 values, each group reading its `bits` words first, then one statement per value. */
function groupLoop(bits, statement) {
  const lines = [`  for (let at = offset, i = 0; i < 128; at += ${4 * bits}, i += 32) {`];
  let wordsRead = 0;
  for (let index = 0; index < 32; index++) {
    // Each word is loaded just before its first use, so few are live at once.
    const lastWord = bits === 0 ? -1 : ((index + 1) * bits - 1) >>> 5;
    for (; wordsRead <= lastWord; wordsRead++) lines.push(`    const w${wordsRead} = view.getUint32(${wordsRead === 0 ? 'at' : `at + ${4 * wordsRead}`}, true);`);
    lines.push(`    ${statement(index)}`);
  }
  lines.push('  }');
  return lines;
}

export function generateForDecoders() {
  const widths = Array.from({ length: 32 }, (_, i) => i + 1);
  return [
    '// GENERATED by scripts/gen-for-decoders.mjs: do not edit. Regenerate with `node scripts/gen-for-decoders.mjs`',
    '// (a unit test fails while this file differs from the generator\'s output).',
    '/**',
    ' * Straight-line decoders of a packed block of 128 values, one per width b, reading the 16 * b bytes at',
    ' * `offset` of `view`. DECODERS[b] writes the values to out[0..127], ADDING_DECODERS[b] each value plus `add`;',
    ' * DELTA_DECODERS[b] treats them as doc gaps minus one and writes the running doc ids from `base`',
    ' * (out[i] = out[i - 1] + value + 1), returning the last. Width 0 has no decoder (the block is all zeros and',
    ' * has no bytes); consecutiveDocs writes the doc ids of such a doc block. Why three tables and how: the',
    ' * generator\'s header.',
    ' */',
    '',
    'export type PackedBlockDecoder = (view: DataView, offset: number, out: Int32Array) => void;',
    'export type PackedAddingDecoder = (view: DataView, offset: number, out: Int32Array, add: number) => void;',
    'export type PackedDeltaDecoder = (view: DataView, offset: number, out: Int32Array, base: number) => number;',
    '',
    'function noBytesToDecode(): never {',
    "  throw new RangeError('width 0 has no packed bytes to decode');",
    '}',
    '',
    ...widths.map((bits) => `${decoder(bits)}\n`),
    ...widths.map((bits) => `${addingDecoder(bits)}\n`),
    ...widths.map((bits) => `${deltaDecoder(bits)}\n`),
    `${consecutiveDocs()}\n`,
    '/** Indexed by bit width; index 0 is never called (see BlockUnpacker). */',
    'export const DECODERS: readonly PackedBlockDecoder[] = [',
    '  noBytesToDecode,',
    ...widths.map((bits) => `  decode${bits},`),
    '];',
    '',
    '/** Indexed by bit width; index 0 is never called (see BlockUnpacker). */',
    'export const ADDING_DECODERS: readonly PackedAddingDecoder[] = [',
    '  noBytesToDecode,',
    ...widths.map((bits) => `  decodePlus${bits},`),
    '];',
    '',
    '/** Indexed by bit width; index 0 is never called (see BlockUnpacker). */',
    'export const DELTA_DECODERS: readonly PackedDeltaDecoder[] = [',
    '  noBytesToDecode,',
    ...widths.map((bits) => `  decodeDeltas${bits},`),
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = fileURLToPath(new URL(`../${GENERATED_PATH}`, import.meta.url));
  const text = generateForDecoders();
  if (process.argv.includes('--check')) {
    const current = readFileSync(target, 'utf8');
    if (current !== text) {
      console.error(`${GENERATED_PATH} is out of date: run node scripts/gen-for-decoders.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
  }
}
