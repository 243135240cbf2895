/**
 * The value types a setting can have, named as Elasticsearch's Setting factories are (intSetting, longSetting,
 * timeSetting, ...), with their parsers worded as ES words their failures. A registry entry says its type; the
 * type alone decides whether a value is well-formed, so a documented type and the check that runs cannot drift.
 */
import { EsError, errors } from './errors.js';
import { parseByteSize } from './byte-size.js';
import { parseTimeValueMillis } from './time-value.js';
import { levenshteinSimilarity } from './levenshtein.js';

export type SettingType =
  | { readonly kind: 'string' }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'long'; readonly min?: number }
  | { readonly kind: 'double'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'time'; readonly minMillis?: number }
  | { readonly kind: 'bytes' }
  | { readonly kind: 'list' }
  | { readonly kind: 'port_range' }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly caseInsensitive?: boolean };

export const settingTypes = {
  string: { kind: 'string' } as SettingType,
  boolean: { kind: 'boolean' } as SettingType,
  bytes: { kind: 'bytes' } as SettingType,
  list: { kind: 'list' } as SettingType,
  portRange: { kind: 'port_range' } as SettingType,
  integer: (min?: number, max?: number): SettingType => ({ kind: 'integer', min, max }),
  long: (min?: number): SettingType => ({ kind: 'long', min }),
  double: (min?: number, max?: number): SettingType => ({ kind: 'double', min, max }),
  time: (minMillis?: number): SettingType => ({ kind: 'time', minMillis }),
  oneOf: (values: readonly string[], caseInsensitive = false): SettingType => ({ kind: 'enum', values, caseInsensitive }),
};

/** How a type reads in documentation (README's settings table). */
export function describeSettingType(type: SettingType): string {
  switch (type.kind) {
    case 'integer':
      return 'integer';
    case 'long':
      return 'long';
    case 'double':
      return 'double';
    case 'time':
      return 'time value';
    case 'bytes':
      return 'byte size';
    case 'port_range':
      return 'port or range';
    case 'enum':
      return type.values.join(' \\| ');
    default:
      return type.kind;
  }
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
/** Java's Long range, as a decimal string comparison would see it (BigInt keeps every digit). */
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

function failedToParse(value: string, key: string): EsError {
  return new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, { causedBy: errors.numberFormat(value) });
}

/** Throws ES's error when `value` is not a well-formed value of `type` for setting `key`. */
export function checkSettingValue(type: SettingType, value: string, key: string): void {
  switch (type.kind) {
    case 'string':
    case 'list':
      return;
    case 'boolean':
      // Setting.boolSetting -> Booleans.parseBoolean: only the exact strings.
      if (value !== 'true' && value !== 'false') throw errors.illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
      return;
    case 'integer': {
      const trimmed = value.trim();
      const parsed = /^[-+]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
      if (!Number.isFinite(parsed) || parsed > INT_MAX || parsed < INT_MIN) throw failedToParse(value, key);
      if (type.min !== undefined && parsed < type.min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${type.min}`);
      if (type.max !== undefined && parsed > type.max) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be <= ${type.max}`);
      return;
    }
    case 'long': {
      const trimmed = value.trim();
      if (!/^[-+]?\d+$/.test(trimmed)) throw failedToParse(value, key);
      const parsed = BigInt(trimmed);
      if (parsed > LONG_MAX || parsed < LONG_MIN) throw failedToParse(value, key);
      if (type.min !== undefined && parsed < BigInt(type.min)) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${type.min}`);
      return;
    }
    case 'double': {
      const parsed = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) ? Number(value) : NaN;
      if (Number.isNaN(parsed)) throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, { causedBy: errors.numberFormat(value) });
      // Setting.doubleSetting prints its bounds as Java doubles (`50.0`).
      const javaDouble = (bound: number): string => (Number.isInteger(bound) ? `${bound}.0` : String(bound));
      if (type.min !== undefined && parsed < type.min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${javaDouble(type.min)}`);
      if (type.max !== undefined && parsed > type.max) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be <= ${javaDouble(type.max)}`);
      return;
    }
    case 'time': {
      const millis = parseTimeValueMillis(value, key);
      if (type.minMillis !== undefined && millis < type.minMillis) {
        throw errors.illegalArgument(`failed to parse value [${value}] for setting [${key}], must be >= [${type.minMillis === -1 ? '-1' : `${type.minMillis}ms`}]`);
      }
      return;
    }
    case 'bytes':
      parseByteSize(value, key);
      return;
    case 'port_range':
      checkPortRange(value, key);
      return;
    case 'enum': {
      const candidate = type.caseInsensitive ? value.toLowerCase() : value;
      if (!type.values.includes(candidate)) {
        throw errors.illegalArgument(`unknown value for [${key}] must be one of [${type.values.join(', ')}] but was: ${value}`);
      }
      return;
    }
  }
}

/** A port setting: `9200` or a range `9200-9299`; `0` asks the OS for a free port. */
export function checkPortRange(value: string, key: string): [number, number] {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(value);
  const low = match ? Number(match[1]) : NaN;
  const high = match?.[2] === undefined ? low : Number(match[2]);
  if (!match || low > 65535 || high > 65535 || high < low) {
    throw new EsError('illegal_argument_exception', `Failed to parse port range [${value}] for setting [${key}]`);
  }
  return [low, high];
}

/**
 * ES's AbstractScopedSettings "unknown setting" message: did-you-mean over the known keys whose Levenshtein
 * similarity is above 0.7, best first, else the pointer to plugins and the breaking changes.
 */
export function unknownSettingError(key: string, knownKeys: Iterable<string>): EsError {
  const suggestions = [...knownKeys]
    .map((candidate) => ({ candidate, score: levenshteinSimilarity(key, candidate) }))
    .filter(({ score }) => score > 0.7)
    .sort((a, b) => b.score - a.score || a.candidate.localeCompare(b.candidate))
    .map(({ candidate }) => candidate);
  let message = `unknown setting [${key}]`;
  if (suggestions.length === 1) message += ` did you mean [${suggestions[0]}]?`;
  else if (suggestions.length > 1) message += ` did you mean any of [${suggestions.join(', ')}]?`;
  else message += ' please check that any required plugins are installed, or check the breaking changes documentation for removed settings';
  return errors.illegalArgument(message);
}
