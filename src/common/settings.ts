/**
 * Flat settings (`http.port` -> "9200") read through typed getters that fail with ES-style messages.
 * Where they come from (defaults, gannet.yml, -E flags) is the node layer's business.
 */
import { EsError } from './errors.js';
import { parseTimeValueMillis } from './time-value.js';
import { parseByteSize } from './byte-size.js';
import { ownValue, setOwnValue } from './own-keys.js';

export type FlatSettings = Record<string, string>;

/** Flattens nested YAML maps into dotted keys; lists become comma strings, as ES does for list settings. */
export function flatten(value: unknown, prefix = '', out: FlatSettings = {}): FlatSettings {
  if (value === null || value === undefined) return out;
  if (Array.isArray(value)) {
    setOwnValue(out, prefix, value.map((v) => String(v)).join(','));
  } else if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    setOwnValue(out, prefix, String(value));
  }
  return out;
}

export class Settings {
  constructor(private readonly values: FlatSettings) {}

  raw(): Readonly<FlatSettings> {
    return this.values;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.values, key);
  }

  get(key: string): string | undefined {
    return ownValue(this.values, key);
  }

  getString(key: string, fallback: string): string {
    return ownValue(this.values, key) ?? fallback;
  }

  getBool(key: string, fallback: boolean): boolean {
    const value = ownValue(this.values, key);
    if (value === undefined) return fallback;
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
  }

  getInt(key: string, fallback: number): number {
    const value = ownValue(this.values, key);
    if (value === undefined) return fallback;
    if (!/^-?\d+$/.test(value.trim())) throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`);
    return Number(value);
  }

  getBytes(key: string, fallback: number): number {
    const value = ownValue(this.values, key);
    return value === undefined ? fallback : parseByteSize(value, key);
  }

  getTimeMillis(key: string, fallback: number): number {
    const value = ownValue(this.values, key);
    return value === undefined ? fallback : parseTimeValueMillis(value, key);
  }

  getList(key: string): string[] | undefined {
    const value = ownValue(this.values, key);
    if (value === undefined) return undefined;
    const trimmed = value.trim().replace(/^\[|\]$/g, '');
    return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim()).filter(Boolean);
  }

}

/** Parses a port setting: `9200` or a range `9200-9299`; `0` asks the OS for a free port. */
export function parsePortRange(value: string, key: string): [number, number] {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(value);
  if (!match) throw new EsError('illegal_argument_exception', `Failed to parse port range [${value}] for setting [${key}]`);
  const low = Number(match[1]);
  const high = match[2] === undefined ? low : Number(match[2]);
  if (low > 65535 || high > 65535 || high < low) {
    throw new EsError('illegal_argument_exception', `Failed to parse port range [${value}] for setting [${key}]`);
  }
  return [low, high];
}
