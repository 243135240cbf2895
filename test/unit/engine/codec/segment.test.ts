/** A whole segment through SegmentWriter and SegmentReaders, in memory and on disk, intact and damaged. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { EsError } from '../../../../src/common/errors.js';
import {
  computeNormByte,
  LiveDocs,
  liveDocsFileName,
  NO_MORE_DOCS,
  POSTINGS_POSITIONS,
  readLiveDocs,
  SegmentReaders,
  SegmentWriter,
  writeLiveDocs,
  type FieldSpec,
} from '../../../../src/engine/codec/index.js';
import { CODEC_VERSION, readSegmentInfo, writeSegmentInfo } from '../../../../src/engine/codec/segment/segment-info.js';
import { FsDirectory } from '../../../../src/engine/store/fs-directory.js';
import { MemoryDirectory } from '../../../../src/engine/store/memory-directory.js';
import type { Directory } from '../../../../src/engine/store/directory.js';

const FIELDS: FieldSpec[] = [
  { name: 'body', indexOptions: 'positions', hasNorms: true, docValues: 'none' },
  { name: 'tag', indexOptions: 'docs', hasNorms: false, docValues: 'sorted_set' },
  { name: 'size', indexOptions: 'none', hasNorms: false, docValues: 'numeric' },
];

const DOCS = [
  { id: 'a', body: 'the quick brown fox', tags: ['animal', 'fast'], size: 10 },
  { id: 'b', body: 'the lazy dog sleeps the day', tags: ['animal'], size: -3 },
  { id: 'c', body: 'quick quick quick', tags: [], size: 2 ** 40 },
  { id: 'd', body: '', tags: ['empty'], size: 0 },
];

/** A tiny indexing chain: whitespace tokens, positions, norms, sorted terms. */
async function writeSegment(directory: Directory, name: string): Promise<void> {
  const writer = new SegmentWriter({ name, maxDoc: DOCS.length, fields: FIELDS });
  const tokens = DOCS.map((d) => d.body.split(' ').filter((t) => t.length > 0));
  writer.setNorms('body', Uint8Array.from(tokens, (t) => computeNormByte('positions', { length: t.length, numOverlap: 0, uniqueTermCount: new Set(t).size })));
  const terms = [...new Set(tokens.flat())].sort();
  writer.writePostings('body', (out) => {
    for (const term of terms) {
      out.startTerm(Buffer.from(term));
      tokens.forEach((doc, docId) => {
        const positions = doc.flatMap((t, i) => (t === term ? [i] : []));
        if (positions.length === 0) return;
        out.startDoc(docId, positions.length);
        for (const p of positions) out.addPosition(p);
      });
      out.finishTerm();
    }
  });
  writer.writePostings('tag', (out) => {
    for (const tag of [...new Set(DOCS.flatMap((d) => d.tags))].sort()) {
      out.startTerm(Buffer.from(tag));
      DOCS.forEach((d, docId) => d.tags.includes(tag) && out.startDoc(docId, 1));
      out.finishTerm();
    }
  });
  const tagged = DOCS.map((d, i) => [i, d.tags] as const).filter(([, tags]) => tags.length > 0);
  writer.docValues.addSortedSet('tag', { docs: Int32Array.from(tagged, ([i]) => i), values: tagged.map(([, tags]) => tags) });
  writer.docValues.addNumeric('size', { kind: 'long', docs: Int32Array.of(0, 1, 2, 3), values: Float64Array.from(DOCS, (d) => d.size) });
  for (const d of DOCS) writer.stored.addDocument([{ name: '_id', value: d.id }, { name: '_source', value: Buffer.from(JSON.stringify(d)) }]);
  const info = await writer.finish(directory);
  assert.equal(info.files.length, 6);
}

