/**
 * Index settings printed as ES prints them (Settings.toXContent): with `flat_settings=true`, the sorted flat
 * keys; otherwise nested objects built the way Settings.getAsStructuredMap builds them — sorted keys put into
 * java.util.HashMaps (initial capacity 2) — so keys come out in HashMap iteration order, as in ES's responses.
 * List settings (stored as `key.0`, `key.1`, ...) print as arrays.
 */
import { javaStringHashCode } from '../../cluster/health/java-hash-order.js';
import { flatWithLists, type FlatSettings } from '../../indices/index.js';

/** Iteration order of a java.util.HashMap that started at `initialCapacity` and received keys in this order. */
export function javaHashMapOrder(keys: readonly string[], initialCapacity: number): string[] {
  let capacity = initialCapacity;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const placed = keys.map((key, position) => {
    const hash = javaStringHashCode(key);
    return { key, position, bucket: ((hash ^ (hash >>> 16)) >>> 0) & (capacity - 1) };
  });
  placed.sort((a, b) => a.bucket - b.bucket || a.position - b.position);
  return placed.map(({ key }) => key);
}

/** A map that remembers insertion order, turned into a plain object in HashMap order when done. */
class JavaMap {
  readonly entries = new Map<string, unknown>();
}

function processSetting(map: JavaMap, prefix: string, setting: string, value: unknown): void {
  const dot = setting.indexOf('.');
  if (dot === -1) {
    const inner = map.entries.get(prefix + setting);
    if (inner instanceof JavaMap) for (const [key, child] of inner.entries) map.entries.set(`${prefix}${setting}.${key}`, child);
    map.entries.set(prefix + setting, value);
    return;
  }
  const key = setting.slice(0, dot);
  const rest = setting.slice(dot + 1);
  const existing = map.entries.get(prefix + key);
  if (existing === undefined) {
    const inner = new JavaMap();
    processSetting(inner, '', rest, value);
    map.entries.set(prefix + key, inner);
  } else if (existing instanceof JavaMap) {
    processSetting(existing, '', rest, value);
  } else {
    processSetting(map, `${prefix}${key}.`, rest, value);
  }
}

function toObject(map: JavaMap): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of javaHashMapOrder([...map.entries.keys()], 2)) {
    const value = map.entries.get(key);
    Object.defineProperty(out, key, { value: value instanceof JavaMap ? toObject(value) : value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function settingsXContent(settings: FlatSettings, flat: boolean): Record<string, unknown> {
  const withLists = flatWithLists(settings);
  if (flat) return withLists;
  const root = new JavaMap();
  for (const key of Object.keys(withLists).sort()) processSetting(root, '', key, withLists[key]);
  return toObject(root);
}

/** ZonedDateTime.toString of an instant in UTC: seconds and fraction only when not zero (ISO_LOCAL_TIME's rule). */
function javaUtcDateTimeString(epochMillis: number): string {
  const date = new Date(epochMillis);
  const two = (n: number): string => String(n).padStart(2, '0');
  const year = date.getUTCFullYear();
  const yearText = year > 9999 ? `+${year}` : year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  let text = `${yearText}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`;
  const seconds = date.getUTCSeconds();
  const millis = date.getUTCMilliseconds();
  if (seconds > 0 || millis > 0) text += `:${two(seconds)}`;
  if (millis > 0) text += `.${String(millis).padStart(3, '0')}`;
  return `${text}Z`;
}

/** Version.toString of a legacy version id (8190299 -> 8.19.2), as IndexVersion.toReleaseVersion prints it. */
function releaseVersionOf(versionId: string): string | undefined {
  if (!/^\d+$/.test(versionId)) return undefined;
  const id = Number(versionId);
  return `${Math.floor(id / 1_000_000)}.${Math.floor(id / 10_000) % 100}.${Math.floor(id / 100) % 100}`;
}

/**
 * IndexMetadata.addHumanReadableSettings, what `human=true` adds to get index and get settings:
 * `index.version.created_string` and `index.creation_date_string`.
 */
export function withHumanReadableSettings(settings: FlatSettings): FlatSettings {
  const out: FlatSettings = { ...settings };
  const created = settings['index.version.created'];
  const release = created === undefined ? undefined : releaseVersionOf(created);
  if (release !== undefined) out['index.version.created_string'] = release;
  const creationDate = settings['index.creation_date'];
  if (creationDate !== undefined && /^-?\d+$/.test(creationDate)) out['index.creation_date_string'] = javaUtcDateTimeString(Number(creationDate));
  return out;
}
