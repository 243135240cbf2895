import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTable } from '../../../src/cli/text-table.js';
import { paint, visibleLength } from '../../../src/cli/cli-io.js';

test('columns are aligned, numbers right-aligned, separated by two spaces, no trailing spaces', () => {
  const text = formatTable(
    [{ header: 'name' }, { header: 'shards', align: 'right' }, { header: 'ip' }],
    [
      ['node-1', '5', '10.0.0.1'],
      ['n2', '120', '10.0.0.22'],
    ],
  );
  assert.equal(text, 'name    shards  ip\n' + 'node-1       5  10.0.0.1\n' + 'n2         120  10.0.0.22\n');
  for (const line of text.split('\n')) assert.equal(line, line.trimEnd());
});

test('a blank last cell leaves no trailing spaces and missing cells render empty', () => {
  const text = formatTable([{ header: 'a' }, { header: 'b' }], [['x', ''], ['yy']]);
  assert.equal(text, 'a   b\nx\nyy\n');
});

test('colour escapes do not count toward the column width', () => {
  const green = paint('green', 'green', true);
  assert.equal(visibleLength(green), 5);
  const text = formatTable([{ header: 'status' }, { header: 'n', align: 'right' }], [[green, '1'], ['red', '10']]);
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  assert.equal(plain, 'status   n\ngreen    1\nred     10\n');
});

test('paint adds nothing when colour is off', () => {
  assert.equal(paint('red', 'red', false), 'red');
  assert.match(paint('red', 'red', true), /^\u001b\[31mred\u001b\[0m$/);
});
