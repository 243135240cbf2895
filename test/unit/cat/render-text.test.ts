import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCatTable, type CatOutput } from '../../../src/cat/index.js';
import { params, table } from './cat-fixture.js';

function text(output: CatOutput): string {
  assert.equal(output.kind, 'text');
  return output.kind === 'text' ? output.text : '';
}

test('default columns, single spaces, right-aligned numbers, no trailing spaces on the last column', () => {
  assert.equal(text(renderCatTable(table, params({}), 'text')), ['alpha  9  2kb', 'b     10 512b', 'gamma  9     '].join('\n') + '\n');
});

test('v=true adds the header line, aligned like its column', () => {
  const expected = ['name  count size', 'alpha     9  2kb', 'b        10 512b', 'gamma     9     '].join('\n') + '\n';
  assert.equal(text(renderCatTable(table, params({ v: 'true' }), 'text')), expected);
  assert.equal(text(renderCatTable(table, params({ v: '' }), 'text')), expected, 'a bare ?v means true');
});

test('a null cell is an empty padded cell, right-aligned cells pad even in the last column', () => {
  const expected = ['x     2kb', '     512b', 'last     '].join('\n') + '\n';
  assert.equal(text(renderCatTable(table, params({ h: 'note,size' }), 'text')), expected);
});

test('a null in the last column leaves the separator before it', () => {
  const expected = [' 2kb x', '512b ', '     last'].join('\n') + '\n';
  assert.equal(text(renderCatTable(table, params({ h: 'size,note' }), 'text')), expected);
});

test('the header is never cut: a long header widens its column', () => {
  assert.equal(text(renderCatTable(table, params({ h: 'bytesUsed', v: 'true' }), 'text')), ['bytesUsed', '      2kb', '     512b', '         '].join('\n') + '\n');
});

test('an empty table renders an empty body, or only the header with v', () => {
  const empty = { columns: table.columns, rows: [] };
  assert.equal(text(renderCatTable(empty, params({}), 'text')), '');
  assert.equal(text(renderCatTable(empty, params({ v: 'true' }), 'text')), 'name count size\n');
});

test('h naming no column prints an empty line per row, as ES does', () => {
  assert.equal(text(renderCatTable(table, params({ h: 'nope' }), 'text')), '\n\n\n');
});

test('v must be a boolean for text output', () => {
  assert.throws(() => renderCatTable(table, params({ v: 'yes' }), 'text'), /Failed to parse value \[yes\] as only \[true\] or \[false\] are allowed\./);
});

test('bytes= and time= choose whole units', () => {
  assert.equal(text(renderCatTable(table, params({ h: 'size,took', bytes: 'b', time: 'ms' }), 'text')), ['2048  1500', ' 512    20', '     90000'].join('\n') + '\n');
  assert.equal(text(renderCatTable(table, params({ h: 'size,took', bytes: 'kb', time: 's' }), 'text')), ['2  1', '0  0', '  90'].join('\n') + '\n');
  assert.equal(text(renderCatTable(table, params({ h: 'took' }), 'text')), ['1.5s', '20ms', '1.5m'].join('\n') + '\n');
  assert.equal(text(renderCatTable(table, params({ h: 'size', bytes: 'bogus' }), 'text')), [' 2kb', '512b', '    '].join('\n') + '\n');
});

test('rows checked against the columns: a missing cell is a programming error', () => {
  const broken = { columns: table.columns, rows: [{ name: null }] } as never;
  assert.throws(() => renderCatTable(broken, params({}), 'text'), /has no cell for column \[count\]/);
});
