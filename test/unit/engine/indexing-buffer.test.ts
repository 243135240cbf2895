/**
 * The indexing buffer written as a segment: postings (docs, freqs, positions with the multi-value gap),
 * norms (Lucene's BM25 byte), doc values of every type, stored fields and the metadata fields, checked
 * against what the analyzers and mapping say they must be.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry, analyzeTexts } from '../../../src/analysis/index.js';
import { computeNormByte, NO_MORE_DOCS, POSTINGS_POSITIONS, SegmentReaders } from '../../../src/engine/codec/index.js';
import { MemoryDirectory } from '../../../src/engine/store/index.js';
import { CachedAnalyzers, IndexingBuffer } from '../../../src/engine/indexing/indexing-buffer.js';
import { snapshotBuffer } from '../../../src/engine/indexing/buffered-segment.js';
import { writeBufferedSegment } from '../../../src/engine/indexing/write-buffered-segment.js';
import { DocumentFactory } from './engine-helpers.js';

const registry = AnalysisRegistry.global();

async function writeDocs(factory: DocumentFactory, docs: readonly unknown[]): Promise<{ readers: SegmentReaders; buffer: IndexingBuffer }> {
  const buffer = new IndexingBuffer(new CachedAnalyzers(registry));
  docs.forEach((source, i) => {
    const doc = buffer.addDocument(`id-${i}`, factory.parse(source, `id-${i}`));
    buffer.setMeta(doc, i, 1, i + 1);
  });
  const directory = new MemoryDirectory();
  const written = await writeBufferedSegment(directory, '_0', snapshotBuffer(buffer).segment, 'lz4');
  const readers = await SegmentReaders.open(directory, '_0', { id: written.info.id });
  return { readers, buffer };
}

/** term -> [[doc, positions...]] */
function postingsOf(readers: SegmentReaders, field: string): Map<string, number[][]> {
  const out = new Map<string, number[][]>();
  const terms = readers.terms.terms(field);
  if (terms === undefined) return out;
  const iterator = terms.iterator();
  while (iterator.next()) {
    const term = iterator.termString();
    const postings = iterator.postings(POSTINGS_POSITIONS);
    const docs: number[][] = [];
    for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) {
      const entry = [doc];
      const freq = postings.freq();
      for (let i = 0; i < freq && terms.hasPositions; i++) entry.push(postings.nextPosition());
      if (!terms.hasPositions && terms.hasFreqs) entry.push(-freq);
      docs.push(entry);
    }
    out.set(term, docs);
  }
  return out;
}

test('text postings carry exactly the analyzer tokens, with the position gap between values', async () => {
  const factory = new DocumentFactory({ properties: { body: { type: 'text' } } });
  const docs = [
    { body: 'The quick brown fox jumps over the lazy dog' },
    { body: ['quick thinking', 'brown bread', 'the fox'] },
    { body: 'Fox, fox and FOX!' },
  ];
  const { readers } = await writeDocs(factory, docs);
  const expected = new Map<string, number[][]>();
  docs.forEach((doc, docId) => {
    const byTerm = new Map<string, number[]>();
    // The mapping's position_increment_gap (100) separates array values, as analyzeTexts does for `standard`.
    for (const token of analyzeTexts(registry.analyzer('standard'), doc.body)) {
      const positions = byTerm.get(token.token) ?? [];
      positions.push(token.position);
      byTerm.set(token.token, positions);
    }
    for (const [term, positions] of byTerm) {
      const list = expected.get(term) ?? [];
      list.push([docId, ...positions]);
      expected.set(term, list);
    }
  });
  const actual = postingsOf(readers, 'body');
  assert.deepEqual(new Map([...actual].sort()), new Map([...expected].sort()));
  assert.deepEqual(actual.get('fox'), [[0, 3], [1, 205], [2, 0, 1, 3]]);
});

test('norms are the BM25 length byte of each document and field; stats count tokens and docs', async () => {
  const factory = new DocumentFactory({ properties: { body: { type: 'text' }, tag: { type: 'keyword' } } });
  const { readers } = await writeDocs(factory, [{ body: 'one two three' }, { body: 'a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a' }, { tag: 'x' }]);
  const norms = readers.norms.get('body')!;
  assert.equal(norms[0], computeNormByte('positions', { length: 3, numOverlap: 0, uniqueTermCount: 3 }));
  assert.equal(norms[1], computeNormByte('positions', { length: 30, numOverlap: 0, uniqueTermCount: 1 }));
  assert.equal(norms[2], 0, 'a document without the field has norm 0');
  assert.equal(readers.norms.get('tag'), undefined, 'keyword fields have no norms by default');
  const stats = readers.field('body')!.stats!;
  assert.deepEqual(stats, { docCount: 2, sumDocFreq: 4, sumTotalTermFreq: 33, termCount: 4 });
});

