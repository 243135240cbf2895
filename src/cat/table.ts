/**
 * A cat table: ordered column definitions (ES's header cells with their `alias`, `desc`, `default`,
 * `text-align` and `sibling` attributes) and rows of typed cells keyed by column name. Column names are a
 * type parameter so a row that forgets a column, or names one that does not exist, fails to compile.
 */
import type { CatCell } from './cell.js';

export interface CatColumn<Name extends string = string> {
  readonly name: Name;
  /** Other names accepted by `h` and `s`, in ES's order (the help output prints them comma-joined). */
  readonly aliases?: readonly string[];
  /** Help text; ES prints `not available` when a column has none. */
  readonly description?: string;
  /** Shown when `h` is absent. ES's `default:false` columns set this to false. */
  readonly shownByDefault?: boolean;
  /** Right-aligned columns (numbers, sizes) pad on the left, header included. */
  readonly align?: 'left' | 'right';
  /**
   * ES's `sibling` attribute: when the request sets this flag (e.g. `pri=true`) and the column is chosen
   * with `h`, the column `<flag>.<name>` is shown after it.
   */
  readonly sibling?: string;
}

export type CatRow<Name extends string = string> = Readonly<Record<Name, CatCell>>;

/**
 * Rows read cell by cell, each cell made only when the renderer reads it (to print it or sort on it): for wide
 * tables of which a request shows a few columns (`_cat/nodes` has ~90 and shows 10 by default). Made by
 * `cellsOfSources`.
 */
export interface CatCellReader<Name extends string = string> {
  readonly rowCount: number;
  cell(row: number, column: Name): CatCell;
}

/** One function per column that makes its cell from a row's source; a column without one fails to compile. */
export type CatCellFunctions<Name extends string, Source> = Readonly<Record<Name, (source: Source) => CatCell>>;

export function cellsOfSources<Name extends string, Source>(sources: readonly Source[], cells: CatCellFunctions<Name, Source>): CatCellReader<Name> {
  return { rowCount: sources.length, cell: (row, column) => cells[column](sources[row]!) };
}

/** Every cell of a row of a `CatCellFunctions` table, made now (for tests and callers that want a plain row). */
export function rowOfSource<Name extends string, Source>(columns: readonly CatColumn<Name>[], cells: CatCellFunctions<Name, Source>, source: Source): CatRow<Name> {
  const row = {} as Record<Name, CatCell>;
  for (const column of columns) row[column.name] = cells[column.name](source);
  return row;
}

export interface CatTable<Name extends string = string> {
  readonly columns: readonly CatColumn<Name>[];
  readonly rows: readonly CatRow<Name>[] | CatCellReader<Name>;
}

export function isCellReader<Name extends string>(rows: CatTable<Name>['rows']): rows is CatCellReader<Name> {
  return !Array.isArray(rows);
}

/** The rows of any table as a reader (a plain row array is checked first, as ES's Table checks its rows). */
export function cellReaderOf<Name extends string>(table: CatTable<Name>): CatCellReader<Name> {
  const rows = table.rows;
  if (isCellReader(rows)) return rows;
  checkTable(table as CatTable);
  return { rowCount: rows.length, cell: (row, column) => rows[row]![column] };
}

/** Keeps the literal column names of a definition list, so rows can be checked against them. */
export function defineColumns<const Name extends string>(columns: readonly CatColumn<Name>[]): readonly CatColumn<Name>[] {
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column.name)) throw new Error(`duplicate cat column [${column.name}]`);
    seen.add(column.name);
  }
  return columns;
}

/** ES's Table.EPOCH and Table.TIMESTAMP: hidden by `ts=false`. */
export const EPOCH_COLUMN = 'epoch';
export const TIMESTAMP_COLUMN = 'timestamp';

/** The two columns ES's `startHeadersWithTimestamp()` puts first. */
export const timestampColumns = defineColumns([
  { name: EPOCH_COLUMN, aliases: ['t', 'time'], description: 'seconds since 1970-01-01 00:00:00' },
  { name: TIMESTAMP_COLUMN, aliases: ['ts', 'hms', 'hhmmss'], description: 'time in HH:MM:SS' },
]);

/** Cells for the timestamp columns of a row started at `nowMillis` (UTC, as ES formats them). */
export function timestampCells(nowMillis: number): CatRow<typeof EPOCH_COLUMN | typeof TIMESTAMP_COLUMN> {
  const time = new Date(nowMillis).toISOString().slice(11, 19);
  return {
    epoch: { kind: 'long', value: Math.floor(nowMillis / 1000) },
    timestamp: { kind: 'string', value: time },
  };
}

/** Column names of each column list, as a Set (the lists are module constants: built once, not per request). */
const columnNames = new WeakMap<readonly CatColumn[], ReadonlySet<string>>();

/** Every row must have exactly the table's columns; a mismatch is a programming error, as in ES's Table. */
export function checkTable(table: CatTable): void {
  if (isCellReader(table.rows)) return;
  let names = columnNames.get(table.columns);
  if (names === undefined) {
    names = new Set(table.columns.map((column) => column.name));
    columnNames.set(table.columns, names);
  }
  table.rows.forEach((row, index) => {
    let count = 0;
    for (const key in row) {
      if (!Object.hasOwn(row, key)) continue;
      if (!names.has(key)) throw new Error(`cat row ${index} has a cell for unknown column [${key}]`);
      if (row[key] === undefined) throw new Error(`cat row ${index} has no cell for column [${key}]`);
      count++;
    }
    if (count !== names.size) {
      const missing = [...names].find((name) => !Object.hasOwn(row, name));
      throw new Error(`cat row ${index} has no cell for column [${missing}]`);
    }
  });
}
