import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FieldsWriter } from '../../../../src/engine/codec/terms/fields-writer.js';
import { TermsReader } from '../../../../src/engine/codec/terms/terms-reader.js';
import { NO_MORE_DOCS, POSTINGS_FREQS } from '../../../../src/engine/codec/postings/postings-format.js';
import type { IndexOptions } from '../../../../src/engine/codec/segment/field-info.js';
import { AssertingPostingsEnum } from './asserting-postings-enum.js';
import { SEGMENT_ID } from './postings-fixtures.js';

const MAX_DOC = 1000;

/** Unicode terms (any code point, so 1- to 4-byte UTF-8), plus shared-prefix families to stress front coding. */
const term = fc.oneof(
  fc.string({ unit: 'binary', minLength: 0, maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.tuple(fc.constantFrom('pre', 'prefix', 'préfixe', '日本'), fc.string({ unit: 'binary-ascii', maxLength: 4 })).map(([a, b]) => a + b),
);

interface TermData {
  bytes: Buffer;
  docs: number[];
  freqs: number[];
}

const fieldTerms = fc
  .uniqueArray(term, { minLength: 0, maxLength: 300, selector: (t) => Buffer.from(t).toString('hex') })
  .chain((terms) =>
    fc.tuple(
      ...terms.map((t) =>
        fc.uniqueArray(fc.integer({ min: 0, max: MAX_DOC - 1 }), { minLength: 1, maxLength: 20 }).chain((docs) =>
          fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: docs.length, maxLength: docs.length }).map((freqs) => ({
            bytes: Buffer.from(t),
            docs: docs.sort((a, b) => a - b),
            freqs,
          })),
        ),
      ),
    ),
  )
  .map((terms: TermData[]) => terms.sort((a, b) => Buffer.compare(a.bytes, b.bytes)));

function writeFields(fields: Array<[string, IndexOptions, TermData[]]>): TermsReader {
  const writer = new FieldsWriter(MAX_DOC);
  for (const [name, options, terms] of fields) {
    writer.startField(name, options, null);
    for (const t of terms) {
      writer.startTerm(t.bytes);
      t.docs.forEach((doc, i) => writer.startDoc(doc, t.freqs[i]!));
      writer.finishTerm();
    }
    writer.finishField();
  }
  const files = writer.finish(SEGMENT_ID);
  return new TermsReader(
    {
      terms: { bytes: files.terms.bytes, resource: '_0.tim' },
      doc: { bytes: files.doc.bytes, resource: '_0.doc' },
      pos: { bytes: files.pos.bytes, resource: '_0.pos' },
    },
    SEGMENT_ID,
  );
}

test('terms iterate in UTF-8 byte order with their statistics and postings', () => {
  fc.assert(
    fc.property(fieldTerms, fieldTerms, (body, tags) => {
      const reader = writeFields([
        ['body', 'freqs', body],
        ['tags', 'docs', tags],
      ]);
      for (const [name, terms, withFreqs] of [
        ['body', body, true],
        ['tags', tags, false],
      ] as const) {
        const field = reader.terms(name)!;
        assert.equal(field.stats.termCount, terms.length);
        assert.equal(field.stats.sumDocFreq, terms.reduce((s, t) => s + t.docs.length, 0));
        assert.equal(
          field.stats.sumTotalTermFreq,
          withFreqs ? terms.reduce((s, t) => s + t.freqs.reduce((a, b) => a + b, 0), 0) : field.stats.sumDocFreq,
        );
        assert.equal(field.stats.docCount, new Set(terms.flatMap((t) => t.docs)).size);
        const termsEnum = field.iterator();
        for (const t of terms) {
          assert.ok(termsEnum.next());
          assert.ok(termsEnum.term().equals(t.bytes), `${termsEnum.term().toString('hex')} vs ${t.bytes.toString('hex')}`);
          assert.equal(termsEnum.docFreq(), t.docs.length);
          assert.equal(termsEnum.totalTermFreq(), withFreqs ? t.freqs.reduce((a, b) => a + b, 0) : t.docs.length);
          const postings = new AssertingPostingsEnum(termsEnum.postings(POSTINGS_FREQS), false);
          t.docs.forEach((doc, i) => {
            assert.equal(postings.nextDoc(), doc);
            assert.equal(postings.freq(), withFreqs ? t.freqs[i] : 1);
          });
          assert.equal(postings.nextDoc(), NO_MORE_DOCS);
        }
        assert.ok(!termsEnum.next());
        assert.ok(!termsEnum.next());
      }
    }),
    { numRuns: 40 },
  );
});

