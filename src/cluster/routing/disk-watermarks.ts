/**
 * ES's disk watermarks (DiskThresholdSettings): `cluster.routing.allocation.disk.watermark.low|high|flood_stage`,
 * each either a share of the disk that may be used (`85%`, or the ratio `0.85`) or an amount that must stay free
 * (`500mb`); all three of the same kind, low <= high <= flood stage. What a watermark means for one disk is the
 * free space below which it is exceeded.
 */
import { EsError, errors } from '../../common/errors.js';
import { parseByteSize } from '../../common/byte-size.js';
import type { Settings } from '../../common/settings.js';

export const DISK_THRESHOLD_ENABLED = 'cluster.routing.allocation.disk.threshold_enabled';
export const LOW_WATERMARK = 'cluster.routing.allocation.disk.watermark.low';
export const HIGH_WATERMARK = 'cluster.routing.allocation.disk.watermark.high';
export const FLOOD_STAGE_WATERMARK = 'cluster.routing.allocation.disk.watermark.flood_stage';
/** How often the node's disk is looked at (ES's ClusterInfoService refresh; at least 10s, as in ES). */
export const INFO_UPDATE_INTERVAL = 'cluster.info.update.interval';

export const WATERMARK_DEFAULTS: Readonly<Record<string, string>> = {
  [LOW_WATERMARK]: '85%',
  [HIGH_WATERMARK]: '90%',
  [FLOOD_STAGE_WATERMARK]: '95%',
};

/** A parsed watermark: the share of the disk that may be used, or the bytes that must stay free. */
export type Watermark = { readonly raw: string; readonly usedRatio: number } | { readonly raw: string; readonly freeBytes: number };

/** RatioValue.parseRatioValue: `85%` or `0.85`; undefined when the value is neither (then it is read as bytes). */
function parseRatio(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed.endsWith('%')) {
    const percent = Number(trimmed.slice(0, -1));
    if (trimmed.length === 1 || !Number.isFinite(percent) || percent < 0 || percent > 100) return undefined;
    return percent / 100;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) return undefined;
  const ratio = Number(trimmed);
  return ratio >= 0 && ratio <= 1 ? ratio : undefined;
}

/** RelativeByteSizeValue.parseRelativeByteSizeValue: a ratio or percentage, else a byte size (with ES's error). */
export function parseWatermark(value: string, key: string): Watermark {
  const ratio = parseRatio(value);
  if (ratio !== undefined) return { raw: value, usedRatio: ratio };
  return { raw: value, freeBytes: parseByteSize(value, key) };
}

/** The free bytes below which `watermark` is exceeded on a disk of `totalBytes`. */
export function freeBytesThreshold(watermark: Watermark, totalBytes: number): number {
  return 'freeBytes' in watermark ? watermark.freeBytes : totalBytes - Math.ceil(watermark.usedRatio * totalBytes);
}

/** DiskThresholdSettings.WatermarkValidator over the three values as they would be after an update. */
export function validateWatermarks(low: string, high: string, flood: string): void {
  const [l, h, f] = [parseWatermark(low, LOW_WATERMARK), parseWatermark(high, HIGH_WATERMARK), parseWatermark(flood, FLOOD_STAGE_WATERMARK)];
  if ('usedRatio' in l && 'usedRatio' in h && 'usedRatio' in f) {
    if (l.usedRatio > h.usedRatio) throw errors.illegalArgument(`low disk watermark [${low}] more than high disk watermark [${high}]`);
    if (h.usedRatio > f.usedRatio) throw errors.illegalArgument(`high disk watermark [${high}] more than flood stage disk watermark [${flood}]`);
    return;
  }
  if ('freeBytes' in l && 'freeBytes' in h && 'freeBytes' in f) {
    if (l.freeBytes < h.freeBytes) throw errors.illegalArgument(`low disk watermark [${low}] less than high disk watermark [${high}]`);
    if (h.freeBytes < f.freeBytes) throw errors.illegalArgument(`high disk watermark [${high}] less than flood stage disk watermark [${flood}]`);
    return;
  }
  throw errors.illegalArgument(
    `unable to consistently parse [${LOW_WATERMARK}=${low}], [${HIGH_WATERMARK}=${high}], and [${FLOOD_STAGE_WATERMARK}=${flood}] as percentage or bytes`,
  );
}

/**
 * The settings validator of one watermark key (the value alone; the three together are checked on update by
 * validateWatermarkUpdate).
 */
export function watermarkValue(value: string, key: string): void {
  parseWatermark(value, key);
}

/**
 * A cluster settings update as ES's validator sees it: the three watermarks as they would be after it (transient
 * over persistent over the defaults) must agree; a failure names the first watermark the update changed, as ES's
 * "illegal value can't update [key] from [old] to [new]" does.
 */
export function validateWatermarkUpdate(
  before: (key: string) => string | undefined,
  after: (key: string) => string | undefined,
): void {
  const value = (read: (key: string) => string | undefined, key: string) => read(key) ?? WATERMARK_DEFAULTS[key]!;
  const keys = [LOW_WATERMARK, HIGH_WATERMARK, FLOOD_STAGE_WATERMARK];
  const changed = keys.find((key) => value(before, key) !== value(after, key));
  if (changed === undefined) return;
  try {
    validateWatermarks(value(after, LOW_WATERMARK), value(after, HIGH_WATERMARK), value(after, FLOOD_STAGE_WATERMARK));
  } catch (err) {
    throw new EsError('illegal_argument_exception', `illegal value can't update [${changed}] from [${value(before, changed)}] to [${value(after, changed)}]`, {
      causedBy: err as EsError,
    });
  }
}

/** The watermarks in force (live settings: a PUT _cluster/settings applies from the next check). */
export interface DiskThresholds {
  readonly enabled: boolean;
  readonly low: Watermark;
  readonly high: Watermark;
  readonly floodStage: Watermark;
}

export function diskThresholds(settings: Settings): DiskThresholds {
  const read = (key: string) => parseWatermark(settings.getString(key, WATERMARK_DEFAULTS[key]!), key);
  return {
    enabled: settings.getBool(DISK_THRESHOLD_ENABLED, true),
    low: read(LOW_WATERMARK),
    high: read(HIGH_WATERMARK),
    floodStage: read(FLOOD_STAGE_WATERMARK),
  };
}
