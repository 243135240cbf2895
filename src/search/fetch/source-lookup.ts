/**
 * ES's XContentMapValues path lookups over a parsed source, ported with their quirks because field values
 * come out in the order (and with the duplicates) they produce: a path may be spelled with dots inside key
 * names ({"a.b": 1} and {"a": {"b": 1}} both answer "a.b"), arrays are walked transparently, and `null`
 * stands in for a mapped field's null_value.
 */
import { isSourceObject, type SourceObject, type SourceValue } from './source-tree.js';

/** Java's String.split("\\.") : empty trailing segments are dropped. */
export function splitPath(path: string): string[] {
  const parts = path.split('.');
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** A value extracted by path: a source value, or the caller's null_value substitute. */
export type Extracted<N> = SourceValue | N | Extracted<N>[];

/**
 * XContentMapValues.extractValue(path, map, nullValue): the value(s) at `path` (a list when several places
 * hold one), `nullValue` where the source says null, undefined when the path is absent.
 */
export function extractValue<N>(path: string, source: SourceObject, nullValue: N | undefined): Extracted<N> | undefined {
  const elements = splitPath(path);
  if (elements.length === 0) return undefined;
  return extractAt(elements, 0, source, nullValue);
}

function extractAt<N>(elements: readonly string[], index: number, current: SourceValue | undefined, nullValue: N | undefined): Extracted<N> | undefined {
  if (Array.isArray(current)) {
    const list: Extracted<N>[] = [];
    for (const item of current) {
      const value = extractAt(elements, index, item, nullValue);
      if (value !== undefined && value !== null) list.push(value);
    }
    return list;
  }
  if (index === elements.length) return current !== null && current !== undefined ? current : nullValue;
  if (!isSourceObject(current)) return undefined;
  let key = elements[index]!;
  let nextIndex = index + 1;
  const extracted: Array<Extracted<N> | null | undefined> = [];
  for (;;) {
    if (current.has(key)) {
      const mapValue = current.get(key)!;
      if (mapValue === null) extracted.push(nullValue);
      else {
        const value = extractAt(elements, nextIndex, mapValue, nullValue);
        if (value !== undefined && value !== null) extracted.push(value);
      }
    }
    if (nextIndex === elements.length) {
      if (extracted.length === 0) return undefined;
      if (extracted.length === 1) return extracted[0] ?? undefined;
      return extracted.filter((value): value is Extracted<N> => value !== undefined && value !== null);
    }
    key += '.' + elements[nextIndex]!;
    nextIndex++;
  }
}

/**
 * XContentMapValues.extractRawValues: every leaf value found along `path`, arrays flattened. A scalar met
 * before the path ends is collected too, as ES does.
 */
export function extractRawValues(path: string, source: SourceObject): SourceValue[] {
  const values: SourceValue[] = [];
  const elements = splitPath(path);
  if (elements.length === 0) return values;
  rawFromObject(values, source, elements, 0);
  return values;
}

function rawFromObject(values: SourceValue[], part: SourceObject, elements: readonly string[], index: number): void {
  if (index === elements.length) return;
  let key = elements[index]!;
  let nextIndex = index + 1;
  for (;;) {
    const current = part.get(key);
    if (current !== undefined && current !== null) {
      if (isSourceObject(current)) rawFromObject(values, current, elements, nextIndex);
      else if (Array.isArray(current)) rawFromList(values, current, elements, nextIndex);
      else values.push(current);
    }
    if (nextIndex === elements.length) return;
    key += '.' + elements[nextIndex]!;
    nextIndex++;
  }
}

function rawFromList(values: SourceValue[], part: readonly SourceValue[], elements: readonly string[], index: number): void {
  for (const value of part) {
    if (value === null) continue;
    if (isSourceObject(value)) rawFromObject(values, value, elements, index);
    else if (Array.isArray(value)) rawFromList(values, value, elements, index);
    else if (index === elements.length) values.push(value);
  }
}
