/**
 * Records keyed by names users choose: field, aggregation, analyzer, alias, template, setting and parameter names.
 * Any string is such a name, `constructor`, `toString` and `__proto__` included. A plain object inherits from
 * Object.prototype, so `record[name]` finds inherited members for names the record does not hold, `name in record`
 * says yes to them, and `record['__proto__'] = value` replaces the prototype instead of adding a key (prototype
 * pollution when the value is then written through). Code that reads or writes such a record by a user-chosen key
 * goes through these helpers, or uses a Map.
 */

/** The record's own value under `key`; never an inherited member. */
export function ownValue<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Whether the record holds `key` itself (what `key in record` means for a dictionary). */
export function hasOwnKey(record: object | undefined, key: string): boolean {
  return record !== undefined && Object.hasOwn(record, key);
}

/**
 * Sets `record[key]` as an own, enumerable property. Only `__proto__` needs defineProperty (it is the one accessor
 * Object.prototype has); any other name assigned plainly becomes an own property even if the prototype has it.
 */
export function setOwnValue<V>(record: Record<string, V>, key: string, value: NoInfer<V>): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** Deletes an own key (a plain `delete` on a missing inherited name is harmless; this is for symmetry). */
export function deleteOwnKey(record: Record<string, unknown>, key: string): void {
  if (Object.hasOwn(record, key)) delete record[key];
}

/** A plain object built from entries with own properties only (`__proto__` included): Object.fromEntries's rule. */
export function recordFromEntries<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  return Object.fromEntries(entries) as Record<string, V>;
}

/** A copy of a record whose keys are all own properties, with `key` set (or added) to `value`. */
export function withOwnValue<V>(record: Readonly<Record<string, V>>, key: string, value: NoInfer<V>): Record<string, V> {
  const copy: Record<string, V> = { ...record };
  setOwnValue(copy, key, value);
  return copy;
}
