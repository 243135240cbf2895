/**
 * The unified highlighter (ES's default type) against ES's own sources and tests: JDK 17's
 * BreakIterator.getSentenceInstance/getWordInstance(Locale.ROOT) output (run with `java`) for the break
 * rules, ES's BoundedBreakIteratorScanner / CustomPassageFormatter / CustomFieldHighlighter and Lucene's
 * FieldHighlighter / PassageScorer worked through by hand, search.highlight/10_unified.yml, and the
 * weight-matches behaviour described in elastic/elasticsearch#96068 and #122596.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sentenceBoundaries, wordBoundaries } from '../../../../src/search/highlight/unified/break-iterators.js';
import { BoundedBreakIteratorScanner, SplittingBreakIterator } from '../../../../src/search/highlight/unified/bounded-scanner.js';
import { formatPassages, highlightMatches, scorePassage } from '../../../../src/search/highlight/unified/passages.js';
import { fragments } from './helpers.js';

const TEXT = { properties: { f: { type: 'text' } } };
const pieces = (text: string, boundaries: number[]): string[] => boundaries.slice(1).map((end, i) => text.slice(boundaries[i], end));

test('sentence breaks as JDK 17 getSentenceInstance(Locale.ROOT) puts them', () => {
  const text = 'Hello world. This is a test! Is it? yes it is. e.g. foo. Mr. Smith went. 3.14 is pi. end.Next one.';
  assert.deepEqual(pieces(text, sentenceBoundaries(text)), ['Hello world. ', 'This is a test! ', 'Is it? ', 'yes it is. e.g. foo. ', 'Mr. ', 'Smith went. 3.14 is pi. end.Next one.']);
  const second = 'It is. - dash. $5 here. "quoted" start. \'x\' yes.) ok. [br] end. é accent. É Accent.';
  assert.deepEqual(pieces(second, sentenceBoundaries(second)), ['It is. - dash. $5 here. ', '"quoted" start. ', "'x' yes.) ok. ", '[br] end. é accent. ', 'É Accent.']);
  const third = 'Wow!What now?yes. Stop.  \n\n  Next... and. Really?! Yes!" He said.';
  assert.deepEqual(pieces(third, sentenceBoundaries(third)), ['Wow!', 'What now?', 'yes. ', 'Stop.  \n\n  ', 'Next... and. ', 'Really?! ', 'Yes!" ', 'He said.']);
});

test('word breaks as JDK 17 getWordInstance(Locale.ROOT) puts them', () => {
  const text = "don't well-known a,b foo_bar x1y 12,345 a.b.c U.S.A. e-mail x--y $5";
  assert.deepEqual(pieces(text, wordBoundaries(text)), [
    "don't", ' ', 'well-known', ' ', 'a', ',', 'b', ' ', 'foo_bar', ' ', 'x1y', ' ', '12,345', ' ', 'a.b.c', ' ', 'U.S.A', '.', ' ', 'e-mail', ' ', 'x', '-', '-', 'y', ' ', '$5',
  ]);
});

test('BoundedBreakIteratorScanner: a long sentence is cut at word boundaries around the match', () => {
  // "fox" at 16: preceding(17) finds no sentence break within 20 chars, so the window is the whole first
  // sentence [0, 45); it is longer than 20, so the end moves to the word boundary after 17 + (20 - 17) = 20.
  const scanner = BoundedBreakIteratorScanner.sentence(20);
  scanner.setText('The quick brown fox jumps over the lazy dog. A second sentence.');
  assert.equal(scanner.preceding(17), 0);
  assert.equal(scanner.following(16), 25);
  // Short sentences are grouped while they fit in maxLen.
  const short = BoundedBreakIteratorScanner.sentence(30);
  short.setText('One fox. Two. Three. Four is long enough here.');
  assert.equal(short.preceding(5), 0);
  assert.equal(short.following(4), 21);
});

test('SplittingBreakIterator keeps passages inside one value', () => {
  const splitting = new SplittingBreakIterator(BoundedBreakIteratorScanner.sentence(100), '\u0000');
  const content = 'first value. More\u0000second value';
  splitting.setText(content);
  assert.equal(splitting.preceding(19), 18);
  assert.equal(splitting.following(18), content.length);
});

test('PassageScorer: BM25 over the passage, Java float arithmetic', () => {
  // weight(100, 1) = 2.2 * ln(1 + (1 + 100/87 + 0.5) / 1.5); tf(1, 20) = 1 / (1 + 1.2 * (0.25 + 0.75 * 20/87)); norm(0) = 1 + 1/ln(87)
  const passage = { start: 0, end: 20, score: 0, matches: [{ start: 4, end: 7, term: 'fox', freq: 1 }] };
  const f = Math.fround;
  const weight = f(f(2.2) * f(Math.log(1 + (f(1 + f(100 / 87)) + 0.5) / 1.5)));
  const tf = f(1 / f(1 + f(f(1.2) * f(f(1 - f(0.75)) + f(f(0.75) * f(20 / 87))))));
  const norm = f(1 + f(1 / f(Math.log(87))));
  assert.equal(scorePassage(passage, 100), f(f(tf * weight) * norm));
  // Two distinct terms score more than one term twice; a later passage scores less (norm).
  const twoTerms = { ...passage, matches: [passage.matches[0]!, { start: 10, end: 13, term: 'dog', freq: 1 }] };
  const sameTwice = { ...passage, matches: [passage.matches[0]!, { start: 10, end: 13, term: 'fox', freq: 1 }] };
  assert.ok(scorePassage(twoTerms, 100) > scorePassage(sameTwice, 100));
  assert.ok(scorePassage({ ...passage, start: 50, end: 70 }, 100) < scorePassage(passage, 100));
});

test('FieldHighlighter keeps the best passages and returns them in text order', () => {
  const splitting = new SplittingBreakIterator(BoundedBreakIteratorScanner.sentence(100), '\u0000');
  const content = 'A fox. B c d e f g h i j k l m. A fox and a dog.';
  splitting.setText(content);
  const match = (start: number, term: string) => ({ start, end: start + term.length, term, freq: 1 });
  const passages = highlightMatches([match(2, 'fox'), match(34, 'fox'), match(44, 'dog')], splitting, content.length, 1);
  assert.deepEqual(passages.map((p) => [p.start, p.end]), [[0, content.length]]);
  const formatted = formatPassages(passages, content, { preTag: '[', postTag: ']', encode: (t) => t, numberOfFragments: 1 });
  assert.equal(formatted[0]!.text, 'A [fox]. B c d e f g h i j k l m. A [fox] and a [dog].');
});

test('10_unified.yml: multi_match highlighted with the default type', () => {
  const mapping = { properties: { text: { type: 'text' } } };
  assert.deepEqual(fragments({ mapping, query: { multi_match: { query: 'quick brown fox', fields: ['text*'] } }, highlight: { fields: { '*': {} } } }, { text: 'The quick brown fox is brown.' }), [
    'The <em>quick</em> <em>brown</em> <em>fox</em> is <em>brown</em>.',
  ]);
});

test('weight matches (#96068): a phrase is one span; clauses that do not match are not highlighted', () => {
  assert.deepEqual(fragments({ mapping: TEXT, query: { match_phrase: { f: 'left hand' } }, highlight: { fields: { f: {} } } }, { f: 'The Left Hand of Darkness' }), [
    'The <em>Left Hand</em> of Darkness',
  ]);
  const query = { bool: { should: [{ match_phrase: { f: 'quick fox' } }, { match: { f: 'dog' } }] } };
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { fields: { f: {} } } }, { f: 'The quick brown fox. The lazy dog.' }), ['The lazy <em>dog</em>.']);
  // #122596: a sloppy phrase is highlighted from its first to its last term.
  const slop = { match_phrase: { f: { query: 'test with from zero', slop: 2 } } };
  assert.deepEqual(fragments({ mapping: TEXT, query: slop, highlight: { fields: { f: {} } } }, { f: 'test with slop different from zero' }), ['<em>test with slop different from zero</em>']);
  // require_field_match false turns the mode off: terms one by one, phrase terms where the phrase matches.
  assert.deepEqual(
    fragments({ mapping: TEXT, query: { match_phrase: { f: 'left hand' } }, highlight: { require_field_match: false, fields: { f: {} } } }, { f: 'The Left Hand of Darkness' }),
    ['The <em>Left</em> <em>Hand</em> of Darkness'],
  );
  // So does index.highlight.weight_matches_mode.enabled: false (ES reads it per index).
  assert.deepEqual(
    fragments({ mapping: TEXT, query: { match_phrase: { f: 'left hand' } }, highlight: { fields: { f: {} } }, weightMatchesEnabled: false }, { f: 'The Left Hand of Darkness' }),
    ['The <em>Left</em> <em>Hand</em> of Darkness'],
  );
});

test('fragment_size bounds the sentence passages; boundary_scanner word gives the match word alone', () => {
  const source = { f: 'The quick brown fox jumps over the lazy dog. A second sentence about a fox here. Nothing. Last fox.' };
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'fox' } }, highlight: { fields: { f: { fragment_size: 20 } } } }, source), [
    'The quick brown <em>fox</em> jumps',
    'second sentence about a <em>fox</em>',
    'Last <em>fox</em>.',
  ]);
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'fox' } }, highlight: { fields: { f: { boundary_scanner: 'word', number_of_fragments: 2 } } } }, source), [
    '<em>fox</em>',
    '<em>fox</em>',
  ]);
});

test('order score sorts the kept passages by score; number_of_fragments keeps the best', () => {
  const source = { f: 'A fox. Nothing to see in this sentence at all. The fox and the dog.' };
  const base = { mapping: TEXT, query: { match: { f: 'fox dog' } } };
  assert.deepEqual(fragments({ ...base, highlight: { fields: { f: { fragment_size: 30 } } } }, source), ['A <em>fox</em>.', 'The <em>fox</em> and the <em>dog</em>.']);
  assert.deepEqual(fragments({ ...base, highlight: { order: 'score', fields: { f: { fragment_size: 30 } } } }, source), ['The <em>fox</em> and the <em>dog</em>.', 'A <em>fox</em>.']);
  assert.deepEqual(fragments({ ...base, highlight: { number_of_fragments: 1, fields: { f: { fragment_size: 30 } } } }, source), ['The <em>fox</em> and the <em>dog</em>.']);
});

test('number_of_fragments 0 highlights whole values, untrimmed; multi-valued fields give a fragment per matching value', () => {
  const source = { f: ['a fox one ', 'nothing', 'two fox'] };
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'fox' } }, highlight: { fields: { f: { number_of_fragments: 0 } } } }, source), ['a <em>fox</em> one ', 'two <em>fox</em>']);
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'fox' } }, highlight: { fields: { f: {} } } }, source), ['a <em>fox</em> one', 'two <em>fox</em>']);
  // position_increment_gap keeps a phrase from matching across values.
  assert.equal(fragments({ mapping: TEXT, query: { match_phrase: { f: 'one nothing' } }, highlight: { fields: { f: {} } } }, source), undefined);
});

test('no_match_size: the first value up to the word boundary after the size (CustomFieldHighlighter), encoded', () => {
  const base = { mapping: TEXT, query: { match: { f: 'zzz' } } };
  assert.deepEqual(fragments({ ...base, highlight: { fields: { f: { no_match_size: 10 } } } }, { f: ['This is a test sentence', 'x'] }), ['This is a test']);
  assert.deepEqual(fragments({ ...base, highlight: { encoder: 'html', fields: { f: { no_match_size: 100 } } } }, { f: 'a < b' }), ['a &lt; b']);
  assert.equal(fragments({ ...base, highlight: { fields: { f: {} } } }, { f: 'This is a test' }), undefined);
});

test('encoder html escapes the text around the tags (CustomPassageFormatter + HTML encoder)', () => {
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'tom' } }, highlight: { encoder: 'html', fields: { f: {} } } }, { f: '<b>Tom & Jerry</b>' }), [
    '&lt;b&gt;<em>Tom</em> &amp; Jerry&lt;&#x2F;b&gt;',
  ]);
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { f: 'tom' } }, highlight: { pre_tags: ['<b>'], post_tags: ['</b>'], fields: { f: {} } } }, { f: 'Tom & Jerry' }), ['<b>Tom</b> & Jerry']);
});

test('max_analyzed_offset: the joined value is checked against the index limit; a query limit cuts matches', () => {
  const source = { f: 'The quick brown fox went to the forest and saw another fox.' };
  const base = { mapping: TEXT, query: { match: { f: 'fox' } }, maxAnalyzedOffset: 30 };
  assert.throws(() => fragments({ ...base, highlight: { fields: { f: {} } } }, source), /exceeds the \[index.highlight.max_analyzed_offset\] limit \[30\]/);
  assert.deepEqual(fragments({ ...base, highlight: { fields: { f: {} }, max_analyzed_offset: 20 } }, source), ['The quick brown <em>fox</em> went to the forest and saw another fox.']);
});

test('keyword fields are highlighted value by value; boundary_scanner chars is refused', () => {
  const mapping = { properties: { k: { type: 'keyword' } } };
  assert.deepEqual(fragments({ mapping, query: { term: { k: 'Quick Fox' } }, highlight: { fields: { k: {} } } }, { k: 'Quick Fox' }), ['<em>Quick Fox</em>']);
  assert.throws(() => fragments({ mapping: TEXT, query: { match: { f: 'fox' } }, highlight: { boundary_scanner: 'chars', fields: { f: {} } } }, { f: 'fox' }), /Invalid boundary scanner type: chars/);
});
