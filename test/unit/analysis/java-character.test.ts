import { test } from 'node:test';
import assert from 'node:assert/strict';
import { javaIsLetter, javaIsWhitespace, javaToLowerCase, lowerCaseTerm } from '../../../src/analysis/java-character.js';

// The tables fill in as characters are met; every lookup must give what the definitions give, whatever came first.
test('case mapping and classification of every BMP character, looked up in a scattered order, match their definitions', () => {
  const order = Array.from({ length: 0x10000 }, (_, i) => (i * 40503) & 0xffff);
  for (const c of [...order, ...order]) {
    const s = String.fromCharCode(c);
    const surrogate = c >= 0xd800 && c <= 0xdfff;
    let lower = c;
    if (c === 0x130) lower = 0x69;
    else if (!surrogate) {
      const full = s.toLowerCase();
      if (full.length === 1) lower = full.charCodeAt(0);
    }
    assert.equal(javaToLowerCase(c), lower, `lowercase of U+${c.toString(16)}`);
    assert.equal(javaIsLetter(c), !surrogate && /^\p{L}$/u.test(s), `isLetter U+${c.toString(16)}`);
    const whitespace = (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) || (!surrogate && c !== 0xa0 && c !== 0x2007 && c !== 0x202f && /^[\p{Zs}\p{Zl}\p{Zp}]$/u.test(s));
    assert.equal(javaIsWhitespace(c), whitespace, `isWhitespace U+${c.toString(16)}`);
  }
  assert.equal(javaToLowerCase(0), 0);
  assert.equal(lowerCaseTerm('ÉCOLE İstanbul ΣΑΣ 𐐀'), 'école istanbul σασ 𐐨');
});
