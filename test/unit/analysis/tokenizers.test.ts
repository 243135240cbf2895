/** Whitespace, letter, lowercase and keyword tokenizers: Java character classes, offsets, length limits. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KeywordTokenizer, LetterTokenizer, LowerCaseTokenizer, WhitespaceTokenizer, type Tokenizer } from '../../../src/analysis/index.js';
import { collect } from './helpers.js';

function run(tokenizer: Tokenizer, text: string) {
  tokenizer.setText(text);
  return collect(tokenizer);
}

describe('whitespace tokenizer', () => {
  test('splits on Character.isWhitespace, offsets in UTF-16 units, type word', () => {
    const out = run(new WhitespaceTokenizer(), "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.");
    assert.deepEqual(out.terms, ['The', '2', 'QUICK', 'Brown-Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone.']);
    assert.deepEqual(out.types, Array(10).fill('word'));
    assert.equal(out.finalOffset, 56);
  });
  test('no-break spaces are not whitespace in Java; ideographic space and separators are', () => {
    assert.deepEqual(run(new WhitespaceTokenizer(), 'a\u00a0b c\u3000d\u2028e\u001cf\u2007g').terms, ['a\u00a0b', 'c', 'd', 'e', 'f\u2007g']);
  });
  test('max_token_length splits long runs', () => {
    assert.deepEqual(run(new WhitespaceTokenizer(5), 'abcdefghijk xy').terms, ['abcde', 'fghij', 'k', 'xy']);
    assert.throws(() => new WhitespaceTokenizer(0), /maxTokenLen must be greater than 0 and less than 1048576 passed: 0/);
  });
});

describe('letter and lowercase tokenizers', () => {
  test('letter tokenizer: runs of Character.isLetter', () => {
    const out = run(new LetterTokenizer(), "The 2 QUICK Brown-Foxes dog's ünïcode 中文 𐐀𐐁");
    assert.deepEqual(out.terms, ['The', 'QUICK', 'Brown', 'Foxes', 'dog', 's', 'ünïcode', '中文', '𐐀𐐁']);
    assert.deepEqual(out.starts, [0, 6, 12, 18, 24, 28, 30, 38, 41]);
  });
  test('lowercase tokenizer lowercases per code point', () => {
    assert.deepEqual(run(new LowerCaseTokenizer(), 'The QUICK 𐐀𐐁 İ').terms, ['the', 'quick', '𐐨𐐩', 'i']);
  });
  test('the 255-char limit counts UTF-16 chars', () => {
    const long = 'a'.repeat(300);
    assert.deepEqual(run(new LetterTokenizer(), long).terms, ['a'.repeat(255), 'a'.repeat(45)]);
  });
});

describe('keyword tokenizer', () => {
  test('the whole input is one token, even empty input', () => {
    const out = run(new KeywordTokenizer(), 'New York');
    assert.deepEqual(out.terms, ['New York']);
    assert.deepEqual([out.starts[0], out.ends[0], out.types[0]], [0, 8, 'word']);
    assert.deepEqual(run(new KeywordTokenizer(), '').terms, ['']);
  });
});
