import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDisplayHeaders } from '../../../src/cat/display-headers.js';
import { cell, defineColumns, renderCatTable, timestampCells, timestampColumns } from '../../../src/cat/index.js';
import { columns, params } from './cat-fixture.js';

const show = (h: string | undefined, extra: Record<string, string> = {}) =>
  buildDisplayHeaders(columns, params(h === undefined ? extra : { h, ...extra })).map((header) => `${header.name}=${header.display}`);

test('without h, the default columns in table order', () => {
  assert.deepEqual(show(undefined), ['name=name', 'count=count', 'size=size']);
});

test('h takes names and aliases in request order; the header shows what was typed', () => {
  assert.deepEqual(show('sz,n,took'), ['size=sz', 'name=n', 'took=took']);
  assert.deepEqual(show('bytesUsed'), ['size=bytesUsed']);
});

test('unknown names are silently dropped, and entries are not trimmed', () => {
  assert.deepEqual(show('nope,count, name'), ['count=count']);
  assert.deepEqual(show(''), []);
});

test('wildcards expand in table order, over names and aliases, deduplicated', () => {
  assert.deepEqual(show('*'), ['name=name', 'count=count', 'size=size', 'took=took', 'note=note']);
  assert.deepEqual(show('n*'), ['name=name', 'note=note']);
  assert.deepEqual(show('c*'), ['count=count']);
  assert.deepEqual(show('count,*o*'), ['count=count', 'took=took', 'note=note']);
  assert.deepEqual(show('*o*,count'), ['count=count', 'took=took', 'note=note']);
  // A typed alias is kept as its own entry beside the expanded name (ES dedups the strings, not columns).
  assert.deepEqual(show('c*,cnt'), ['count=count', 'count=cnt']);
  assert.deepEqual(show('count,count'), ['count=count']);
});

test('when columns share an alias, the last one wins (ES keeps scanning)', () => {
  const shared = defineColumns([
    { name: 'load_1m', aliases: ['l'] },
    { name: 'load_5m', aliases: ['l'] },
    { name: 'load_15m', aliases: ['l'] },
  ]);
  assert.deepEqual(buildDisplayHeaders(shared, params({ h: 'l' })), [{ name: 'load_15m', display: 'l' }]);
  assert.deepEqual(
    buildDisplayHeaders(shared, params({ h: 'l*' })).map((header) => header.name),
    ['load_1m', 'load_5m', 'load_15m'],
  );
});

test('ts=false hides the epoch and timestamp columns, by default and through h', () => {
  const timed = defineColumns([...timestampColumns, { name: 'status' }]);
  const names = (values: Record<string, string>) => buildDisplayHeaders(timed, params(values)).map((header) => header.display);
  assert.deepEqual(names({}), ['epoch', 'timestamp', 'status']);
  assert.deepEqual(names({ ts: 'false' }), ['status']);
  assert.deepEqual(names({ ts: 'false', h: 'ts,t,status' }), ['status']);
  assert.deepEqual(names({ h: 'ts,status' }), ['ts', 'status']);
  assert.throws(() => names({ ts: 'nope' }), /Failed to parse value \[nope\]/);
  const row = { ...timestampCells(Date.UTC(2024, 0, 2, 3, 4, 5)), status: cell.string('green') };
  const output = renderCatTable({ columns: timed, rows: [row] }, params({}), 'text');
  assert.deepEqual(output, { kind: 'text', text: '1704164645 03:04:05 green\n' });
});

test('a column with a sibling shows its pri. twin right after it when pri is set', () => {
  const withSibling = defineColumns([
    { name: 'docs.count', aliases: ['dc'], sibling: 'pri' },
    { name: 'pri.docs.count', shownByDefault: false },
  ]);
  const names = (values: Record<string, string>) => buildDisplayHeaders(withSibling, params(values)).map((h) => `${h.name}=${h.display}`);
  assert.deepEqual(names({ h: 'dc' }), ['docs.count=dc']);
  assert.deepEqual(names({ h: 'dc', pri: 'true' }), ['docs.count=dc', 'pri.docs.count=pri.dc']);
  assert.deepEqual(names({ pri: 'true' }), ['docs.count=docs.count'], 'without h the default columns only');
});
