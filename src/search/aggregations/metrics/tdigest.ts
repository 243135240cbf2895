/**
 * The percentiles sketch, configured as Elasticsearch 8 configures it by default (TDigestState with the
 * HYBRID execution hint): every sample is kept and sorted (exact quantiles, linear interpolation between
 * closest ranks, like ES's SortingDigest) until the digest would hold 20 * round(compression) samples; from
 * then on samples are summarised by a merging t-digest with the K_2 scale function (Dunning & Ertl).
 *
 * The merging part follows ES's MergingDigest configuration and quantile interpolation, written for Gannet;
 * above the switch point its centroids (and so quantiles, within the t-digest error) may still differ
 * slightly from ES's.
 */
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

/** Quantile of sorted data by linear interpolation at rank q * (n - 1) (ES's Dist.quantile). */
function sortedQuantile(q: number, data: Float64Array, n: number): number {
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
 * A merging t-digest configured as ES's MergingDigest: K_2 scale, centroid arrays of 2 * compression + 10,
 * an incoming buffer five times that, twice the compression while building ("two-level compression") and the
 * requested one when results are presented (compress), the smallest and largest samples kept as singleton
 * centroids, and merge passes alternating direction to avoid a left-to-right bias.
 */
class MergingDigest {
  private means: Float64Array;
  private weights: Float64Array;
  private count = 0;
  private readonly bufferMeans: Float64Array;
  private readonly bufferWeights: Float64Array;
  private buffered = 0;
  private totalWeight = 0;
  private bufferedWeight = 0;
  private mergeCount = 0;
  private readonly publicCompression: number;
  private readonly workingCompression: number;
  min = Infinity;
  max = -Infinity;

  constructor(compression: number) {
    this.publicCompression = Math.max(10, compression);
    const fudge = 10 + (this.publicCompression < 30 ? 20 : 0);
    const size = Math.trunc(2 * this.publicCompression + fudge);
    const bufferSize = 5 * size;
    const scale = Math.max(1, Math.trunc(bufferSize / size) - 1);
    this.workingCompression = Math.sqrt(scale) * this.publicCompression;
    const capacity = Math.max(size, Math.ceil(this.workingCompression + fudge));
    this.means = new Float64Array(capacity);
    this.weights = new Float64Array(capacity);
    this.bufferMeans = new Float64Array(Math.max(bufferSize, 2 * capacity));
    this.bufferWeights = new Float64Array(this.bufferMeans.length);
  }

  add(x: number, w: number): void {
    if (this.buffered >= this.bufferMeans.length - this.count - 1) this.merge(false, this.workingCompression);
    this.bufferMeans[this.buffered] = x;
    this.bufferWeights[this.buffered] = w;
    this.buffered++;
    this.bufferedWeight += w;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  get size(): number {
    return this.totalWeight + this.bufferedWeight;
  }

  /** Merges the buffer into the centroids under the K_2 size bound of `compression`. */
  private merge(force: boolean, compression: number): void {
    if (this.totalWeight === 0 && this.bufferedWeight === 0) return;
    if (!force && this.bufferedWeight === 0) return;
    const n = this.buffered + this.count;
    const allMeans = new Float64Array(n);
    const allWeights = new Float64Array(n);
    allMeans.set(this.bufferMeans.subarray(0, this.buffered));
    allWeights.set(this.bufferWeights.subarray(0, this.buffered));
    allMeans.set(this.means.subarray(0, this.count), this.buffered);
    allWeights.set(this.weights.subarray(0, this.count), this.buffered);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => allMeans[a]! - allMeans[b]! || a - b);
    const backwards = this.mergeCount % 2 === 1;
    if (backwards) order.reverse();
    this.mergeCount++;
    this.totalWeight += this.bufferedWeight;
    const total = this.totalWeight;
    const normalizer = compression / (4 * Math.log(total / compression) + 24);
    const maxSize = (q: number): number => (q * (1 - q)) / normalizer;

    const outMeans = new Float64Array(Math.max(n, this.means.length));
    const outWeights = new Float64Array(outMeans.length);
    let last = 0;
    outMeans[0] = allMeans[order[0]!]!;
    outWeights[0] = allWeights[order[0]!]!;
    let weightSoFar = 0;
    for (let i = 1; i < n; i++) {
      const ix = order[i]!;
      const proposed = outWeights[last]! + allWeights[ix]!;
      const q0 = weightSoFar / total;
      const q2 = (weightSoFar + proposed) / total;
      // The extremes stay singletons, so min and max keep their exact neighbourhood.
      const fits = i !== 1 && i !== n - 1 && proposed <= total * Math.min(maxSize(q0), maxSize(q2));
      if (fits) {
        outWeights[last] = proposed;
        outMeans[last] = outMeans[last]! + ((allMeans[ix]! - outMeans[last]!) * allWeights[ix]!) / proposed;
      } else {
        weightSoFar += outWeights[last]!;
        last++;
        outMeans[last] = allMeans[ix]!;
        outWeights[last] = allWeights[ix]!;
      }
    }
    const count = last + 1;
    if (backwards) {
      outMeans.subarray(0, count).reverse();
      outWeights.subarray(0, count).reverse();
    }
    this.means = outMeans;
    this.weights = outWeights;
    this.count = count;
    this.buffered = 0;
    this.bufferedWeight = 0;
    this.min = Math.min(this.min, outMeans[0]!);
    this.max = Math.max(this.max, outMeans[count - 1]!);
  }

  /** Presents the digest: merged down to the requested compression. */
  compress(): void {
    this.merge(true, this.publicCompression);
  }

  centroids(): { means: number[]; weights: number[] } {
    this.compress();
    return { means: Array.from(this.means.subarray(0, this.count)), weights: Array.from(this.weights.subarray(0, this.count)) };
  }

  quantile(q: number): number {
    this.merge(false, this.workingCompression);
    return centroidQuantile(q, this.means, this.weights, this.count, this.totalWeight, this.min, this.max);
  }
}

/** ES's MergingDigest.quantile over centroids sorted by mean (index q * (n - 1), singleton-aware ends). */
function centroidQuantile(q: number, mean: ArrayLike<number>, weight: ArrayLike<number>, n: number, total: number, min: number, max: number): number {
  if (n === 0) return NaN;
  if (n === 1) return mean[0]!;
  const index = q * (total - 1);
  if (index < 0) return min;
  if (index >= total) return max;
  let weightSoFar = weight[0] === 1 ? 0 : weight[0]! / 2;
  if (weight[0] === 1 && index <= weight[0]) return min + index * (mean[1]! - min);
  if (weight[0]! > 1 && index < weightSoFar) return min + ((index - 1) / (weightSoFar - 1)) * (mean[0]! - min);
  if (weight[n - 1]! > 1 && total - index <= weight[n - 1]! / 2) {
    return max - ((total - index - 1) / (weight[n - 1]! / 2 - 1)) * (max - mean[n - 1]!);
  }
  for (let i = 0; i < n - 1; i++) {
    const dw = (weight[i]! + weight[i + 1]!) / 2;
    if (weightSoFar + dw > index) {
      const z1 = index - weightSoFar;
      const z2 = weightSoFar + dw - index;
      return weightedAverage(mean[i]!, z2, mean[i + 1]!, z1);
    }
    weightSoFar += dw;
  }
  const z1 = index - total - weight[n - 1]! / 2;
  const z2 = weight[n - 1]! / 2 - z1;
  return weightedAverage(mean[n - 1]!, z1, max, z2);
}

/** The quantile a shipped (already compressed) state reports, without rebuilding a digest. */
export function quantileOfState(state: TDigestStateData, q: number): number {
  if (state.kind === 'sorting') return sortedQuantile(q, Float64Array.from(state.values), state.values.length);
  const total = state.weights.reduce((a, b) => a + b, 0);
  return centroidQuantile(q, state.means, state.weights, state.means.length, total, state.min, state.max);
}

export function stateSize(state: TDigestStateData): number {
  return state.kind === 'sorting' ? state.values.length : state.weights.reduce((a, b) => a + b, 0);
}

function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (x1 <= x2) return weightedAverageSorted(x1, w1, x2, w2);
  return weightedAverageSorted(x2, w2, x1, w1);
}

