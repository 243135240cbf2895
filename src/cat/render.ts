/**
 * The one entry point every `_cat` endpoint renders through (ES's RestTable.buildResponse). It returns a
 * neutral result: plain text, or rows of strings for the caller to write as JSON/YAML with the normal
 * writer (so `pretty` and `filter_path` apply). Which of the two is the caller's choice, from `format` and
 * the Accept header.
 */
import { booleanParam, type CatParamSource } from './params.js';
import { buildDisplayHeaders } from './display-headers.js';
import { rowOrder } from './row-order.js';
import { renderText } from './render-text.js';
import { renderValue, unitChoice } from './render-value.js';
import { cellReaderOf, type CatTable } from './table.js';

export type CatOutput =
  | { readonly kind: 'text'; readonly text: string }
  /** One object per row; keys are the display headers, values the rendered text or null. */
  | { readonly kind: 'rows'; readonly rows: Array<Record<string, string | null>> };

export type CatOutputMode = 'text' | 'rows';

export function renderCatTable(table: CatTable, params: CatParamSource, mode: CatOutputMode): CatOutput {
  const cells = cellReaderOf(table);
  const headers = buildDisplayHeaders(table.columns, params);
  const order = rowOrder(table.columns, cells, params);
  const units = unitChoice(params);
  if (mode === 'rows') {
    const rows = order.map((rowIndex) => {
      const out: Record<string, string | null> = {};
      for (const header of headers) out[header.display] = renderValue(cells.cell(rowIndex, header.name), units);
      return out;
    });
    return { kind: 'rows', rows };
  }
  // `v` is read for text output only, as ES does (`format=json&v=junk` is not an error).
  const verbose = booleanParam(params, 'v', false);
  return { kind: 'text', text: renderText({ columns: table.columns, cells, headers, order, units, verbose }) };
}
