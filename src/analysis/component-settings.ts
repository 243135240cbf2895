/**
 * The settings of one analysis component (`{type: stop, stopwords: [...], ignore_case: "true"}`), read the
 * way Elasticsearch reads them: values may arrive as strings (index settings are strings on the wire) or
 * as JSON numbers/booleans, and a list may be a JSON array or a comma-separated string.
 */
import { errors } from '../common/errors.js';
import { ownValue, setOwnValue } from '../common/own-keys.js';

export type SettingsObject = Readonly<Record<string, unknown>>;

/** Turns dotted keys (`"analyzer.a.tokenizer": "x"`) into nested objects, merging with nested input. */
export function expandDottedKeys(value: unknown): SettingsObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const path = key.split('.');
    let target = out;
    for (const segment of path.slice(0, -1)) {
      const next = ownValue(target, segment);
      if (next === null || typeof next !== 'object' || Array.isArray(next)) setOwnValue(target, segment, {});
      target = ownValue(target, segment) as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    const expanded = child !== null && typeof child === 'object' && !Array.isArray(child) ? expandDottedKeys(child) : child;
    const existing = ownValue(target, last);
    // `a` after `a.b`: the deeper key keeps its object whatever the order of the keys, as toNested (index
    // settings) decides, so every key of the input still reads back through own keys.
    if (existing !== null && typeof existing === 'object' && !Array.isArray(existing) && (expanded === null || typeof expanded !== 'object')) continue;
    setOwnValue(
      target,
      last,
      existing !== null && typeof existing === 'object' && !Array.isArray(existing) && typeof expanded === 'object' && expanded !== null && !Array.isArray(expanded)
        ? { ...(existing as object), ...(expanded as object) }
        : expanded,
    );
  }
  return out;
}

export class ComponentSettings {
  constructor(readonly values: SettingsObject = {}) {}

  has(key: string): boolean {
    const value = ownValue(this.values, key);
    return value !== undefined && value !== null;
  }

  getString(key: string): string | undefined {
    const value = ownValue(this.values, key);
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) return value.map(String).join(',');
    return String(value);
  }

  getInt(key: string, fallback: number): number {
    const value = this.getString(key);
    if (value === undefined) return fallback;
    if (!/^[+-]?\d+$/.test(value)) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}]`);
    const parsed = Number(value);
    if (parsed > 2147483647 || parsed < -2147483648) {
      throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}]`);
    }
    return parsed;
  }

  getBool(key: string, fallback: boolean): boolean {
    const value = this.getString(key);
    if (value === undefined) return fallback;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw errors.illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
  }

  /** A JSON array as is; a string split on commas, trimmed, empties dropped (Settings.getAsList). */
  getList(key: string): string[] | undefined {
    const value = ownValue(this.values, key);
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value)) return value.map((v) => String(v));
    return String(value)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  }
}
