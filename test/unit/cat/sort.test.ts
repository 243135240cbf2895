import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import { cell, compareCells, defineColumns, renderCatTable, type CatRow } from '../../../src/cat/index.js';
import { params, table } from './cat-fixture.js';

function order(s: string, h = 'name'): string[] {
  const output = renderCatTable(table, params({ s, h }), 'text');
  return output.kind === 'text' ? output.text.trimEnd().split('\n').map((line) => line.trim()) : [];
}

test('s sorts ascending by default, by typed value (10 after 9, not before)', () => {
  assert.deepEqual(order('count'), ['alpha', 'gamma', 'b']);
  assert.deepEqual(order('count:asc'), ['alpha', 'gamma', 'b']);
  assert.deepEqual(order('cnt'), ['alpha', 'gamma', 'b'], 'aliases work');
});

test('s=:desc reverses; ties keep table order (stable) either way', () => {
  assert.deepEqual(order('count:desc'), ['b', 'alpha', 'gamma']);
  assert.deepEqual(order('count:desc,name:desc'), ['b', 'gamma', 'alpha']);
});

test('byte sizes sort by bytes and nulls come first ascending, last descending', () => {
  assert.deepEqual(order('size'), ['gamma', 'b', 'alpha']);
  assert.deepEqual(order('size:desc'), ['alpha', 'b', 'gamma']);
});

test('times sort by duration, not by their text', () => {
  assert.deepEqual(order('took'), ['b', 'alpha', 'gamma']);
});

test('an unknown sort key is ES\'s 500 unsupported_operation_exception', () => {
  assert.throws(
    () => order('nope:desc'),
    (err: unknown) =>
      err instanceof EsError &&
      err.type === 'unsupported_operation_exception' &&
      err.status === 500 &&
      err.message === 'Unable to sort by unknown sort key `nope`',
  );
  assert.throws(() => order('count,,name'), /unknown sort key ``/);
});

test('the sort applies to structured rows too', () => {
  const output = renderCatTable(table, params({ s: 'count:desc', h: 'n' }), 'rows');
  assert.deepEqual(output, { kind: 'rows', rows: [{ n: 'b' }, { n: 'alpha' }, { n: 'gamma' }] });
});

test('cells of different kinds compare by their text, as ES compares different classes', () => {
  assert.ok(compareCells(cell.string('10'), cell.long(9)) < 0);
  assert.ok(compareCells(cell.long(9), cell.long(10)) < 0);
  assert.ok(compareCells(null, cell.long(-5)) < 0);
  assert.equal(compareCells(null, null), 0);
  assert.ok(compareCells(cell.fixed2(10), cell.fixed2(9.5)) > 0);
});

test('a shared alias sorts by the last column that declares it', () => {
  const columns = defineColumns([
    { name: 'a', aliases: ['x'] },
    { name: 'b', aliases: ['x'] },
  ]);
  const rows: CatRow<'a' | 'b'>[] = [
    { a: cell.long(1), b: cell.long(2) },
    { a: cell.long(2), b: cell.long(1) },
  ];
  const output = renderCatTable({ columns, rows }, params({ s: 'x', h: 'a' }), 'text');
  assert.deepEqual(output, { kind: 'text', text: '2\n1\n' });
});
