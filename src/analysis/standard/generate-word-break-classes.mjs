#!/usr/bin/env node
// Generates the character-class table the standard tokenizer's scanner runs on (word-break-classes.ts).
//
// Lucene 9 (Elasticsearch 8) builds StandardTokenizerImpl with JFlex `%unicode 12.1`, so the Word_Break,
// Script, Line_Break and emoji properties it sees are those of Unicode 12.1. This script reads them from the
// node-unicode-data packages (generated from the UCD files of that version), so the table can be checked
// against the standard's own data, not against Node's built-in (newer) Unicode.
//
//   npm install --no-save --prefix /tmp/unicode-data @unicode/unicode-12.1.0 @unicode/unicode-11.0.0 @unicode/unicode-9.0.0
//   node src/analysis/standard/generate-word-break-classes.mjs /tmp/unicode-data/node_modules > src/analysis/standard/word-break-classes.ts
//   node src/analysis/standard/generate-word-break-classes.mjs /tmp/unicode-data/node_modules --lucene8 \
//     > test/unit/analysis/fixtures/lucene8-word-break-classes.ts
//
// `--lucene8` produces the table of Lucene 8's grammar instead (Unicode 9.0 word-break data, emoji data of
// Unicode 11, fullwidth digits added to Numeric); it exists only for the differential test against a real
// Lucene 8 (test/unit/analysis/oracle/), which checks the scanner machinery against Lucene's own.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const args = process.argv.slice(2);
const lucene8 = args.includes('--lucene8');
const modulesDir = args.find((a) => !a.startsWith('--'));
if (!modulesDir) {
  console.error('usage: generate-word-break-classes.mjs <node_modules dir holding @unicode/*> [--lucene8]');
  process.exit(1);
}
const ucdVersion = lucene8 ? '9.0.0' : '12.1.0';
const emojiVersion = lucene8 ? '11.0.0' : '12.1.0';

async function codePoints(version, property) {
  const url = pathToFileURL(join(modulesDir, '@unicode', `unicode-${version}`, property, 'code-points.mjs'));
  return (await import(url.href)).default;
}

/** The properties the grammar mentions; order = bit number in a class mask. Must match standard-grammar.ts. */
const PROPERTIES = [
  ['ALetter', ucdVersion, 'Word_Break/ALetter'],
  ['Hebrew_Letter', ucdVersion, 'Word_Break/Hebrew_Letter'],
  ['Numeric', ucdVersion, 'Word_Break/Numeric'],
  ['Katakana', ucdVersion, 'Word_Break/Katakana'],
  ['MidLetter', ucdVersion, 'Word_Break/MidLetter'],
  ['MidNumLet', ucdVersion, 'Word_Break/MidNumLet'],
  ['Single_Quote', ucdVersion, 'Word_Break/Single_Quote'],
  ['Double_Quote', ucdVersion, 'Word_Break/Double_Quote'],
  ['MidNum', ucdVersion, 'Word_Break/MidNum'],
  ['ExtendNumLet', ucdVersion, 'Word_Break/ExtendNumLet'],
  ['Format', ucdVersion, 'Word_Break/Format'],
  ['Extend', ucdVersion, 'Word_Break/Extend'],
  ['ZWJ', ucdVersion, 'Word_Break/ZWJ'],
  ['Regional_Indicator', ucdVersion, 'Word_Break/Regional_Indicator'],
  ['Hangul', ucdVersion, 'Script/Hangul'],
  ['Han', ucdVersion, 'Script/Han'],
  ['Hiragana', ucdVersion, 'Script/Hiragana'],
  ['Complex_Context', ucdVersion, 'Line_Break/Complex_Context'],
  ['Emoji', emojiVersion, 'Binary_Property/Emoji'],
  ['Emoji_Modifier', emojiVersion, 'Binary_Property/Emoji_Modifier'],
  ['Emoji_Modifier_Base', emojiVersion, 'Binary_Property/Emoji_Modifier_Base'],
  ['Extended_Pictographic', emojiVersion, 'Binary_Property/Extended_Pictographic'],
];
/** Single characters and small ranges the grammar names literally. */
const LITERALS = [
  ['KeyCapBase', [0x23, 0x2a, ...range(0x30, 0x39)]],
  ['KeyCap', [0x20e3]],
  ['TextPresentationSelector', [0xfe0e]],
  ['EmojiPresentationSelector', [0xfe0f]],
  ['AccidentalEmoji', [0xa9, 0xae, 0x2122, 0x3030, 0x303d]],
  ['TagSpec', range(0xe0020, 0xe007e)],
  ['TagTerm', [0xe007f]],
];

