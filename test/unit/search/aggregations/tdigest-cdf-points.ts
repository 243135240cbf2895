/**
 * The values whose percentile ranks (cdf) were recorded from Elasticsearch's t-digest classes for each case of
 * tdigest-cases.ts: outside the range, exactly min and max, three samples (so runs of equal values are hit),
 * and fixed fractions of the range. Only +, - and * on the samples, so Java regenerates the same doubles.
 */
export const CDF_SIZES: readonly number[] = [1000, 5000, 50_000];
export const CDF_COMPRESSIONS: readonly number[] = [100, 20];
const RANGE_FRACTIONS = [0.0001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.9999];

export function cdfPoints(values: Float64Array): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const n = values.length;
  return [min - 1, min, max, max + 1, values[0]!, values[n >> 1]!, values[n - 1]!, ...RANGE_FRACTIONS.map((f) => min + f * (max - min))];
}
