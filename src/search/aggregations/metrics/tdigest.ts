/**
 * The percentiles sketch, as Elasticsearch 8.19 builds it by default (TDigestState with the HYBRID type): a
 * HybridDigest keeps and sorts every sample (ES's SortingDigest: exact quantiles) until it would hold
 * 20 * round(compression) samples, then moves them, in arrival order, into ES's MergingDigest (K_2 scale).
 *
 * Both parts are ports of ES's libs/tdigest, step for step where the arithmetic or the order of operations
 * decides the result: buffer sizes, when the buffer is merged, the stable sort, alternating merge direction,
 * the two compressions (2 × the user's while building, the user's when compressed for shipping), and the
 * quantile interpolation. Cross-shard reduction (`TDigest.addState`) is ES's HybridDigest.add(TDigest):
 * reserve the other's size, then add its centroids one by one. Recorded outputs of ES's classes are checked
 * in test/unit/search/aggregations/tdigest-es-oracle.test.ts.
 */
import { MergingDigest, javaDoubleCompare, mergingCdf, type MergingCentroids } from './tdigest-merging.js';

export const DEFAULT_COMPRESSION = 100;

export type TDigestStateData =
  | { readonly kind: 'sorting'; readonly compression: number; readonly values: readonly number[] }
  | {
      readonly kind: 'merging';
      readonly compression: number;
      readonly means: readonly number[];
      readonly weights: readonly number[];
      readonly min: number;
      readonly max: number;
    };

/** ES's Dist.quantile: linear interpolation at rank q * (n - 1) of sorted data. */
function sortedQuantile(q: number, data: ArrayLike<number>, n: number): number {
  if (n === 0) return NaN;
  const index = q * (n - 1);
  let low = Math.floor(index);
  let high = low + 1;
  let weight = index - low;
  if (index <= 0) {
    low = high = 0;
    weight = 0;
  }
  if (index >= n - 1) {
    low = high = n - 1;
    weight = 0;
  }
  return data[low]! + weight * (data[high]! - data[low]!);
}

/**
 * ES's Dist.cdf over sorted data: the share of samples below x, a run of samples equal to x counting half,
 * interpolating linearly between the two samples around x. The first sample counts half from the start,
 * as ES's loop does. Empty data has no answer (ES never asks: an empty digest is printed as null).
 */
function sortedCdf(x: number, data: ArrayLike<number>, n: number): number {
  if (n === 0) return NaN;
  if (javaDoubleCompare(x, data[0]!) < 0) return 0;
  let below = 0.5;
  let equal = 0;
  for (let i = 1; i < n; i++) {
    const value = data[i]!;
    const order = javaDoubleCompare(value, x);
    if (order > 0) {
      if (equal > 0) return (below + 0.5 * equal) / n;
      const previous = data[i - 1]!;
      return (below + (x - previous) / (value - previous)) / n;
    }
    if (order < 0) below++;
    else equal++;
  }
  return (n - 0.5 * equal) / n;
}

/** The cdf a shipped (already compressed) state reports: HybridDigest.cdf of the sorting or merging part. */
export function cdfOfState(state: TDigestStateData, x: number): number {
  if (state.kind === 'sorting') return sortedCdf(x, state.values, state.values.length);
  return mergingCdf(x, state.means, state.weights, state.means.length, sumOf(state.weights), state.min, state.max);
}

/** InternalTDigestPercentileRanks.percentileRank: a cdf clamped into [0, 1], as a percentage. */
export function percentileRank(cdf: number): number {
  let rank = cdf;
  if (rank < 0) rank = 0;
  else if (rank > 1) rank = 1;
  return rank * 100;
}

export function percentileRankOfState(state: TDigestStateData, x: number): number {
  return percentileRank(cdfOfState(state, x));
}

