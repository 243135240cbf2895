#!/usr/bin/env node
// Regenerates the Lucene-output fixtures in ../fixtures/ by running real Lucene (Debian's liblucene8-java,
// Lucene 8.7) over chosen inputs. See README.md. Usage, from the repo root after building into $BUILD:
//   node test/unit/analysis/oracle/make-fixtures.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'fixtures');
const jars = '/usr/share/java';
const classpath = [`${jars}/lucene-core-8.7.0.jar`, `${jars}/lucene-analyzers-common-8.7.0.jar`];
const work = mkdtempSync(join(tmpdir(), 'lucene-oracle-'));
execFileSync('javac', ['-cp', classpath.join(':'), '-d', work, join(here, 'LuceneOracle.java')]);
const cp = [...classpath, work].join(':');

/**
 * Fixtures keep a short digest of Lucene's output per text instead of the output itself, so thousands of
 * cases fit in a small file; on a mismatch, rerun the oracle on that text to see Lucene's tokens.
 */
export function digest(value) {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
}

function lucene(mode, texts) {
  const input = texts.map((t) => JSON.stringify(t)).join('\n') + '\n';
  const out = execFileSync('java', ['-cp', cp, 'LuceneOracle', mode], { input, maxBuffer: 1 << 30 }).toString().split('\n');
  return texts.map((_, i) => JSON.parse(out[i]));
}

let seed = 20240611;
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed / 0x80000000);
const pick = (list, n) => {
  const copy = [...list];
  const out = [];
  while (out.length < n && copy.length > 0) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]);
  return out;
};

// Inputs from Lucene's own conformance tests (Unicode 9 WordBreakTest, Unicode 11 emoji test).
execFileSync('unzip', ['-o', '-q', `${jars}/lucene-test-framework-8.7.0.jar`, 'org/apache/lucene/analysis/standard/*', '-d', work]);
const testStrings = (name) =>
  execFileSync('node', [join(here, 'class-strings.mjs'), join(work, 'org/apache/lucene/analysis/standard', name + '.class')])
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((s) => /[^\x20-\x7e]/.test(s) && !s.includes('org/apache'));
const wordBreak = testStrings('WordBreakTestUnicode_9_0_0');
const emoji = testStrings('EmojiTokenizationTestUnicode_11_0').filter((s) => !/;/.test(s));

// Random strings over a mix of ASCII punctuation and characters of every word-break class.
const l8 = await import(join(process.env.BUILD ?? '/tmp/build-analysis', 'test/unit/analysis/fixtures/lucene8-word-break-classes.js'));
const representatives = Array.from({ length: l8.CLASS_MASKS.length }, () => []);
let cpos = 0;
for (const line of l8.CLASS_RUNS) {
  for (const run of line.split(',')) {
    const [length, cls] = run.split(':').map((x) => parseInt(x, 36));
    representatives[cls].push(cpos, cpos + length - 1);
    cpos += length;
  }
}
const ascii = " .,:;'\"_-@/aZ09#*\u00a9\u200d\ufe0f\ufe0e\u20e3\u0308\u00ad";
const randomTexts = [];
for (let n = 0; n < 1200; n++) {
  let s = '';
  const length = 1 + Math.floor(random() * 10);
  for (let k = 0; k < length; k++) {
    const r = random();
    if (r < 0.35) s += ascii[Math.floor(random() * ascii.length)];
    else if (r < 0.37) s += String.fromCharCode(0xd800 + Math.floor(random() * 0x800));
    else {
      const cls = representatives[Math.floor(random() * representatives.length)];
      const cp = cls[Math.floor(random() * cls.length)];
      if (cp < 0xd800 || cp > 0xdfff) s += String.fromCodePoint(cp);
    }
  }
  randomTexts.push(s);
}
const longTexts = [];
for (let n = 0; n < 60; n++) {
  const alphabet = ['a', 'b', '1', '_', '.', "'", ' ', '\u0308', '\ud83d\udca9', '\ud801\udc00', '\u0e01', '\u30ab', ','];
  let s = '';
  const length = 10 + Math.floor(random() * 300);
  for (let k = 0; k < length; k++) s += alphabet[Math.floor(random() * (n % 2 ? alphabet.length : 4))];
  if (n % 5 === 0) s += '\ud83d';
  longTexts.push(s);
}

const standardCases = [...pick(wordBreak, 500), ...pick(emoji, 500), ...randomTexts];
const standard = { 255: standardCases, 5: longTexts.concat(pick(randomTexts, 200)), 17: longTexts, 1: pick(randomTexts, 100) };
const standardFixture = {};
for (const [max, texts] of Object.entries(standard)) {
  standardFixture[max] = lucene('standard-tokenizer:' + max, texts).map((expected, i) => [texts[i], digest(expected)]);
}
writeFileSync(join(fixtures, 'lucene8-standard-tokenizer.json'), JSON.stringify(standardFixture) + '\n');

// Real text and case-mapping edge cases through every analyzer and filter chain.
const corpus = gunzipSync(readFileSync('/work/shared/corpus/debian.ndjson.gz'))
  .toString()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line).description ?? '')
  .filter(Boolean);
const edge = ['a', 'B', 'ß', 'İ', 'Σ', 'ς', 'é', 'Å', 'ǅ', 'ﬁ', '\u00a0', '\u2007', ' ', '\t', '\u3000', "'", '’', 's', 'S', '1', '\ud801\udc00', '\u212a', '\u1e9e', 'Ⅻ', '\u1680', '\u001c'];
const edgeTexts = [];
for (let n = 0; n < 150; n++) {
  let s = '';
  const length = 1 + Math.floor(random() * 16);
  for (let k = 0; k < length; k++) s += edge[Math.floor(random() * edge.length)];
  edgeTexts.push(s);
}
const analyzerTexts = [...pick(corpus, 150).map((t) => t.slice(0, 400)), ...edgeTexts, 'x'.repeat(300) + ' ' + 'é'.repeat(260), ''];
const modes = ['standard', 'english', 'simple', 'stop', 'whitespace', 'keyword', 'letter', 'whitespace-lowercase', 'whitespace-asciifolding', 'whitespace-asciifolding:p', 'whitespace-possessive', 'whitespace-stop'];
const analyzerFixture = { texts: analyzerTexts, expected: {} };
for (const mode of modes) analyzerFixture.expected[mode] = lucene(mode, analyzerTexts).map(digest).join(' ');
writeFileSync(join(fixtures, 'lucene8-analyzers.json'), JSON.stringify(analyzerFixture) + '\n');

// Porter stemmer: a sample of the corpus vocabulary.
const words = new Set();
for (const text of corpus) for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) words.add(w);
const vocabulary = pick([...words].sort(), 4000).sort();
const stems = lucene('porter', vocabulary).map((tokens) => tokens[0][0]);
writeFileSync(join(fixtures, 'porter-vocabulary.json'), JSON.stringify(vocabulary.map((w, i) => [w, stems[i]])) + '\n');
console.log('fixtures written to', fixtures);
