/**
 * `?help`: one line per column in table order, `name | aliases | description`, each part left-aligned and
 * padded to the widest entry, the last one included (so lines end in spaces), as AbstractCatAction prints.
 */
import { pad } from './render-text.js';
import type { CatColumn } from './table.js';

export function renderHelp(columns: readonly CatColumn[]): string {
  const parts = columns.map((column) => [
    column.name,
    (column.aliases ?? []).join(','),
    column.description ?? 'not available',
  ]);
  const widths = [0, 1, 2].map((index) => Math.max(0, ...parts.map((part) => part[index]!.length)));
  return parts
    .map((part) => part.map((text, index) => pad(text, widths[index]!, 'left', false)).join(' | ') + '\n')
    .join('');
}