/** The quantile a shipped (already compressed) state reports, without rebuilding a digest. */
export function quantileOfState(state: TDigestStateData, q: number): number {
  if (state.kind === 'sorting') return sortedQuantile(q, state.values, state.values.length);
  return MergingDigest.quantileOf(q, state.means, state.weights, state.means.length, sumOf(state.weights), state.min, state.max);
}

export function stateSize(state: TDigestStateData): number {
  return state.kind === 'sorting' ? state.values.length : sumOf(state.weights);
}

function sumOf(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** ES's HybridDigest: exact while small, a MergingDigest from 20 * round(compression) samples on. */
export class TDigest {
  private values: Float64Array | null = new Float64Array(16);
  private valueCount = 0;
  private sorted = true;
  private merging: MergingDigest | null = null;
  private readonly maxSortingSize: number;

  constructor(readonly compression: number) {
    this.maxSortingSize = Math.round(compression) * 20;
  }

  static fromState(state: TDigestStateData): TDigest {
    const digest = new TDigest(state.compression);
    digest.addState(state);
    return digest;
  }

  get size(): number {
    return this.merging !== null ? this.merging.size : this.valueCount;
  }

  add(x: number, weight = 1): void {
    if (Number.isNaN(x)) throw new RangeError('Cannot add NaN');
    this.reserve(weight);
    if (this.merging !== null) this.merging.add(x, weight);
    else for (let i = 0; i < weight; i++) this.push(x);
  }

  private push(x: number): void {
    let values = this.values!;
    if (this.valueCount === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      this.values = values = grown;
    }
    if (this.valueCount > 0 && values[this.valueCount - 1]! > x) this.sorted = false;
    values[this.valueCount++] = x;
  }

  /** HybridDigest.reserve: switch to the merging digest once the samples would reach the limit. */
  private reserve(size: number): void {
    if (this.merging !== null) return;
    if (this.valueCount + size >= this.maxSortingSize) {
      const merging = new MergingDigest(this.compression);
      // In the order the samples are held: arrival order, or sorted if a quantile was asked for meanwhile.
      for (let i = 0; i < this.valueCount; i++) merging.add(this.values![i]!, 1);
      this.merging = merging;
      this.values = null;
      this.valueCount = 0;
    }
  }

  /** HybridDigest.add(TDigest other): the other digest's centroids (a sorting one's sorted samples), in order. */
  addState(state: TDigestStateData): void {
    if (state.kind === 'sorting') {
      this.reserve(state.values.length);
      for (const value of state.values) {
        if (this.merging !== null) this.merging.add(value, 1);
        else this.push(value);
      }
      return;
    }
    this.reserve(sumOf(state.weights));
    for (let i = 0; i < state.means.length; i++) {
      const mean = state.means[i]!;
      const weight = Math.trunc(state.weights[i]!);
      if (this.merging !== null) this.merging.add(mean, weight);
      else for (let j = 0; j < weight; j++) this.push(mean);
    }
  }

  private sortValues(): void {
    if (!this.sorted) {
      this.values!.subarray(0, this.valueCount).sort();
      this.sorted = true;
    }
  }

  quantile(q: number): number {
    if (this.merging !== null) return this.merging.quantile(q);
    this.sortValues();
    return sortedQuantile(q, this.values!, this.valueCount);
  }

  cdf(x: number): number {
    if (this.merging !== null) return this.merging.cdf(x);
    this.sortValues();
    return sortedCdf(x, this.values!, this.valueCount);
  }

  /** The state shipped to the coordinating node: compressed first, as ES's InternalTDigestPercentiles does. */
  state(): TDigestStateData {
    if (this.merging !== null) {
      this.merging.compress();
      const c: MergingCentroids = this.merging.centroids();
      return { kind: 'merging', compression: this.compression, means: c.means, weights: c.weights, min: this.merging.min, max: this.merging.max };
    }
    this.sortValues();
    return { kind: 'sorting', compression: this.compression, values: Array.from(this.values!.subarray(0, this.valueCount)) };
  }
}
