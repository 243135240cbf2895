/**
 * The plain-text table: ES's RestTable.buildTextPlainResponse. Columns are one space apart and as wide as
 * their widest cell (or header, with `v`); right-aligned columns pad on the left, the others on the right,
 * except that the last column is never padded on the right. A null cell is an empty, padded cell.
 */
import type { DisplayHeader } from './display-headers.js';
import { renderValue, type UnitChoice } from './render-value.js';
import type { CatCellReader, CatColumn } from './table.js';

export interface TextLayoutInput {
  readonly columns: readonly CatColumn[];
  readonly cells: CatCellReader;
  readonly headers: readonly DisplayHeader[];
  readonly order: readonly number[];
  readonly units: UnitChoice;
  readonly verbose: boolean;
}

export function renderText(input: TextLayoutInput): string {
  const { cells, headers, order, units, verbose } = input;
  const alignOf = alignments(input.columns);
  const rendered = Array.from({ length: cells.rowCount }, (_, row) => headers.map((header) => renderValue(cells.cell(row, header.name), units)));
  const widths = headers.map((header, columnIndex) => {
    let width = verbose ? header.display.length : 0;
    for (const cells of rendered) width = Math.max(width, cells[columnIndex]?.length ?? 0);
    return width;
  });
  const lastColumn = headers.length - 1;
  const lines: string[] = [];
  const layoutLine = (cells: ReadonlyArray<string | null>): string =>
    cells
      .map((text, columnIndex) => pad(text, widths[columnIndex]!, alignOf.get(headers[columnIndex]!.name)!, columnIndex === lastColumn))
      .join(' ');
  if (verbose) lines.push(layoutLine(headers.map((header) => header.display)));
  for (const rowIndex of order) lines.push(layoutLine(rendered[rowIndex]!));
  return lines.map((line) => line + '\n').join('');
}

/** Each column's alignment by name, per column list (module constants: built once, not per request). */
const alignmentsByColumns = new WeakMap<readonly CatColumn[], ReadonlyMap<string, 'left' | 'right'>>();

function alignments(columns: readonly CatColumn[]): ReadonlyMap<string, 'left' | 'right'> {
  let map = alignmentsByColumns.get(columns);
  if (map === undefined) {
    map = new Map(columns.map((column) => [column.name, column.align ?? 'left']));
    alignmentsByColumns.set(columns, map);
  }
  return map;
}

/**
 * ES's RestTable.pad. ES computes the padding in a Java `byte`, so columns wider than 127 characters lose
 * their padding there; Gannet pads them correctly (the text still splits on whitespace the same way).
 */
export function pad(text: string | null, width: number, align: 'left' | 'right', isLastColumn: boolean): string {
  const value = text ?? '';
  const leftOver = width - value.length;
  if (leftOver > 0 && align === 'right') return ' '.repeat(leftOver) + value;
  if (isLastColumn || leftOver <= 0) return value;
  return value + ' '.repeat(leftOver);
}