async function checkSegment(readers: SegmentReaders): Promise<void> {
  assert.equal(readers.maxDoc, 4);
  const body = readers.field('body')!;
  assert.deepEqual(body.stats, { docCount: 3, sumDocFreq: 10, sumTotalTermFreq: 13, termCount: 8 });
  const tag = readers.field('tag')!;
  assert.deepEqual(tag.stats, { docCount: 3, sumDocFreq: 4, sumTotalTermFreq: 4, termCount: 3 });
  assert.equal(readers.field('size')!.stats, null);

  const quick = readers.terms.terms('body')!.seekExact('quick')!;
  assert.equal(quick.docFreq, 2);
  assert.equal(quick.totalTermFreq, 4);
  const postings = readers.terms.terms('body')!.postings(quick, POSTINGS_POSITIONS);
  assert.equal(postings.nextDoc(), 0);
  assert.deepEqual([postings.nextPosition()], [1]);
  assert.equal(postings.nextDoc(), 2);
  assert.deepEqual([postings.nextPosition(), postings.nextPosition(), postings.nextPosition()], [0, 1, 2]);
  assert.equal(postings.nextDoc(), NO_MORE_DOCS);
  assert.equal(readers.terms.terms('body')!.seekExact('cat'), null);

  const norms = readers.norms.get('body')!;
  assert.deepEqual([...norms], [4, 6, 3, 0]);
  const size = readers.docValues.numeric('size')!;
  assert.ok(size.kind === 'long');
  assert.deepEqual([0, 1, 2, 3].map((d) => size.get(d)), [10, -3, 2 ** 40, 0]);
  const tags = readers.docValues.sortedSet('tag')!;
  assert.deepEqual([tags.docStart(0), tags.docEnd(0)].map((i) => i), [0, 2]);
  assert.equal(tags.lookupOrdString(tags.ordAt(0)), 'animal');
  assert.equal(tags.docValueCount(2), 0);
  const fetched = readers.stored.document(1);
  assert.equal(fetched[0]!.value, 'b');
  assert.deepEqual(JSON.parse(Buffer.from(fetched[1]!.value as Uint8Array).toString()), DOCS[1]);
}

function assertCorrupt(err: unknown, fileName: string): true {
  assert.ok(err instanceof EsError, String(err));
  assert.equal(err.type, 'corrupt_index_exception');
  assert.ok(err.message.includes(fileName), `${err.message} does not name ${fileName}`);
  return true;
}

test('a segment round-trips through a memory directory', async () => {
  const directory = new MemoryDirectory();
  await writeSegment(directory, '_0');
  assert.deepEqual(await directory.listAll(), ['_0.doc', '_0.dvd', '_0.fdt', '_0.nvd', '_0.pos', '_0.si', '_0.tim']);
  await checkSegment(await SegmentReaders.open(directory, '_0'));
});

test('a segment round-trips on disk, with a live docs generation', async () => {
  const path = await mkdtemp(join(tmpdir(), 'gannet-codec-'));
  try {
    const directory = await FsDirectory.open(path);
    await writeSegment(directory, '_1');
    const opened = await SegmentReaders.open(directory, '_1');
    assert.equal(opened.liveDocs, null);
    const deleted = LiveDocs.allLive(4).withDeleted([1, 3]);
    await directory.writeFile(liveDocsFileName('_1', 1), writeLiveDocs(opened.info.id, 1, deleted).bytes);
    await directory.sync(await directory.listAll());
    const reopened = await SegmentReaders.open(directory, '_1', { id: opened.info.id, liveDocsGeneration: 1 });
    await checkSegment(reopened);
    assert.deepEqual([0, 1, 2, 3].map((d) => reopened.liveDocs!.isLive(d)), [true, false, true, false]);
    assert.equal(reopened.liveDocs!.deletedCount, 2);
    // a segment file is never overwritten
    await assert.rejects(() => directory.writeFile('_1.si', Buffer.alloc(1)));
    // a file truncated on disk is reported with its path
    await truncate(join(path, '_1.dvd'), 10);
    await assert.rejects(() => SegmentReaders.open(directory, '_1'), (err) => assertCorrupt(err, join(path, '_1.dvd')));
  } finally {
    await rm(path, { recursive: true, force: true });
  }
});

test('every damaged, truncated, missing or foreign file of a segment is refused, naming the file', async () => {
  const pristine = new MemoryDirectory();
  await writeSegment(pristine, '_0');
  const other = new MemoryDirectory();
  await writeSegment(other, '_0'); // same content, different segment id
  const names = await pristine.listAll();
  // The engine opens a segment with the id its commit point recorded; that is what rejects a foreign .si.
  const id = (await SegmentReaders.open(pristine, '_0')).info.id;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...names), fc.nat(), fc.constantFrom('flip', 'truncate', 'missing', 'foreign'), async (name, where, how) => {
      const directory = new MemoryDirectory();
      for (const file of names) await directory.writeFile(file, await pristine.readFile(file));
      const bytes = await pristine.readFile(name);
      if (how === 'flip') {
        const damaged = Buffer.from(bytes);
        damaged[where % bytes.length] ^= 0x10;
        directory.replaceForTesting(name, damaged);
      } else if (how === 'truncate') {
        directory.replaceForTesting(name, bytes.subarray(0, where % bytes.length));
      } else if (how === 'missing') {
        await directory.deleteFile(name);
      } else {
        directory.replaceForTesting(name, await other.readFile(name));
      }
      await assert.rejects(() => SegmentReaders.open(directory, '_0', { id }), (err) => assertCorrupt(err, `memory:${name}`));
    }),
    { numRuns: 120 },
  );
});

