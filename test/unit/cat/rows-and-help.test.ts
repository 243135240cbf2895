import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCatTable, renderHelp } from '../../../src/cat/index.js';
import { columns, params, table } from './cat-fixture.js';

test('structured rows: one object per row, keys as typed in h, values strings or null', () => {
  const output = renderCatTable(table, params({ h: 'n,count,sz,took,note' }), 'rows');
  assert.deepEqual(output, {
    kind: 'rows',
    rows: [
      { n: 'alpha', count: '9', sz: '2kb', took: '1.5s', note: 'x' },
      { n: 'b', count: '10', sz: '512b', took: '20ms', note: null },
      { n: 'gamma', count: '9', sz: null, took: '1.5m', note: 'last' },
    ],
  });
  if (output.kind !== 'rows') return;
  for (const row of output.rows) for (const value of Object.values(row)) assert.ok(value === null || typeof value === 'string');
});

test('structured rows ignore v (even a malformed one) and honour bytes=', () => {
  const output = renderCatTable(table, params({ v: 'junk', h: 'size', bytes: 'b' }), 'rows');
  assert.deepEqual(output, { kind: 'rows', rows: [{ size: '2048' }, { size: '512' }, { size: null }] });
});

test('an empty table gives an empty array', () => {
  assert.deepEqual(renderCatTable({ columns, rows: [] }, params({ v: 'true' }), 'rows'), { kind: 'rows', rows: [] });
});

test('help: name | aliases | description, every part padded, not available when undescribed', () => {
  const expected = [
    'name  | n            | the name     ',
    'count | c,cnt        | how many     ',
    'size  | sz,bytesUsed | bytes used   ',
    'took  | t            | not available',
    'note  | no           | free text    ',
  ]
    .map((line) => line + '\n')
    .join('');
  assert.equal(renderHelp(columns), expected);
});
