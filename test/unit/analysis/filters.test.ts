/** Token filters: Lucene semantics for terms, position increments and end state. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer, KeywordTokenizer, WhitespaceTokenizer, WordSet, ENGLISH_STOP_WORDS, type TokenFilterFactory } from '../../../src/analysis/index.js';
import { AsciiFoldingFilter, foldToAscii } from '../../../src/analysis/filters/ascii-folding-filter.js';
import { EnglishPossessiveFilter } from '../../../src/analysis/filters/english-possessive-filter.js';
import { KeywordMarkerFilter } from '../../../src/analysis/filters/keyword-marker-filter.js';
import { LengthFilter } from '../../../src/analysis/filters/length-filter.js';
import { LowerCaseFilter } from '../../../src/analysis/filters/lowercase-filter.js';
import { PorterStemFilter } from '../../../src/analysis/filters/porter-stem-filter.js';
import { StopFilter, SuggestStopFilter } from '../../../src/analysis/filters/stop-filter.js';
import { TrimFilter } from '../../../src/analysis/filters/trim-filter.js';
import { collect } from './helpers.js';

const overWhitespace = (...filters: TokenFilterFactory[]) => new Analyzer('t', () => new WhitespaceTokenizer(), filters);
const overKeyword = (...filters: TokenFilterFactory[]) => new Analyzer('t', () => new KeywordTokenizer(), filters);
const run = (analyzer: Analyzer, text: string) => collect(analyzer.tokenStream(text));

describe('lowercase filter (Character.toLowerCase per code point)', () => {
  const lower = overWhitespace((input) => new LowerCaseFilter(input));
  test('ASCII, Latin-1, Greek, Cyrillic, Deseret', () => {
    assert.deepEqual(run(lower, 'HeLLo ÀÉÎ ΑΒΓ ПРИВЕТ 𐐀𐐁').terms, ['hello', 'àéî', 'αβγ', 'привет', '𐐨𐐩']);
  });
  test('simple mappings, not JavaScript full or contextual ones', () => {
    // İ -> i (Java), not "i̇"; a word-final Σ -> σ (Java), not ς; ẞ -> ß.
    assert.deepEqual(run(lower, 'İSTANBUL ΟΔΟΣ ẞ').terms, ['istanbul', 'οδοσ', 'ß']);
  });
  test('already lowercase terms are returned as is', () => {
    assert.deepEqual(run(lower, 'abc ß').terms, ['abc', 'ß']);
  });
});

describe('stop filter', () => {
  const english = new WordSet(ENGLISH_STOP_WORDS);
  test('removes _english_ words and leaves position gaps', () => {
    const out = run(overWhitespace((input) => new StopFilter(input, english)), 'the quick and the dead');
    assert.deepEqual(out.terms, ['quick', 'dead']);
    assert.deepEqual(out.increments, [2, 3]);
  });
  test('trailing stop words add to the end position increment', () => {
    const out = run(overWhitespace((input) => new StopFilter(input, english)), 'quick is a');
    assert.deepEqual(out.terms, ['quick']);
    assert.equal(out.finalIncrement, 2);
  });
  test('case-sensitive unless ignore_case', () => {
    assert.deepEqual(run(overWhitespace((input) => new StopFilter(input, english)), 'The the').terms, ['The']);
    const ignoring = new WordSet(['The', 'ΟΔΟΣ'], true);
    assert.deepEqual(run(overWhitespace((input) => new StopFilter(input, ignoring)), 'the THE ΟΔΟΣ οδοσ kept').terms, ['kept']);
  });
  test('the english list is Lucene ENGLISH_STOP_WORDS_SET (33 words)', () => {
    assert.equal(ENGLISH_STOP_WORDS.length, 33);
    assert.ok(!ENGLISH_STOP_WORDS.includes('we'));
    assert.ok(ENGLISH_STOP_WORDS.includes('into'));
  });
  test('remove_trailing false keeps a stop word still being typed, as keyword', () => {
    const suggest = overWhitespace((input) => new SuggestStopFilter(input, english));
    const typing = collect(suggest.tokenStream('hello the'));
    assert.deepEqual(typing.terms, ['hello', 'the']);
    const finished = collect(suggest.tokenStream('hello the '));
    assert.deepEqual(finished.terms, ['hello']);
    const gap = collect(suggest.tokenStream('the a hello'));
    assert.deepEqual(gap.terms, ['hello']);
    assert.deepEqual(gap.increments, [3]);
  });
});

describe('english possessive filter', () => {
  const possessive = overWhitespace((input) => new EnglishPossessiveFilter(input));
  test("strips 's with straight, curly and fullwidth apostrophes", () => {
    assert.deepEqual(run(possessive, "dog's DOG'S dog’s dog＇s dogs' s 's it's").terms, ['dog', 'DOG', 'dog', 'dog', "dogs'", 's', '', 'it']);
  });
});

describe('porter stem filter', () => {
  const porter = overWhitespace((input) => new PorterStemFilter(input));
  test("Porter's examples", () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'], ['feed', 'feed'],
      ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'], ['sing', 'sing'],
      ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'], ['tanned', 'tan'],
      ['falling', 'fall'], ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'], ['filing', 'file'],
      ['happy', 'happi'], ['sky', 'sky'], ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'],
      ['valenci', 'valenc'], ['digitizer', 'digit'], ['conformabli', 'conform'], ['radicalli', 'radic'],
      ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'], ['vietnamization', 'vietnam'],
      ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'], ['decisiveness', 'decis'],
      ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'], ['sensitiviti', 'sensit'],
      ['sensibiliti', 'sensibl'], ['triplicate', 'triplic'], ['formative', 'form'], ['formalize', 'formal'],
      ['electriciti', 'electr'], ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'],
      ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'], ['airliner', 'airlin'],
      ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'], ['irritant', 'irrit'],
      ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'], ['adoption', 'adopt'],
      ['homologou', 'homolog'], ['communism', 'commun'], ['activate', 'activ'], ['angulariti', 'angular'],
      ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'], ['probate', 'probat'],
      ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'], ['generalizations', 'gener'],
      ['oscillators', 'oscil'], ['jumped', 'jump'], ['foxes', 'fox'], ['is', 'is'], ['as', 'as'],
    ];
    for (const [word, stem] of cases) assert.deepEqual(run(porter, word).terms, [stem], word);
  });
  test('case-sensitive: uppercase letters are consonants, as in Lucene', () => {
    assert.deepEqual(run(porter, 'RUNNING Running').terms, ['RUNNING', 'Run']);
  });
  test('keyword-marked terms are not stemmed', () => {
    const marked = overWhitespace(
      (input) => new KeywordMarkerFilter(input, new WordSet(['running'])),
      (input) => new PorterStemFilter(input),
    );
    assert.deepEqual(run(marked, 'running jumping').terms, ['running', 'jump']);
  });
});

describe('asciifolding filter', () => {
  test('folds Latin letters, ligatures and symbols as Lucene does', () => {
    assert.equal(foldToAscii('açaí à la carte'), 'acai a la carte');
    assert.equal(foldToAscii('Ærøskøbing Œuvre ß ﬁ №'), 'AEroskobing OEuvre ss fi №');
    assert.equal(foldToAscii('“quotes” ½ ①'), '"quotes" ½ 1');
    assert.equal(foldToAscii('plain'), 'plain');
    assert.equal(foldToAscii('日本'), '日本');
  });
  test('preserve_original puts the original after the folded token, at the same position', () => {
    const out = run(overWhitespace((input) => new AsciiFoldingFilter(input, true)), 'açaí à la carte');
    assert.deepEqual(out.terms, ['acai', 'açaí', 'a', 'à', 'la', 'carte']);
    assert.deepEqual(out.increments, [1, 0, 1, 0, 1, 1]);
    assert.deepEqual(out.starts, [0, 0, 5, 5, 7, 10]);
  });
});

describe('trim and length filters', () => {
  test('trim removes Java whitespace at both ends only', () => {
    assert.deepEqual(run(overKeyword((input) => new TrimFilter(input)), '\t  a b \n').terms, ['a b']);
    assert.deepEqual(run(overKeyword((input) => new TrimFilter(input)), '\u00a0a\u00a0').terms, ['\u00a0a\u00a0']);
    assert.deepEqual(run(overKeyword((input) => new TrimFilter(input)), '   ').terms, ['']);
  });
  test('length keeps terms within [min, max] UTF-16 chars and leaves position gaps', () => {
    const out = run(overWhitespace((input) => new LengthFilter(input, 2, 3)), 'a bb ccc dddd 𐐀');
    assert.deepEqual(out.terms, ['bb', 'ccc', '𐐀']);
    assert.deepEqual(out.increments, [2, 1, 2]);
    assert.throws(() => new LengthFilter(new WhitespaceTokenizer(), 3, 2), /maximum length must not be greater than minimum length/);
  });
});

describe('huge terms', () => {
  test('lowercasing, stemming and lowercase tokenizing work on terms far beyond argument-list limits', () => {
    const huge = 'É'.repeat(300000) + 'ATIONAL';
    const lower = run(overKeyword((input) => new LowerCaseFilter(input), (input) => new PorterStemFilter(input)), huge);
    // é is not an ASCII vowel, so Porter sees "...ational" after consonants only: step 4 drops "al".
    assert.equal(lower.terms[0], 'é'.repeat(300000) + 'ation');
  });
});
