/**
 * A cell's text for one request: ES's RestTable.renderValue. `bytes=`, `size=` and `time=` print whole
 * units (matched case-sensitively, as ES compares them); any other value, or none, prints the human form.
 */
import { defaultText, type CatCell } from './cell.js';
import type { CatParamSource } from './params.js';
import { bytesInExactUnit, sizeInExactUnit, timeInExactUnit } from '../common/es-units.js';

export interface UnitChoice {
  readonly bytes: string | undefined;
  readonly size: string | undefined;
  readonly time: string | undefined;
}

export function unitChoice(params: CatParamSource): UnitChoice {
  return { bytes: params.param('bytes'), size: params.param('size'), time: params.param('time') };
}

/** The rendered text, or null for a null cell (ES leaves the value out and pads an empty cell). */
export function renderValue(value: CatCell, units: UnitChoice): string | null {
  if (value === null) return null;
  switch (value.kind) {
    case 'bytes':
      return (units.bytes !== undefined ? bytesInExactUnit(value.bytes, units.bytes) : undefined) ?? defaultText(value);
    case 'size':
      return (units.size !== undefined ? sizeInExactUnit(value.count, units.size) : undefined) ?? defaultText(value);
    case 'time':
      return (units.time !== undefined ? timeInExactUnit(value.duration, value.unitNanos, units.time) : undefined) ?? defaultText(value);
    default:
      return defaultText(value);
  }
}
