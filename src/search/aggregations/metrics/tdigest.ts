/**
 * The percentiles sketch, configured as Elasticsearch 8 configures it by default (TDigestState with the
 * HYBRID execution hint): every sample is kept and sorted (exact quantiles, linear interpolation between
 * closest ranks, like ES's SortingDigest) until the digest would hold 20 * round(compression) samples; from
 * then on samples are summarised by a merging t-digest with the K_2 scale function (Dunning & Ertl).
 *
 * The merging part is Gannet's own implementation of the published algorithm, so above the switch point the
 * centroids (and quantiles, within the t-digest error) may differ slightly from ES's MergingDigest.
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

class MergingDigest {
  private means: Float64Array;
  private weights: Float64Array;
  private count = 0;
  private bufferMeans: Float64Array;
  private bufferWeights: Float64Array;
  private buffered = 0;
  private totalWeight = 0;
  private bufferedWeight = 0;
  min = Infinity;
  max = -Infinity;

  constructor(readonly compression: number) {
    const size = 2 * Math.ceil(compression) + 10;
    this.means = new Float64Array(size);
    this.weights = new Float64Array(size);
    this.bufferMeans = new Float64Array(5 * Math.ceil(compression));
    this.bufferWeights = new Float64Array(this.bufferMeans.length);
  }

  add(x: number, w: number): void {
    if (this.buffered === this.bufferMeans.length) this.merge();
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

  /** Folds the buffer into the centroids: sort everything by mean, then merge neighbours under the K_2 size bound. */
  merge(): void {
    if (this.buffered === 0) return;
    const n = this.count + this.buffered;
    const allMeans = new Float64Array(n);
    const allWeights = new Float64Array(n);
    allMeans.set(this.means.subarray(0, this.count));
    allWeights.set(this.weights.subarray(0, this.count));
    allMeans.set(this.bufferMeans.subarray(0, this.buffered), this.count);
    allWeights.set(this.bufferWeights.subarray(0, this.buffered), this.count);
    const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => allMeans[a]! - allMeans[b]! || a - b);
    const total = this.totalWeight + this.bufferedWeight;
    const normalizer = this.compression / (4 * Math.log(total / this.compression) + 24);
    const maxSize = (q: number): number => (q * (1 - q)) / normalizer;

    let outCount = 0;
    const outMeans = new Float64Array(Math.max(n, this.means.length));
    const outWeights = new Float64Array(outMeans.length);
    let currentMean = allMeans[order[0]!]!;
    let currentWeight = allWeights[order[0]!]!;
    let weightSoFar = 0;
    for (let i = 1; i < n; i++) {
      const mean = allMeans[order[i]!]!;
      const weight = allWeights[order[i]!]!;
      const proposed = currentWeight + weight;
      const q0 = weightSoFar / total;
      const q2 = (weightSoFar + proposed) / total;
      if (proposed <= total * Math.min(maxSize(q0), maxSize(q2))) {
        currentMean += ((mean - currentMean) * weight) / proposed;
        currentWeight = proposed;
      } else {
        outMeans[outCount] = currentMean;
        outWeights[outCount] = currentWeight;
        outCount++;
        weightSoFar += currentWeight;
        currentMean = mean;
        currentWeight = weight;
      }
    }
    outMeans[outCount] = currentMean;
    outWeights[outCount] = currentWeight;
    outCount++;
    this.means = outMeans;
    this.weights = outWeights;
    this.count = outCount;
    this.totalWeight = total;
    this.buffered = 0;
    this.bufferedWeight = 0;
  }

  centroids(): { means: number[]; weights: number[] } {
    this.merge();
    return { means: Array.from(this.means.subarray(0, this.count)), weights: Array.from(this.weights.subarray(0, this.count)) };
  }

  quantile(q: number): number {
    this.merge();
    const n = this.count;
    if (n === 0) return NaN;
    const means = this.means;
    const weights = this.weights;
    if (n === 1) return means[0]!;
    const total = this.totalWeight;
    const index = q * total;
    if (index < 1) return this.min;
    if (weights[0]! > 1 && index < weights[0]! / 2) {
      return this.min + ((index - 1) / (weights[0]! / 2 - 1)) * (means[0]! - this.min);
    }
    if (index > total - 1) return this.max;
    if (weights[n - 1]! > 1 && total - index <= weights[n - 1]! / 2) {
      return this.max - ((total - index - 1) / (weights[n - 1]! / 2 - 1)) * (this.max - means[n - 1]!);
    }
    let weightSoFar = weights[0]! / 2;
    for (let i = 0; i < n - 1; i++) {
      const dw = (weights[i]! + weights[i + 1]!) / 2;
      if (weightSoFar + dw > index) {
        let leftUnit = 0;
        if (weights[i] === 1) {
          if (index - weightSoFar < 0.5) return means[i]!;
          leftUnit = 0.5;
        }
        let rightUnit = 0;
        if (weights[i + 1] === 1) {
          if (weightSoFar + dw - index <= 0.5) return means[i + 1]!;
          rightUnit = 0.5;
        }
        const z1 = index - weightSoFar - leftUnit;
        const z2 = weightSoFar + dw - index - rightUnit;
        return weightedAverage(means[i]!, z2, means[i + 1]!, z1);
      }
      weightSoFar += dw;
    }
    const z1 = index - total - weights[n - 1]! / 2;
    const z2 = weights[n - 1]! / 2 - z1;
    return weightedAverage(means[n - 1]!, z1, this.max, z2);
  }
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
