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

export interface CatTable<Name extends string = string> {
  readonly columns: readonly CatColumn<Name>[];
  readonly rows: readonly CatRow<Name>[];
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

/** Every row must have exactly the table's columns; a mismatch is a programming error, as in ES's Table. */
export function checkTable(table: CatTable): void {
  const names = new Set(table.columns.map((column) => column.name));
  table.rows.forEach((row, index) => {
    for (const name of names) {
      if (!Object.hasOwn(row, name) || row[name] === undefined) throw new Error(`cat row ${index} has no cell for column [${name}]`);
    }
    for (const key of Object.keys(row)) {
      if (!names.has(key)) throw new Error(`cat row ${index} has a cell for unknown column [${key}]`);
    }
  });
}
