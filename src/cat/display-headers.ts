/**
 * Which columns a request shows, and under what header: ES's RestTable.buildDisplayHeaders. Without `h`,
 * the columns shown by default. With `h`, each comma entry in request order: a `*` pattern expands to every
 * matching column (by name or alias) in table order, anything else is taken as typed and shown if it names a
 * column or an alias (unknown names are silently dropped), duplicates collapse to their first place.
 */
import { simpleMatch } from '../common/wildcards.js';
import { booleanParam, splitByComma, type CatParamSource } from './params.js';
import { EPOCH_COLUMN, TIMESTAMP_COLUMN, type CatColumn } from './table.js';

export interface DisplayHeader {
  /** The column the cells come from. */
  readonly name: string;
  /** What the header line (and the JSON key) says: the name or alias the user typed. */
  readonly display: string;
}

export function buildDisplayHeaders(columns: readonly CatColumn[], params: CatParamSource): DisplayHeader[] {
  const requested = params.param('h');
  if (requested === undefined) {
    return columns
      .filter((column) => column.shownByDefault !== false && showTimestamp(column.name, params))
      .map((column) => ({ name: column.name, display: column.name }));
  }
  const byName = new Map(columns.map((column) => [column.name, column]));
  const display: DisplayHeader[] = [];
  for (const wanted of expandRequestedHeaders(columns, requested)) {
    const header = resolve(columns, byName, wanted);
    if (header === undefined || !showTimestamp(header.name, params)) continue;
    display.push(header);
    const sibling = byName.get(header.name)?.sibling;
    if (sibling !== undefined) {
      const siblingName = `${sibling}.${header.name}`;
      if (byName.has(siblingName) && booleanParam(params, sibling, false)) {
        display.push({ name: siblingName, display: `${sibling}.${header.display}` });
      }
    }
  }
  return display;
}

function expandRequestedHeaders(columns: readonly CatColumn[], requested: string): Set<string> {
  const headers = new Set<string>();
  for (const entry of splitByComma(requested)) {
    if (!entry.includes('*')) {
      headers.add(entry);
      continue;
    }
    for (const column of columns) {
      if (simpleMatch(entry, column.name) || (column.aliases ?? []).some((alias) => simpleMatch(entry, alias))) {
        headers.add(column.name);
      }
    }
  }
  return headers;
}

function resolve(columns: readonly CatColumn[], byName: ReadonlyMap<string, CatColumn>, wanted: string): DisplayHeader | undefined {
  if (byName.has(wanted)) return { name: wanted, display: wanted };
  // ES keeps scanning after a match, so when several columns share an alias (`l` on the three load
  // columns) the last one wins.
  let found: DisplayHeader | undefined;
  for (const column of columns) {
    if ((column.aliases ?? []).includes(wanted)) found = { name: column.name, display: wanted };
  }
  return found;
}

function showTimestamp(name: string, params: CatParamSource): boolean {
  if (name !== EPOCH_COLUMN && name !== TIMESTAMP_COLUMN) return true;
  return booleanParam(params, 'ts', true);
}