test('keyword, numeric, date, boolean and double fields get ES doc values; booleans index T/F', async () => {
  const factory = new DocumentFactory({
    properties: {
      tag: { type: 'keyword' },
      n: { type: 'long' },
      when: { type: 'date' },
      flag: { type: 'boolean' },
      price: { type: 'double' },
      big: { type: 'long' },
    },
  });
  const { readers } = await writeDocs(factory, [
    { tag: ['b', 'a', 'b'], n: [3, -1], when: '2024-01-02T03:04:05Z', flag: true, price: 1.5, big: '9223372036854775807' },
    { n: 7, flag: false, price: [2.25, -0.5] },
    { tag: 'c' },
  ]);
  const tags = readers.docValues.sortedSet('tag')!;
  const tagsOf = (doc: number): string[] => {
    const out: string[] = [];
    for (let i = tags.docStart(doc); i < tags.docEnd(doc); i++) out.push(tags.lookupOrdString(tags.ordAt(i)));
    return out;
  };
  assert.deepEqual([tagsOf(0), tagsOf(1), tagsOf(2)], [['a', 'b'], [], ['c']]);
  const numbers = readers.docValues.sortedNumeric('n')!;
  const valuesOf = (column: typeof numbers, doc: number): number[] => {
    const out: number[] = [];
    for (let i = column.docStart(doc); i < column.docEnd(doc); i++) out.push(column.valueAt(i));
    return out;
  };
  assert.deepEqual([valuesOf(numbers, 0), valuesOf(numbers, 1), valuesOf(numbers, 2)], [[-1, 3], [7], []]);
  assert.deepEqual(valuesOf(readers.docValues.sortedNumeric('when')!, 0), [Date.UTC(2024, 0, 2, 3, 4, 5)]);
  assert.deepEqual([valuesOf(readers.docValues.sortedNumeric('flag')!, 0), valuesOf(readers.docValues.sortedNumeric('flag')!, 1)], [[1], [0]]);
  const prices = readers.docValues.sortedNumeric('price')!;
  assert.equal(prices.kind, 'double');
  assert.deepEqual([valuesOf(prices, 0), valuesOf(prices, 1)], [[1.5], [-0.5, 2.25]]);
  const big = readers.docValues.sortedNumeric('big')!;
  assert.equal(big.bigIntAt(big.docStart(0)), 9223372036854775807n);
  assert.deepEqual([...postingsOf(readers, 'flag').keys()], ['F', 'T']);
  assert.deepEqual(postingsOf(readers, 'tag').get('b'), [[0]]);
});

test('metadata: _id terms and stored fields, _source, seqNo/term/version doc values, _ignored and _routing', async () => {
  const factory = new DocumentFactory({ properties: { code: { type: 'keyword', ignore_above: 3 }, title: { type: 'text', store: true } } });
  const buffer = new IndexingBuffer(new CachedAnalyzers(registry));
  const first = buffer.addDocument('a', factory.parse({ code: 'toolong', title: 'Hello' }, 'a', 'r1'));
  buffer.setMeta(first, 10, 2, 5);
  const second = buffer.addDocument('b', factory.parse({ code: 'ok' }, 'b'));
  buffer.setMeta(second, 11, 2, 1);
  const directory = new MemoryDirectory();
  const written = await writeBufferedSegment(directory, '_0', snapshotBuffer(buffer).segment, 'lz4');
  const readers = await SegmentReaders.open(directory, '_0', { id: written.info.id });
  assert.deepEqual([...postingsOf(readers, '_id').keys()], ['a', 'b']);
  assert.deepEqual([...postingsOf(readers, '_ignored')], [['code', [[0]]]]);
  assert.deepEqual([...postingsOf(readers, '_routing')], [['r1', [[0]]]]);
  const stored = readers.stored.document(0).map(({ name, value }) => [name, value instanceof Uint8Array ? Buffer.from(value).toString() : value]);
  assert.deepEqual(stored, [
    ['_id', 'a'],
    ['_source', '{"code":"toolong","title":"Hello"}'],
    ['_routing', 'r1'],
    ['_ignored', 'code'],
    ['title', 'Hello'],
  ]);
  const meta = (field: string): number[] => [0, 1].map((doc) => readers.docValues.numeric(field)!.get(doc));
  assert.deepEqual([meta('_seq_no'), meta('_primary_term'), meta('_version')], [[10, 11], [2, 2], [5, 1]]);
});

test('an immense term fails the document with ES wording and leaves it deleted in the buffer', () => {
  const factory = new DocumentFactory({ properties: { body: { type: 'text', analyzer: 'keyword' } } });
  const buffer = new IndexingBuffer(new CachedAnalyzers(registry));
  buffer.addDocument('ok', factory.parse({ body: 'fine' }));
  assert.throws(
    () => buffer.addDocument('bad', factory.parse({ body: 'x'.repeat(40000) })),
    (err: Error & { type?: string }) =>
      err.type === 'illegal_argument_exception' && /immense term in field="body".*bytes can be at most 32766 in length; got 40000/.test(err.message),
  );
  assert.deepEqual([...buffer.deletedDocs], [1]);
  assert.equal(buffer.numDocs, 2);
});

test('an unknown analyzer fails before the buffer changes', () => {
  const factory = new DocumentFactory({ properties: { body: { type: 'text' } } });
  const buffer = new IndexingBuffer({
    analyzer: (name) => {
      throw new Error(`failed to find analyzer [${name}]`);
    },
    normalize: (_n, value) => value,
  });
  assert.throws(() => buffer.addDocument('x', factory.parse({ body: 'text' })), /failed to find analyzer/);
  assert.equal(buffer.numDocs, 0);
});

test('many terms and documents round-trip through the slice pool exactly', async () => {
  const factory = new DocumentFactory({ properties: { body: { type: 'text', analyzer: 'whitespace' } } });
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const docs = Array.from({ length: 400 }, () => ({ body: Array.from({ length: 1 + random(60) }, () => `t${random(random(2) === 0 ? 5 : 3000)}`).join(' ') }));
  const { readers } = await writeDocs(factory, docs);
  const actual = postingsOf(readers, 'body');
  const expected = new Map<string, number[][]>();
  docs.forEach(({ body }, doc) => {
    const positions = new Map<string, number[]>();
    body.split(' ').forEach((term, position) => positions.set(term, [...(positions.get(term) ?? []), position]));
    for (const [term, list] of positions) expected.set(term, [...(expected.get(term) ?? []), [doc, ...list]]);
  });
  assert.equal(actual.size, expected.size);
  for (const [term, list] of expected) assert.deepEqual(actual.get(term), list, term);
});