test('live docs round-trip and reject a wrong generation or inconsistent counts', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3000 }), fc.array(fc.nat(), { maxLength: 100 }), fc.integer({ min: 1, max: 5000 }), (maxDoc, deletes, generation) => {
      const id = Buffer.alloc(16, 9);
      const live = LiveDocs.allLive(maxDoc).withDeleted(maxDoc === 0 ? [] : deletes.map((d) => d % maxDoc));
      const { bytes } = writeLiveDocs(id, generation, live);
      const name = liveDocsFileName('_3', generation);
      assert.match(name, /^_3_[0-9a-z]+\.liv$/);
      const read = LiveDocs.fromWords(maxDoc, live.words, live.deletedCount);
      assert.ok(read instanceof LiveDocs);
      const reopened = readLive(bytes, id, generation, maxDoc);
      for (let doc = 0; doc < maxDoc; doc++) assert.equal(reopened.isLive(doc), !deletes.some((d) => d % maxDoc === doc));
      assert.equal(reopened.deletedCount, new Set(deletes.map((d) => d % maxDoc)).size * (maxDoc === 0 ? 0 : 1));
      assert.throws(() => readLive(bytes, id, generation + 1, maxDoc), (err) => assertCorrupt(err, '_3.liv'));
      assert.equal(typeof LiveDocs.fromWords(maxDoc, live.words, live.deletedCount + 1), 'string');
    }),
    { numRuns: 40 },
  );
});

function readLive(bytes: Buffer, id: Uint8Array, generation: number, maxDoc: number): LiveDocs {
  return readLiveDocs(bytes, '_3.liv', id, generation, maxDoc);
}

test('segment info round-trips any fields, files and attributes', () => {
  const fieldInfo = fc.record({
    name: fc.string({ unit: 'binary', maxLength: 12 }),
    number: fc.nat({ max: 10_000 }),
    indexOptions: fc.constantFrom('none', 'docs', 'freqs', 'positions') as fc.Arbitrary<'none' | 'docs' | 'freqs' | 'positions'>,
    hasNorms: fc.boolean(),
    docValues: fc.constantFrom('none', 'numeric', 'sorted', 'sorted_set', 'sorted_numeric') as fc.Arbitrary<
      'none' | 'numeric' | 'sorted' | 'sorted_set' | 'sorted_numeric'
    >,
    stats: fc.option(
      fc.record(
        { docCount: fc.nat({ max: 1000 }), sumDocFreq: fc.maxSafeNat(), sumTotalTermFreq: fc.maxSafeNat(), termCount: fc.maxSafeNat() },
        { noNullPrototype: true },
      ),
      { nil: null },
    ),
  }, { noNullPrototype: true });
  fc.assert(
    fc.property(
      fc.array(fieldInfo, { maxLength: 10 }),
      fc.array(fc.record({ name: fc.string({ maxLength: 20 }), length: fc.maxSafeNat(), checksum: fc.nat({ max: 0xffffffff }) }, { noNullPrototype: true }), { maxLength: 10 }),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 5, noNullPrototype: true }),
      fc.uint8Array({ minLength: 16, maxLength: 16 }),
      (fields, files, attributes, id) => {
        const info = { name: '_7', id: Buffer.from(id), maxDoc: 1000, codecVersion: CODEC_VERSION, fields, files, attributes };
        const { bytes } = writeSegmentInfo(info);
        const read = readSegmentInfo(bytes, '_7.si');
        assert.deepEqual({ ...read, id: Buffer.from(read.id) }, { ...info, attributes: { ...attributes } });
        assert.deepEqual(readSegmentInfo(bytes, '_7.si', id).fields, fields);
        const hostile = readSegmentInfo(writeSegmentInfo({ ...info, attributes: JSON.parse('{"__proto__":"x"}') }).bytes, '_7.si');
        assert.equal(Object.getPrototypeOf(hostile.attributes), Object.prototype);
        assert.equal(hostile.attributes['__proto__'], 'x');
      },
    ),
    { numRuns: 60 },
  );
});