test('seekExact finds every term and only them; seekCeil lands on the smallest term >= target', () => {
  fc.assert(
    fc.property(fieldTerms, fc.array(term, { maxLength: 40 }), (terms, probes) => {
      const reader = writeFields([['f', 'freqs', terms]]);
      const field = reader.terms('f')!;
      for (const t of terms) {
        const state = field.seekExact(t.bytes);
        assert.ok(state !== null);
        assert.equal(state.docFreq, t.docs.length);
      }
      const termsEnum = field.iterator();
      for (const probe of [...probes, ...terms.map((t) => t.bytes.toString('utf8'))]) {
        const bytes = Buffer.from(probe);
        const ceil = terms.find((t) => Buffer.compare(t.bytes, bytes) >= 0);
        const status = termsEnum.seekCeil(bytes);
        if (ceil === undefined) {
          assert.equal(status, 'end');
          assert.ok(!termsEnum.next());
        } else {
          assert.equal(status, ceil.bytes.equals(bytes) ? 'found' : 'not_found');
          assert.ok(termsEnum.term().equals(ceil.bytes));
          assert.equal(termsEnum.docFreq(), ceil.docs.length);
          // next() after a seek continues in order
          const following = terms[terms.indexOf(ceil) + 1];
          assert.equal(termsEnum.next(), following !== undefined);
          if (following !== undefined) assert.ok(termsEnum.term().equals(following.bytes));
        }
        assert.equal(field.seekExact(bytes) !== null, terms.some((t) => t.bytes.equals(bytes)));
      }
    }),
    { numRuns: 60 },
  );
});

test('prefix iteration returns exactly the terms starting with the prefix, in order', () => {
  fc.assert(
    fc.property(fieldTerms, fc.constantFrom('', 'p', 'pre', 'pref', 'préf', '日', 'x', '\u0000'), (terms, prefix) => {
      const reader = writeFields([['f', 'docs', terms]]);
      const prefixBytes = Buffer.from(prefix);
      const termsEnum = reader.terms('f')!.iterator();
      const found: string[] = [];
      if (termsEnum.seekCeil(prefixBytes) !== 'end') {
        do {
          if (!termsEnum.startsWith(prefixBytes)) break;
          found.push(termsEnum.term().toString('hex'));
        } while (termsEnum.next());
      }
      const expected = terms.filter((t) => t.bytes.subarray(0, prefixBytes.length).equals(prefixBytes)).map((t) => t.bytes.toString('hex'));
      assert.deepEqual(found, expected);
    }),
    { numRuns: 60 },
  );
});

test('terms must be added in strictly increasing byte order', () => {
  const writer = new FieldsWriter(10);
  writer.startField('f', 'docs', null);
  writer.startTerm(Buffer.from('b'));
  writer.startDoc(0, 1);
  writer.finishTerm();
  assert.throws(() => writer.startTerm(Buffer.from('a')), /strictly increasing/);
  assert.throws(() => writer.startTerm(Buffer.from('b')), /strictly increasing/);
  // 'é' (0xC3 0xA9) sorts after 'z' (0x7A) in byte order, as Lucene sorts BytesRef.
  writer.startTerm(Buffer.from('z'));
  writer.startDoc(1, 1);
  writer.finishTerm();
  writer.startTerm(Buffer.from('é'));
  writer.startDoc(1, 1);
  writer.finishTerm();
});
