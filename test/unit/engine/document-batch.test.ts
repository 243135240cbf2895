/** Documents sent to indexing workers come back exactly: every field kind, flags, metadata, sources. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IndexableField } from '../../../src/mapping/index.js';
import { BatchEncoder, LONG_STRING_CHARS, decodeBatch, decodeDocumentFields, encodeDocumentFields, type BufferInputDocument } from '../../../src/engine/indexing/document-batch.js';

const fields: IndexableField[] = [
  { kind: 'text', field: 'title', value: 'Hello \u{1f600} world', indexed: true, stored: true, analyzer: 'english', positionIncrementGap: 100, indexOptions: 'positions', norms: true },
  { kind: 'text', field: 'raw', value: 'x', indexed: false, stored: false, analyzer: 'standard', positionIncrementGap: 0, indexOptions: 'docs', norms: false },
  { kind: 'keyword', field: 'tag', value: 'A', indexed: true, docValues: true, stored: false, normalizer: 'lowercase', norms: false, indexOptions: 'docs' },
  { kind: 'keyword', field: 'code', value: 'b', indexed: false, docValues: true, stored: true, normalizer: null, norms: true, indexOptions: 'freqs' },
  { kind: 'long', field: 'n', indexed: true, docValues: true, stored: false, numericType: 'integer', value: -42n },
  { kind: 'long', field: 'big', indexed: true, docValues: false, stored: true, numericType: 'long', value: -9223372036854775808n },
  { kind: 'double', field: 'price', indexed: true, docValues: true, stored: false, numericType: 'float', value: 1.5 },
  { kind: 'double', field: 'scaled', indexed: true, docValues: true, stored: false, numericType: 'scaled_float', value: 12.34, scaledValue: 1234n },
  { kind: 'double', field: 'huge', indexed: false, docValues: true, stored: false, numericType: 'scaled_float', value: 1e300, scaledValue: 2n ** 70n },
  { kind: 'date', field: 'when', indexed: true, docValues: true, stored: true, epochMillis: -86400000 },
  { kind: 'boolean', field: 'flag', indexed: true, docValues: false, stored: false, value: true },
];

test('a batch round-trips documents, metadata and deletes exactly', () => {
  const encoder = new BatchEncoder();
  const docs: [string, BufferInputDocument][] = [
    ['a', { routing: 'r', ignored: ['x', 'y'], storedSource: Buffer.from('{"a":1}'), fields }],
    ['b', { routing: undefined, ignored: [], storedSource: undefined, fields: [] }],
    ['c\u00e9', { routing: undefined, ignored: [], storedSource: Buffer.from('{}'), fields: fields.slice(2, 4) }],
  ];
  docs.forEach(([id, document], i) => {
    encoder.add(id, document);
    encoder.setMeta(i, 10 + i, 2, 3 + i);
  });
  encoder.markDeleted(7);
  const { batch } = encoder.finish();
  const decoded = [...decodeBatch(structuredClone(batch))];
  assert.deepEqual(
    decoded.map(({ id, document, seqNo, primaryTerm, version }) => ({
      id,
      document: { ...document, storedSource: document.storedSource === undefined ? undefined : Buffer.from(document.storedSource).toString() },
      seqNo,
      primaryTerm,
      version,
    })),
    docs.map(([id, document], i) => ({
      id,
      document: { ...document, storedSource: document.storedSource === undefined ? undefined : Buffer.from(document.storedSource).toString() },
      seqNo: 10 + i,
      primaryTerm: 2,
      version: 3 + i,
    })),
  );
  assert.deepEqual([...batch.deletes], [7]);
});

test('a batch large enough to grow every array round-trips when its buffers are transferred', () => {
  const encoder = new BatchEncoder();
  const count = 3000;
  const sourceOf = (i: number) => Buffer.from(JSON.stringify({ i, pad: 'p'.repeat(i % 97) }));
  for (let i = 0; i < count; i++) {
    encoder.add(`id-${i}`, { routing: i % 7 === 0 ? `r${i}` : undefined, ignored: [], storedSource: sourceOf(i), fields: i % 2 === 0 ? fields : fields.slice(4, 10) });
    encoder.setMeta(i, i, 1, 1);
  }
  const { batch, transfer } = encoder.finish();
  const moved = structuredClone(batch, { transfer });
  let i = 0;
  for (const { id, document, seqNo } of decodeBatch(moved)) {
    assert.equal(id, `id-${i}`);
    assert.equal(seqNo, i);
    assert.equal(document.routing, i % 7 === 0 ? `r${i}` : undefined);
    assert.equal(Buffer.from(document.storedSource!).toString(), sourceOf(i).toString());
    assert.deepEqual(document.fields, i % 2 === 0 ? fields : fields.slice(4, 10));
    i++;
  }
  assert.equal(i, count);
});

test('strings of a megabyte and more travel as transferred UTF-8 bytes and come back exactly', () => {
  const long = 'gr\u00fc\u00dfe \u{1f600} '.repeat(Math.ceil(LONG_STRING_CHARS / 4));
  const encoder = new BatchEncoder();
  encoder.add('doc', { routing: undefined, ignored: [], storedSource: undefined, fields: [{ ...fields[0]!, value: long } as IndexableField, fields[2]!] });
  encoder.setMeta(0, 1, 1, 1);
  const { batch, transfer } = encoder.finish();
  assert.equal(batch.longStrings?.length, 1);
  assert.equal(batch.strings[batch.longStrings![0]!.index], '');
  assert.ok(transfer.includes(batch.longStrings![0]!.utf8.buffer as ArrayBuffer));
  // As postMessage delivers it: the bytes moved, the rest cloned.
  const delivered = structuredClone(batch, { transfer });
  const [decoded] = [...decodeBatch(delivered)];
  assert.equal((decoded!.document.fields[0] as { value: string }).value, long);
  assert.equal((decoded!.document.fields[1] as { value: string }).value, 'A');
});

test('a large document encoded by a parse worker crosses twice without copying its long string or its shared source', () => {
  const long = 'lorem ipsum \u00e9 '.repeat(Math.ceil(LONG_STRING_CHARS / 10));
  const documentFields = [{ ...fields[0]!, value: long } as IndexableField, fields[2]!];
  // The parse worker's side: the long string leaves as UTF-8 bytes that are transferred.
  const { encoded, transfer } = encodeDocumentFields({ routing: undefined, ignored: [], storedSource: undefined, fields: documentFields });
  // (Before this, the moved string was dropped here and a 1M-character value was indexed as ''.)
  assert.equal(encoded.longStrings?.length, 1);
  const again = encodeDocumentFields({ routing: undefined, ignored: [], storedSource: undefined, fields: documentFields }).encoded;
  assert.ok(transfer.includes(encoded.longStrings![0]!.utf8.buffer as ArrayBuffer));
  const arrived = structuredClone(encoded, { transfer });
  // A buffer on this thread reads field objects: the string comes back whole.
  assert.equal((decodeDocumentFields(arrived)[0] as { value: string }).value, long);
  // The indexing worker's batch adopts the document: the shared source is referenced, the bytes passed on.
  const source = Buffer.from(new SharedArrayBuffer(64));
  source.write('{"message":"shared"}');
  const encoder = new BatchEncoder();
  encoder.add('big', { routing: undefined, ignored: [], storedSource: source, fields: [], encodedFields: arrived });
  encoder.setMeta(0, 5, 1, 1);
  const { batch, transfer: batchTransfer } = encoder.finish();
  assert.equal(batch.sources.buffer, source.buffer, 'the shared source is not copied');
  assert.ok(!batchTransfer.includes(source.buffer as unknown as ArrayBuffer), 'a SharedArrayBuffer is never in a transfer list');
  assert.ok(batchTransfer.includes(arrived.longStrings![0]!.utf8.buffer as ArrayBuffer));
  const [decoded] = [...decodeBatch(structuredClone(batch, { transfer: batchTransfer }))];
  assert.equal(decoded!.id, 'big');
  assert.equal(Buffer.from(decoded!.document.storedSource!).toString(), source.toString());
  assert.equal((decoded!.document.fields[0] as { value: string }).value, long);
  assert.equal((decoded!.document.fields[1] as { value: string }).value, 'A');
  // Added to a batch that already holds a document (not adopted), the long string is restored too.
  const mixed = new BatchEncoder();
  mixed.add('small', { routing: undefined, ignored: [], storedSource: Buffer.from('{}'), fields: [fields[3]!] });
  mixed.add('big', { routing: undefined, ignored: [], storedSource: source, fields: [], encodedFields: again });
  const docs = [...decodeBatch(structuredClone(mixed.finish().batch))];
  assert.equal((docs[1]!.document.fields[0] as { value: string }).value, long);
});
