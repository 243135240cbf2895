/**
 * The request parameters the renderer reads, and how ES reads them. Each is parsed only when the output
 * needs it (ES calls `paramAsBoolean("v")` only for text output, `ts` only when a timestamp column is
 * considered), so a malformed value is an error exactly when ES would report one.
 */
import { parseRestBoolean } from '../common/booleans.js';

/** Where the renderer reads parameters from; a REST request satisfies it. */
export interface CatParamSource {
  param(name: string): string | undefined;
}

export function booleanParam(source: CatParamSource, name: string, defaultValue: boolean): boolean {
  return parseRestBoolean(source.param(name), defaultValue, name);
}

/**
 * ES's `Strings.splitStringByCommaToArray`, which is Java's `String.split(",")`: empty input gives no
 * entries, entries are not trimmed, and trailing empty entries are dropped (`a,,b,` gives `a`, ``, `b`).
 */
export function splitByComma(value: string | undefined): string[] {
  if (value === undefined || value === '') return [];
  const parts = value.split(',');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}
