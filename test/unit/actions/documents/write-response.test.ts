/** Bulk response items: the byte printer of plain successes prints exactly what the generic writer would. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RawJson } from '../../../../src/common/raw-json.js';
import { bulkItemBody, bulkItems } from '../../../../src/actions/documents/write-response.js';
import type { DocWriteSuccess } from '../../../../src/actions/documents/doc-write.js';

const text = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.-]{0,24}$/),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('"', '\\', '\n', '\u0000', '\ud800', 'é', '日本', '😀'),
);
const count = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.maxSafeNat());
const shardsArbitrary = fc.record({ total: fc.integer({ min: 1, max: 3 }), successful: fc.integer({ min: 0, max: 3 }), failed: fc.integer({ min: 0, max: 3 }) });

const success = (shards: DocWriteSuccess['shards']): fc.Arbitrary<DocWriteSuccess> =>
  fc.record({
    op: fc.constantFrom('index' as const, 'create' as const, 'delete' as const, 'update' as const),
    index: fc.oneof(fc.constantFrom('bench', 'logs-2026.11'), text),
    id: text,
    version: fc.oneof(count, fc.constant(-1)),
    result: fc.constantFrom('created' as const, 'updated' as const, 'deleted' as const, 'not_found' as const, 'noop' as const),
    seqNo: fc.oneof(count, fc.constant(-2)),
    primaryTerm: count,
    forcedRefresh: fc.boolean(),
  }).map((fields) => ({ kind: 'success' as const, ...fields, shards, routing: undefined }));

test('plain success items print exactly as the generic writer prints their bodies (fast-check)', () => {
  fc.assert(
    fc.property(
      fc.array(shardsArbitrary, { minLength: 1, maxLength: 2 }).chain((shardsList) => fc.array(fc.constantFrom(...shardsList).chain(success), { maxLength: 40 })),
      (outcomes) => {
        const printed = bulkItems(outcomes);
        assert.ok(printed instanceof RawJson);
        assert.equal(printed.text, JSON.stringify(outcomes.map(bulkItemBody)));
      },
    ),
    { numRuns: 300 },
  );
});

test('a response larger than the printer’s first buffer comes out whole', () => {
  const shards = { total: 1, successful: 1, failed: 0 };
  const outcomes: DocWriteSuccess[] = [];
  for (let i = 0; i < 5000; i++) {
    outcomes.push({ kind: 'success', op: 'index', index: 'bench', id: `id-${i}-${'x'.repeat(i % 50)}`, version: 1, result: 'created', seqNo: i, primaryTerm: 1, shards, forcedRefresh: false, routing: undefined });
  }
  const printed = bulkItems(outcomes);
  assert.ok(printed instanceof RawJson);
  assert.equal(printed.text, JSON.stringify(outcomes.map(bulkItemBody)));
});

test('items of several shard groups, each with its own `_shards` object, print each its own counts', () => {
  // A bulk's items come in request order, so the groups' outcomes alternate; equal counts print alike whichever
  // object holds them, different counts never run together.
  const groups = [
    { total: 1, successful: 1, failed: 0 },
    { total: 1, successful: 1, failed: 0 },
    { total: 2, successful: 1, failed: 0 },
  ];
  const outcomes: DocWriteSuccess[] = [];
  for (let i = 0; i < 30; i++) {
    outcomes.push({ kind: 'success', op: 'index', index: 'bench', id: `id${i}`, version: 1, result: 'created', seqNo: i, primaryTerm: 1, shards: groups[i % 3]!, forcedRefresh: false, routing: undefined });
  }
  const printed = bulkItems(outcomes);
  assert.ok(printed instanceof RawJson);
  assert.equal(printed.text, JSON.stringify(outcomes.map(bulkItemBody)));
});
