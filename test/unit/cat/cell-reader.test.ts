import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cell, cellsOfSources, renderCatTable, rowOfSource, type CatCellFunctions } from '../../../src/cat/index.js';
import { columns, params, rows, table } from './cat-fixture.js';

type Name = (typeof columns)[number]['name'];

/** The fixture's rows as sources, with a log of the cells made. */
function lazyTable() {
  const made: string[] = [];
  const cells = Object.fromEntries(
    columns.map((column) => [
      column.name,
      (row: number) => {
        made.push(`${column.name}${row}`);
        return rows[row]![column.name];
      },
    ]),
  ) as unknown as CatCellFunctions<Name, number>;
  return { made, lazy: { columns, rows: cellsOfSources([0, 1, 2], cells) }, cells };
}

test('a table read cell by cell prints exactly as the same rows given whole, text and rows, sorted or not', () => {
  const cases: Array<Record<string, string>> = [{}, { v: 'true' }, { h: '*' }, { s: 'count:desc,name' }, { h: 'took,n', s: 'took', time: 's' }];
  for (const values of cases) {
    const { lazy } = lazyTable();
    assert.deepEqual(renderCatTable(lazy, params(values), 'text'), renderCatTable(table, params(values), 'text'), JSON.stringify(values));
    assert.deepEqual(renderCatTable(lazy, params(values), 'rows'), renderCatTable(table, params(values), 'rows'), JSON.stringify(values));
  }
});

test('only the cells a request prints or sorts on are made', () => {
  const { made, lazy } = lazyTable();
  renderCatTable(lazy, params({ h: 'name', s: 'count' }), 'text');
  assert.deepEqual(new Set(made.map((entry) => entry.replace(/\d$/, ''))), new Set(['name', 'count']), 'not size, took or note');
  assert.ok(made.includes('name0') && made.includes('name1') && made.includes('name2'));
});

test('rowOfSource makes every cell of a row', () => {
  const { cells } = lazyTable();
  assert.deepEqual(rowOfSource(columns, cells, 1), rows[1]);
  assert.deepEqual(rowOfSource(columns, { ...cells, note: () => cell.string('n') }, 2).note, cell.string('n'));
});

test('plain rows are still checked: a missing or unknown cell is a programming error', () => {
  const { note: _note, ...missing } = rows[0]!;
  assert.throws(() => renderCatTable({ columns, rows: [missing as never] }, params({}), 'text'), /cat row 0 has no cell for column \[note\]/);
  assert.throws(() => renderCatTable({ columns, rows: [{ ...rows[0]!, extra: null } as never] }, params({}), 'text'), /unknown column \[extra\]/);
  assert.throws(() => renderCatTable({ columns, rows: [{ ...rows[0]!, note: undefined } as never] }, params({}), 'text'), /no cell for column \[note\]/);
});