function weightedAverageSorted(x1: number, w1: number, x2: number, w2: number): number {
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  return Math.max(x1, Math.min(x, x2));
}

/** The hybrid digest: exact while small, merging once it reaches 20 * round(compression) samples. */
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
    if (this.merging !== null) {
      this.merging.add(x, weight);
      return;
    }
    for (let i = 0; i < weight; i++) this.push(x);
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

  /** HybridDigest.reserve: switch to the merging digest before the sorting one would reach its limit. */
  private reserve(size: number): void {
    if (this.merging !== null) return;
    if (this.valueCount + size >= this.maxSortingSize) {
      const merging = new MergingDigest(this.compression);
      for (let i = 0; i < this.valueCount; i++) merging.add(this.values![i]!, 1);
      this.merging = merging;
      this.values = null;
      this.valueCount = 0;
    }
  }

  addState(state: TDigestStateData): void {
    if (state.kind === 'sorting') {
      this.reserve(state.values.length);
      for (const value of state.values) {
        if (this.merging !== null) this.merging.add(value, 1);
        else this.push(value);
      }
      return;
    }
    const total = state.weights.reduce((a, b) => a + b, 0);
    this.reserve(total);
    for (let i = 0; i < state.means.length; i++) this.add(state.means[i]!, state.weights[i]!);
    if (this.merging !== null && state.means.length > 0) {
      this.merging.min = Math.min(this.merging.min, state.min);
      this.merging.max = Math.max(this.merging.max, state.max);
    }
  }

  quantile(q: number): number {
    if (this.merging !== null) return this.merging.quantile(q);
    if (!this.sorted) {
      this.values!.subarray(0, this.valueCount).sort();
      this.sorted = true;
    }
    return sortedQuantile(q, this.values!, this.valueCount);
  }

  state(): TDigestStateData {
    if (this.merging !== null) {
      const { means, weights } = this.merging.centroids();
      return { kind: 'merging', compression: this.compression, means, weights, min: this.merging.min, max: this.merging.max };
    }
    if (!this.sorted) {
      this.values!.subarray(0, this.valueCount).sort();
      this.sorted = true;
    }
    return { kind: 'sorting', compression: this.compression, values: Array.from(this.values!.subarray(0, this.valueCount)) };
  }
}
