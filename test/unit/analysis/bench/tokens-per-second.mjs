#!/usr/bin/env node
// Rough analysis throughput on real text: the `description` field of the Debian corpus, read with zlib
// straight from shared/ (never copied into the repo). Usage, from the repo root after a build:
//   node test/unit/analysis/bench/tokens-per-second.mjs [build dir, default dist] [corpus path]
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const buildDir = resolve(process.argv[2] ?? 'dist');
const corpus = process.argv[3] ?? '/work/shared/corpus/debian.ndjson.gz';
const analysis = await import(pathToFileURL(join(buildDir, 'src/analysis/index.js')).href);

const texts = gunzipSync(readFileSync(corpus))
  .toString()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line).description ?? '')
  .filter(Boolean);
const chars = texts.reduce((n, t) => n + t.length, 0);

function run(name, analyzer, rounds) {
  let tokens = 0;
  const started = process.hrtime.bigint();
  for (let r = 0; r < rounds; r++) {
    for (const text of texts) {
      const stream = analyzer.tokenStream(text);
      while (stream.incrementToken()) tokens++;
      stream.end();
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const docs = (texts.length * rounds) / seconds;
  console.log(
    `${name.padEnd(12)} ${(tokens / seconds / 1e6).toFixed(2)} M tokens/s  ${((chars * rounds) / seconds / 1e6).toFixed(1)} M chars/s  ${Math.round(docs)} docs/s`,
  );
}

console.log(`${texts.length} descriptions, ${(chars / 1e6).toFixed(1)} M chars`);
const warmup = Date.now();
analysis.standardAnalyzer().tokenStream('warm up').incrementToken();
console.log(`first use (scanner build): ${Date.now() - warmup} ms`);
for (const [name, make] of [
  ['standard', analysis.standardAnalyzer],
  ['english', analysis.englishAnalyzer],
  ['whitespace', analysis.whitespaceAnalyzer],
  ['simple', analysis.simpleAnalyzer],
]) {
  const analyzer = make();
  run(name, analyzer, 1); // warm-up round
  run(name, analyzer, 3);
}