function range(from, to) {
  const out = [];
  for (let c = from; c <= to; c++) out.push(c);
  return out;
}

const masks = new Uint32Array(0x110000);
let bit = 0;
for (const [, version, property] of PROPERTIES) {
  for (const cp of await codePoints(version, property)) masks[cp] |= 1 << bit;
  bit++;
}
if (lucene8) {
  // Lucene 8's grammar: NumericEx = [\p{WB:Numeric}[\p{Blk:HalfAndFullForms}&&\p{Nd}]]
  const numericBit = 1 << PROPERTIES.findIndex(([name]) => name === 'Numeric');
  const halfAndFull = new Set(await codePoints(ucdVersion, 'Block/Halfwidth_And_Fullwidth_Forms'));
  for (const cp of await codePoints(ucdVersion, 'General_Category/Decimal_Number')) {
    if (halfAndFull.has(cp)) masks[cp] |= numericBit;
  }
}
for (const [, cps] of LITERALS) {
  for (const cp of cps) masks[cp] |= 1 << bit;
  bit++;
}
if (bit > 31) throw new Error('too many properties for a 31-bit mask');

// Class 0 is "no property" so unassigned and unmentioned characters share it.
const classOfMask = new Map([[0, 0]]);
const classMasks = [0];
const runs = [];
let runStart = 0;
let runClass = 0;
for (let cp = 0; cp <= 0x10ffff; cp++) {
  let cls = classOfMask.get(masks[cp]);
  if (cls === undefined) {
    cls = classMasks.length;
    classOfMask.set(masks[cp], cls);
    classMasks.push(masks[cp]);
  }
  if (cls !== runClass) {
    runs.push(cp - runStart, runClass);
    runStart = cp;
    runClass = cls;
  }
}
runs.push(0x110000 - runStart, runClass);

// Runs as base-36 "length:class" pairs: compact in the repo, trivial to decode at load.
const encoded = [];
for (let i = 0; i < runs.length; i += 2) encoded.push(runs[i].toString(36) + ':' + runs[i + 1].toString(36));
const lines = [];
for (let i = 0; i < encoded.length; i += 16) lines.push("  '" + encoded.slice(i, i + 16).join(',') + "',");

const names = [...PROPERTIES.map(([name]) => name), ...LITERALS.map(([name]) => name)];
process.stdout.write(`// GENERATED by generate-word-break-classes.mjs${lucene8 ? ' --lucene8' : ''}: do not edit.
// Source: node-unicode-data @unicode/unicode-${ucdVersion} (Word_Break, Script, Line_Break) and
// @unicode/unicode-${emojiVersion} (emoji properties)${lucene8 ? '; fullwidth Nd digits added to Numeric (Lucene 8 grammar)' : ''}.

/** Bit i of a class mask means the property PROPERTY_NAMES[i]. */
export const PROPERTY_NAMES: readonly string[] = ${JSON.stringify(names)};

/** The property mask of each character class; class 0 has none. */
export const CLASS_MASKS: readonly number[] = ${JSON.stringify(classMasks)};

/** Code points 0..0x10FFFF in order as runs \`length:class\` (base 36), comma-separated, split into lines. */
export const CLASS_RUNS: readonly string[] = [
${lines.join('\n')}
];
`);
