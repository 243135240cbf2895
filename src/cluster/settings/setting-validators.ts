/**
 * Validators for cluster setting values, worded as ES's Setting parsers word their failures (Setting.parseInt,
 * Booleans.parseBoolean, TimeValue and ByteSizeValue parsing, the enum parsers of the allocation deciders).
 */
import { EsError, errors } from '../../common/errors.js';
import { parseByteSize } from '../../common/byte-size.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { parseMemorySize } from '../../common/circuit-breakers.js';

export type SettingValidator = (value: string, key: string) => void;

const INT_MAX = 2147483647;

/** Setting.intSetting with a minimum (and a maximum): Integer.parseInt, then the bounds (Setting.parseInt's words). */
export function intValue(min: number, max = INT_MAX): SettingValidator {
  return (value, key) => {
    const trimmed = value.trim();
    const parsed = /^[-+]?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
    if (!Number.isFinite(parsed) || parsed > INT_MAX || parsed < -INT_MAX - 1) {
      throw new EsError('illegal_argument_exception', `Failed to parse value [${value}] for setting [${key}]`, { causedBy: errors.numberFormat(value) });
    }
    if (parsed < min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min}`);
    if (parsed > max) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be <= ${max}`);
  };
}

/** Setting.boolSetting: only the exact strings `true` and `false`. */
export const booleanValue: SettingValidator = (value) => {
  if (value !== 'true' && value !== 'false') throw errors.illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
};

/** Setting.timeSetting with a minimum of -1 (no timeout). */
export const timeValue: SettingValidator = (value, key) => {
  parseTimeValueMillis(value, key);
};

export const byteSizeValue: SettingValidator = (value, key) => {
  parseByteSize(value, key);
};

/** Setting.memorySizeSetting: a percentage of the heap (`60%`) or a byte size. */
export const memorySizeValue: SettingValidator = (value, key) => {
  parseMemorySize(value, 1, key);
};

/** Setting.doubleSetting with a minimum (Double.parseDouble, then the bound). */
export function doubleValue(min: number): SettingValidator {
  return (value, key) => {
    const parsed = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isFinite(parsed)) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}]`, errors.numberFormat(value));
    if (parsed < min) throw errors.illegalArgument(`Failed to parse value [${value}] for setting [${key}] must be >= ${min}`);
  };
}

/** EnableAllocationDecider's Allocation/Rebalance.parse: the upper-cased value must name a constant. */
export function allocationEnumValue(settingLabel: string, allowed: readonly string[]): SettingValidator {
  return (value) => {
    const upper = value.toUpperCase();
    if (!allowed.includes(upper)) throw errors.illegalArgument(`Illegal ${settingLabel} value [${upper}]`);
  };
}

/** AutoCreateIndex.AutoCreate: a boolean, or a comma list of index patterns, each optionally prefixed + or -. */
export const autoCreateIndexValue: SettingValidator = (value) => {
  if (value === 'true' || value === 'false') return;
  const refuse = () =>
    errors.illegalArgument(
      `Can't parse [${value}] for setting [action.auto_create_index] must be either [true, false, or a comma separated list of index patterns]`,
    );
  for (const part of value.split(',')) {
    const pattern = part.trim();
    if (pattern === '') throw refuse();
    if ((pattern.startsWith('+') || pattern.startsWith('-')) && pattern.length === 1) throw refuse();
  }
};
