/**
 * A numeric field's values per document as doubles, in increasing order (ES's SortedNumericDoubleValues
 * over field data): longs, doubles and date millis as stored; scaled_float's stored longs divided by the
 * scaling factor. A field without doc values in the segment reads as having no values.
 */
import type { LeafContext } from '../../core/leaf-context.js';

export type DocDoubles = (doc: number) => readonly number[];

const NONE: readonly number[] = [];

export function docDoubles(leaf: LeafContext, field: string, scalingFactor?: number): DocDoubles {
  const scale = (value: number): number => (scalingFactor === undefined ? value : value / scalingFactor);
  const docValues = leaf.readers.docValues;
  const single = docValues.numeric(field);
  if (single !== undefined) return (doc) => (single.has(doc) ? [scale(single.get(doc))] : NONE);
  const multi = docValues.sortedNumeric(field);
  if (multi === undefined) return () => NONE;
  return (doc) => {
    const values: number[] = [];
    const end = multi.docEnd(doc);
    for (let i = multi.docStart(doc); i < end; i++) values.push(scale(multi.valueAt(i)));
    return values;
  };
}
