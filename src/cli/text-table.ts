/**
 * Aligned plain-text tables for people: a header row, columns separated by two spaces, numbers
 * right-aligned, no trailing spaces (so output diffs and greps cleanly). Colour escapes do not count
 * toward width.
 */
import { visibleLength } from './cli-io.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

export function formatTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = columns.map((column, i) => Math.max(visibleLength(column.header), ...rows.map((row) => visibleLength(row[i] ?? ''))));
  const lastVisible = columns.length - 1;
  const line = (cells: readonly string[]): string => {
    const padded = columns.map((column, i) => {
      const cell = cells[i] ?? '';
      const gap = ' '.repeat(widths[i]! - visibleLength(cell));
      if (column.align === 'right') return gap + cell;
      return i === lastVisible ? cell : cell + gap;
    });
    return padded.join('  ').trimEnd() + '\n';
  };
  return line(columns.map((column) => column.header)) + rows.map(line).join('');
}
