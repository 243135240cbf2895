/**
 * A hit's `fields` and `ignored_field_values` sections as ES prints them. ES collects both into one
 * java.util.HashMap on the SearchHit (doc value fields put first, then the `fields` option's results), so
 * the printed order is that map's iteration order: by hash bucket of the final table size, insertion order
 * within a bucket. Fields without values take part in sizing the table but are not printed.
 */
import { javaHashMapOrder } from '../../mapping/value-preview.js';
import type { DocumentField } from './fields.js';
import type { FieldValue } from './value-fetchers.js';

export interface HitFields {
  /** `fields`: name -> values, in ES's order; empty when nothing is to be printed. */
  readonly fields: Map<string, (FieldValue | null)[]>;
  /** `ignored_field_values`: name -> ignored source values, same order. */
  readonly ignoredFieldValues: Map<string, FieldValue[]>;
}

/**
 * Merges what the doc value and `fields` sub-phases put on a hit. A field in both keeps its first position
 * and takes the `fields` option's values (the later put wins, as in ES).
 */
export function hitFields(docValueFields: ReadonlyMap<string, readonly FieldValue[]> | undefined, fetched: ReadonlyMap<string, DocumentField> | undefined): HitFields {
  const merged = new Map<string, DocumentField>();
  for (const [name, values] of docValueFields ?? []) merged.set(name, { values, ignoredValues: [] });
  for (const [name, field] of fetched ?? []) merged.set(name, field);
  const names = [...merged.keys()];
  const fields = new Map<string, (FieldValue | null)[]>();
  const ignoredFieldValues = new Map<string, FieldValue[]>();
  for (const index of javaHashMapOrder(names)) {
    const name = names[index]!;
    const field = merged.get(name)!;
    if (field.values.length > 0) fields.set(name, [...field.values]);
    if (field.ignoredValues.length > 0) ignoredFieldValues.set(name, [...field.ignoredValues]);
  }
  return { fields, ignoredFieldValues };
}
