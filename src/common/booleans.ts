/** ES's strict REST boolean: absent -> default, "" or "true" -> true, "false" -> false, anything else -> 400. */
import { EsError } from './errors.js';

export function parseRestBoolean(value: string | undefined, defaultValue: boolean, name: string): boolean {
  if (value === undefined) return defaultValue;
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new EsError(
    'illegal_argument_exception',
    `Failed to parse value [${value}] as only [true] or [false] are allowed.`,
    { metadata: { parameter: name } },
  );
}
