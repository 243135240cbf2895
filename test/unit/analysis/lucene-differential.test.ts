/**
 * Gannet against real Lucene. The fixtures hold inputs and a digest of what Lucene 8.7 produced for them
 * (oracle/make-fixtures.mjs). Lucene 8's StandardTokenizer differs from Lucene 9's only in its Unicode data
 * (9.0 word-break properties, emoji 11) — the grammar, the JFlex scanner and its buffering are the same —
 * so running our scanner on Lucene 8's data here checks the scanner machinery exactly, including the
 * maximum token length splits and the lone-surrogate end-of-input quirk. The other analyzers and filters
 * are unchanged between Lucene 8 and 9.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Analyzer,
  ENGLISH_STOP_WORDS,
  KeywordTokenizer,
  LetterTokenizer,
  WhitespaceTokenizer,
  WordSet,
  englishAnalyzer,
  keywordAnalyzer,
  simpleAnalyzer,
  standardAnalyzer,
  stopAnalyzer,
  whitespaceAnalyzer,
} from '../../../src/analysis/index.js';
import { AsciiFoldingFilter } from '../../../src/analysis/filters/ascii-folding-filter.js';
import { EnglishPossessiveFilter } from '../../../src/analysis/filters/english-possessive-filter.js';
import { LowerCaseFilter } from '../../../src/analysis/filters/lowercase-filter.js';
import { PorterStemFilter } from '../../../src/analysis/filters/porter-stem-filter.js';
import { StopFilter } from '../../../src/analysis/filters/stop-filter.js';
import { buildStandardScanner } from '../../../src/analysis/standard/standard-grammar.js';
import { StandardTokenizer } from '../../../src/analysis/standard/standard-tokenizer.js';
import * as lucene8Classes from './fixtures/lucene8-word-break-classes.js';
import { digest, oracleShape, readFixture } from './helpers.js';

test('standard tokenizer on Lucene 8 Unicode data matches Lucene 8.7 for every fixture input', () => {
  const scanner = buildStandardScanner(lucene8Classes);
  const fixture = readFixture<Record<string, [string, string][]>>('lucene8-standard-tokenizer.json');
  let cases = 0;
  const mismatches: string[] = [];
  for (const [max, entries] of Object.entries(fixture)) {
    const tokenizer = new StandardTokenizer(Number(max), scanner);
    for (const [text, expected] of entries) {
      tokenizer.setText(text);
      cases++;
      if (digest(oracleShape(tokenizer)) !== expected) mismatches.push(`max ${max}: ${JSON.stringify(text)}`);
    }
  }
  assert.ok(cases > 2000, `only ${cases} cases`);
  assert.deepEqual(mismatches.slice(0, 20), []);
});

test('analyzers and filter chains match Lucene 8.7 on real text and case-mapping edge cases', () => {
  const fixture = readFixture<{ texts: string[]; expected: Record<string, string> }>('lucene8-analyzers.json');
  const chain = (tokenizer: () => KeywordTokenizer | WhitespaceTokenizer | LetterTokenizer, ...filters: ConstructorParameters<typeof Analyzer>[2] & object) =>
    new Analyzer('test', tokenizer, filters);
  const analyzers: Record<string, Analyzer> = {
    standard: standardAnalyzer(),
    english: englishAnalyzer(),
    simple: simpleAnalyzer(),
    stop: stopAnalyzer(),
    whitespace: whitespaceAnalyzer(),
    keyword: keywordAnalyzer(),
    letter: chain(() => new LetterTokenizer()),
    'whitespace-lowercase': chain(() => new WhitespaceTokenizer(), (input) => new LowerCaseFilter(input)),
    'whitespace-asciifolding': chain(() => new WhitespaceTokenizer(), (input) => new AsciiFoldingFilter(input)),
    'whitespace-asciifolding:p': chain(() => new WhitespaceTokenizer(), (input) => new AsciiFoldingFilter(input, true)),
    'whitespace-possessive': chain(() => new WhitespaceTokenizer(), (input) => new EnglishPossessiveFilter(input)),
    'whitespace-stop': chain(() => new WhitespaceTokenizer(), (input) => new StopFilter(input, new WordSet(ENGLISH_STOP_WORDS))),
  };
  assert.deepEqual(Object.keys(analyzers).sort(), Object.keys(fixture.expected).sort());
  for (const [mode, analyzer] of Object.entries(analyzers)) {
    const expected = fixture.expected[mode]!.split(' ');
    const mismatches = fixture.texts.filter((text, i) => digest(oracleShape(analyzer.tokenStream(text))) !== expected[i]);
    assert.deepEqual(mismatches.map((text) => JSON.stringify(text).slice(0, 120)), [], `analyzer ${mode}`);
  }
});

test('porter stemmer matches Lucene on a 4000-word vocabulary sample', () => {
  const pairs = readFixture<[string, string][]>('porter-vocabulary.json');
  assert.equal(pairs.length, 4000);
  const stemmer = new Analyzer('porter', () => new KeywordTokenizer(), [(input) => new PorterStemFilter(input)]);
  const wrong: string[] = [];
  for (const [word, stem] of pairs) {
    const stream = stemmer.tokenStream(word);
    stream.incrementToken();
    if (stream.token.term !== stem) wrong.push(`${word}: got ${stream.token.term}, Lucene ${stem}`);
  }
  assert.deepEqual(wrong, []);
});
