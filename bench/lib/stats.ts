/** Summaries of repeated measurements: median and spread, and latency percentiles. */
import { percentileOfSorted } from '../../test/helpers/percentiles.js';

export { percentileOfSorted };

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median: how much the runs disagree. */
  spread: number;
  runs: number[];
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const median = percentileOfSorted(sorted, 50);
  const min = sorted[0] ?? Number.NaN;
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  return { median, min, max, spread: median === 0 ? 0 : (max - min) / median, runs: values };
}

export function percentile(values: readonly number[], p: number): number {
  return percentileOfSorted([...values].sort((a, b) => a - b), p);
}
