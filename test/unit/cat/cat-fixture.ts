/** A small table used by the renderer tests: mixed alignments, typed cells and a null. */
import { cell, defineColumns, type CatParamSource, type CatRow, type CatTable } from '../../../src/cat/index.js';

export const columns = defineColumns([
  { name: 'name', aliases: ['n'], description: 'the name' },
  { name: 'count', aliases: ['c', 'cnt'], align: 'right', description: 'how many' },
  { name: 'size', aliases: ['sz', 'bytesUsed'], align: 'right', description: 'bytes used' },
  { name: 'took', aliases: ['t'], align: 'right', shownByDefault: false },
  { name: 'note', aliases: ['no'], shownByDefault: false, description: 'free text' },
]);

type Name = (typeof columns)[number]['name'];

export const rows: CatRow<Name>[] = [
  { name: cell.string('alpha'), count: cell.long(9), size: cell.bytes(2048), took: cell.millis(1500), note: cell.string('x') },
  { name: cell.string('b'), count: cell.long(10), size: cell.bytes(512), took: cell.millis(20), note: null },
  { name: cell.string('gamma'), count: cell.long(9), size: null, took: cell.millis(90_000), note: cell.string('last') },
];

export const table: CatTable<Name> = { columns, rows };

export function params(values: Record<string, string>): CatParamSource {
  return { param: (name) => values[name] };
}
