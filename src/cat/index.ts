/** The shared `_cat` table renderer: what other layers may use. */
export { cell, compareCells, defaultText, type CatCell, type CatCellKind } from './cell.js';
export {
  defineColumns,
  timestampColumns,
  timestampCells,
  EPOCH_COLUMN,
  TIMESTAMP_COLUMN,
  type CatColumn,
  cellsOfSources,
  rowOfSource,
  type CatRow,
  type CatTable,
  type CatCellReader,
  type CatCellFunctions,
} from './table.js';
export { renderCatTable, type CatOutput, type CatOutputMode } from './render.js';
export { renderHelp } from './render-help.js';
export { splitByComma, type CatParamSource } from './params.js';
