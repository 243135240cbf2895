/**
 * Settings as ES's Settings.toXContent prints them: nested objects by default (`{"http":{"port":"9200"}}`),
 * or the dotted keys with `flat_settings=true`. Values stay strings, as ES keeps them; keys sort as ES's
 * TreeMap sorts them. A key that is both a value and a prefix (`a` and `a.b`) stays dotted rather than lose
 * either value.
 */
import { ownValue, setOwnValue } from '../../common/own-keys.js';
import type { JsonObject } from './human-fields.js';

export function settingsJson(flat: Readonly<Record<string, string>>, flatSettings: boolean): JsonObject {
  const keys = Object.keys(flat).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (flatSettings) return Object.fromEntries(keys.map((key) => [key, flat[key]]));
  const root: JsonObject = {};
  for (const key of keys) {
    const parts = key.split('.');
    let target = root;
    let placed = true;
    for (const part of parts.slice(0, -1)) {
      const next = ownValue(target, part);
      if (next === undefined) {
        const child: JsonObject = {};
        setOwnValue(target, part, child);
        target = child;
      } else if (typeof next === 'object' && next !== null) {
        target = next as JsonObject;
      } else {
        placed = false;
        break;
      }
    }
    const leaf = parts[parts.length - 1]!;
    if (placed && ownValue(target, leaf) === undefined) setOwnValue(target, leaf, flat[key]);
    else setOwnValue(root, key, flat[key]);
  }
  return root;
}
