/**
 * The order rows are printed in: ES's RestTable.getRowOrder. `s` is a comma list of column names or aliases,
 * each optionally suffixed `:asc` (the default) or `:desc`; rows compare by typed value column after column,
 * and the sort is stable, so ties keep the table's order.
 */
import { EsError } from '../common/errors.js';
import { compareCells } from './cell.js';
import { splitByComma, type CatParamSource } from './params.js';
import type { CatCellReader, CatColumn } from './table.js';

interface SortKey {
  column: string;
  descending: boolean;
}

export function rowOrder(columns: readonly CatColumn[], cells: CatCellReader, params: CatParamSource): number[] {
  const order = Array.from({ length: cells.rowCount }, (_, index) => index);
  const requested = params.param('s');
  if (requested === undefined) return order;
  const keys = parseSortKeys(columns, requested);
  return order.sort((left, right) => {
    for (const key of keys) {
      const comparison = compareCells(cells.cell(left, key.column), cells.cell(right, key.column));
      if (comparison !== 0) return key.descending ? -comparison : comparison;
    }
    return 0;
  });
}

function parseSortKeys(columns: readonly CatColumn[], requested: string): SortKey[] {
  const aliasToColumn = aliasMap(columns);
  return splitByComma(requested).map((entry) => {
    let name = entry;
    let descending = false;
    if (name.endsWith(':desc')) {
      name = name.slice(0, -':desc'.length);
      descending = true;
    } else if (name.endsWith(':asc')) {
      name = name.slice(0, -':asc'.length);
    }
    const column = aliasToColumn.get(name);
    // ES throws a plain UnsupportedOperationException here, which reaches the client as a 500.
    if (column === undefined) throw new EsError('unsupported_operation_exception', `Unable to sort by unknown sort key \`${name}\``);
    return { column, descending };
  });
}

/** ES's Table.getAliasMap: later columns win a shared alias, and a column's own name always maps to itself. */
function aliasMap(columns: readonly CatColumn[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const column of columns) {
    for (const alias of column.aliases ?? []) map.set(alias, column.name);
    map.set(column.name, column.name);
  }
  return map;
}
