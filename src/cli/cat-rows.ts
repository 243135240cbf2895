/**
 * Rows of a `_cat` API asked for with `format=json`: an array of objects whose values are strings or
 * null (ES renders every cell as text, units included). Helpers here turn cells into display text.
 */
import { formatByteSize } from '../common/byte-size.js';
import { ResponseError, type GannetResponse } from './gannet-client.js';
import { expectJson, isObject } from './es-json.js';

export type CatRow = Readonly<Record<string, string | null>>;

export function expectCatRows(response: GannetResponse): CatRow[] {
  const body = expectJson(response);
  if (!Array.isArray(body)) throw new ResponseError(`${response.request} answered with JSON that is not a list of rows`, response);
  return body.filter(isObject).map((row) => {
    const cells: Record<string, string | null> = {};
    for (const [key, value] of Object.entries(row)) {
      cells[key] = value === null || value === undefined ? null : typeof value === 'string' ? value : String(value);
    }
    return cells;
  });
}

export function cell(row: CatRow, key: string): string {
  return row[key] ?? '';
}

/** A cell requested with `bytes=b` (a plain count) shown as ES's human size ("47.3gb"); anything else as sent. */
export function bytesCell(row: CatRow, key: string): string {
  const value = row[key];
  if (value === null || value === undefined) return '';
  return /^\d+$/.test(value) ? formatByteSize(Number(value)) : value;
}

/** A percentage cell with a `%` sign, so a number on its own is never mistaken for a count. */
export function percentCell(row: CatRow, key: string): string {
  const value = row[key];
  return value === null || value === undefined || value === '' ? '' : `${value}%`;
}
