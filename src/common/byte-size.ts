/** Elasticsearch ByteSizeValue parsing ("100mb") and rendering ("47.3gb", "260b"). */
import { EsError } from './errors.js';
import { byteSizeString } from './es-units.js';

const UNIT_BYTES: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
};

export function parseByteSize(value: string | number, settingName: string): number {
  if (typeof value === 'number') return value;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb?|mb?|gb?|tb?|pb?)?\s*$/i.exec(value);
  if (!match) {
    throw new EsError(
      'parse_exception',
      `failed to parse setting [${settingName}] with value [${value}] as a size in bytes: unit is missing or unrecognized`,
    );
  }
  const unit = (match[2] ?? 'b').toLowerCase();
  return Math.floor(Number(match[1]) * UNIT_BYTES[unit]!);
}

/** ES's ByteSizeValue.toString(), e.g. `47.3gb` (truncated, see es-units.ts). */
export function formatByteSize(bytes: number): string {
  return byteSizeString(bytes);
}
