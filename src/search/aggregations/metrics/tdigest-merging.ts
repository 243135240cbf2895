/**
 * ES 8.19's MergingDigest (libs/tdigest), ported operation for operation so that its centroids, and so its
 * quantiles, are the same doubles ES computes: incoming samples wait in a buffer; when it is full (or a
 * result is asked for) buffer and centroids are stably sorted by mean together and swept once, merging a
 * neighbour into the current centroid while the K_2 weight limit allows, every other sweep running
 * backwards. The sweep uses twice the requested compression while building and the requested one when the
 * digest is compressed for shipping ("two-level compression").
 */

export interface MergingCentroids {
  readonly means: number[];
  readonly weights: number[];
}

/** K_2: cluster sizes proportional to q(1 - q), normalised by 4 ln(n / compression) + 24. */
function k2Normalizer(compression: number, n: number): number {
  return compression / (4 * Math.log(n / compression) + 24);
}

function k2Max(q: number, normalizer: number): number {
  return (q * (1 - q)) / normalizer;
}

/** AbstractTDigest.weightedAverage: the weighted mean, clamped into [min(x1, x2), max(x1, x2)]. */
function weightedAverage(x1: number, w1: number, x2: number, w2: number): number {
  if (x1 <= x2) return weightedAverageSorted(x1, w1, x2, w2);
  return weightedAverageSorted(x2, w2, x1, w1);
}

function weightedAverageSorted(x1: number, w1: number, x2: number, w2: number): number {
  const x = (x1 * w1 + x2 * w2) / (w1 + w2);
  return Math.max(x1, Math.min(x, x2));
}

export class MergingDigest {
  private mergeCount = 0;
  readonly publicCompression: number;
  private readonly compression: number;
  private lastUsedCell = 0;
  private totalWeight = 0;
  private readonly weight: Float64Array;
  private readonly mean: Float64Array;
  private unmergedWeight = 0;
  private tempUsed = 0;
  private readonly tempWeight: Float64Array;
  private readonly tempMean: Float64Array;
  private readonly order: Int32Array;
  min = Infinity;
  max = -Infinity;

  /** MergingDigest(compression): the constructor's sizing, with bufferSize and size left at their defaults. */
  constructor(requestedCompression: number) {
    const compression = requestedCompression < 10 ? 10 : requestedCompression;
    const sizeFudge = 10;
    let size = Math.trunc(Math.max(compression + sizeFudge, -1));
    let bufferSize = 5 * size;
    // Java int division, then the two-level compression factor.
    const scale = Math.max(1, Math.trunc(bufferSize / size) - 1);
    this.publicCompression = compression;
    this.compression = Math.sqrt(scale) * compression;
    if (size < this.compression + sizeFudge) size = Math.ceil(this.compression + sizeFudge);
    if (bufferSize <= 2 * size) bufferSize = 2 * size;
    this.weight = new Float64Array(size);
    this.mean = new Float64Array(size);
    this.tempWeight = new Float64Array(bufferSize);
    this.tempMean = new Float64Array(bufferSize);
    this.order = new Int32Array(bufferSize);
  }

  get size(): number {
    return this.totalWeight + this.unmergedWeight;
  }

  add(x: number, w: number): void {
    if (Number.isNaN(x)) throw new RangeError('Cannot add NaN');
    if (this.tempUsed >= this.tempWeight.length - this.lastUsedCell - 1) this.mergeNewValues(this.compression);
    const where = this.tempUsed++;
    this.tempWeight[where] = w;
    this.tempMean[where] = x;
    this.unmergedWeight += w;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  private mergeNewValues(compression: number): void {
    if (this.totalWeight === 0 && this.unmergedWeight === 0) return;
    if (this.unmergedWeight > 0) {
      this.merge(this.tempUsed, this.unmergedWeight, this.mergeCount % 2 === 1, compression);
      this.mergeCount++;
      this.tempUsed = 0;
      this.unmergedWeight = 0;
    }
  }

  private merge(count: number, unmergedWeight: number, runBackwards: boolean, compression: number): void {
    const incomingMean = this.tempMean;
    const incomingWeight = this.tempWeight;
    const mean = this.mean;
    const weight = this.weight;
    incomingMean.set(mean.subarray(0, this.lastUsedCell), count);
    incomingWeight.set(weight.subarray(0, this.lastUsedCell), count);
    const incomingCount = count + this.lastUsedCell;

    const order = this.order;
    stableSort(order, incomingMean, incomingCount);
    this.totalWeight += unmergedWeight;
    const totalWeight = this.totalWeight;
    if (runBackwards) order.subarray(0, incomingCount).reverse();

    let last = 0;
    mean[0] = incomingMean[order[0]!]!;
    weight[0] = incomingWeight[order[0]!]!;
    let wSoFar = 0;
    const normalizer = k2Normalizer(compression, totalWeight);
    const lastCell = mean.length - 1;
    for (let i = 1; i < incomingCount; i++) {
      const ix = order[i]!;
      const proposedWeight = weight[last]! + incomingWeight[ix]!;
      const q0 = wSoFar / totalWeight;
      const q2 = (wSoFar + proposedWeight) / totalWeight;
      let addThis = proposedWeight <= totalWeight * Math.min(k2Max(q0, normalizer), k2Max(q2, normalizer));
      // The first and last centroids never merge; a full centroid array takes everything left.
      if (i === 1 || i === incomingCount - 1) addThis = false;
      if (last === lastCell) addThis = true;
      if (addThis) {
        weight[last] = weight[last]! + incomingWeight[ix]!;
        mean[last] = mean[last]! + ((incomingMean[ix]! - mean[last]!) * incomingWeight[ix]!) / weight[last]!;
        incomingWeight[ix] = 0;
      } else {
        wSoFar += weight[last]!;
        last++;
        mean[last] = incomingMean[ix]!;
        weight[last] = incomingWeight[ix]!;
        incomingWeight[ix] = 0;
      }
    }
    this.lastUsedCell = last + 1;
    if (runBackwards) {
      mean.subarray(0, this.lastUsedCell).reverse();
      weight.subarray(0, this.lastUsedCell).reverse();
    }
    if (totalWeight > 0) {
      this.min = Math.min(this.min, mean[0]!);
      this.max = Math.max(this.max, mean[this.lastUsedCell - 1]!);
    }
  }

  /** Merges pending samples down to the requested compression (done before a digest is shipped). */
  compress(): void {
    this.mergeNewValues(this.publicCompression);
  }

  /** The centroids in mean order (pending samples merged at the working compression, as ES's centroids()). */
  centroids(): MergingCentroids {
    this.mergeNewValues(this.compression);
    const means: number[] = [];
    const weights: number[] = [];
    for (let i = 0; i < this.lastUsedCell; i++) {
      means.push(this.mean[i]!);
      weights.push(Math.trunc(this.weight[i]!));
    }
    return { means, weights };
  }

  quantile(q: number): number {
    this.mergeNewValues(this.compression);
    return MergingDigest.quantileOf(q, this.mean, this.weight, this.lastUsedCell, this.totalWeight, this.min, this.max);
  }

  cdf(x: number): number {
    this.mergeNewValues(this.compression);
    return mergingCdf(x, this.mean, this.weight, this.lastUsedCell, Math.trunc(this.size), this.min, this.max);
  }

  /** MergingDigest.quantile over centroids sorted by mean. */
  static quantileOf(q: number, mean: ArrayLike<number>, weight: ArrayLike<number>, n: number, totalWeight: number, min: number, max: number): number {
    if (q < 0 || q > 1) throw new RangeError(`q should be in [0,1], got ${q}`);
    if (n === 0) return NaN;
    if (n === 1) return mean[0]!;
    const index = q * totalWeight;
    if (index < 0) return min;
    if (index >= totalWeight) return max;
    let weightSoFar = weight[0]! / 2;
    // One sample sits exactly at min, so the first centroid's left half interpolates from there.
    if (weight[0]! > 1 && index < weightSoFar) return weightedAverage(min, weightSoFar - index, mean[0]!, index);
    if (weight[n - 1]! > 1 && totalWeight - index <= weight[n - 1]! / 2) {
      return max - ((totalWeight - index - 1) / (weight[n - 1]! / 2 - 1)) * (max - mean[n - 1]!);
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
    const z1 = index - weightSoFar;
    const z2 = weight[n - 1]! / 2 - z1;
    return weightedAverage(mean[n - 1]!, z1, max, z2);
  }
}

/**
 * Double.compare: like < and > but -0.0 sorts before 0.0 (NaN never reaches a digest). ES's cdf code uses it
 * where it tests a value for equality with min or a centroid mean.
 */
export function javaDoubleCompare(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  const aNegativeZero = Object.is(a, -0);
  const bNegativeZero = Object.is(b, -0);
  return aNegativeZero === bNegativeZero ? 0 : aNegativeZero ? -1 : 1;
}

/**
 * MergingDigest.cdf over centroids sorted by mean (ES 8.19): each centroid's weight is spread evenly over
 * the half-way points to its neighbours (the outer ones mirror their inner half-width); a value equal to min
 * or max counts half the weight of the centroids sitting exactly there. `size` is ES's size(), a long.
 */
export function mergingCdf(x: number, mean: ArrayLike<number>, weight: ArrayLike<number>, n: number, size: number, min: number, max: number): number {
  if (n === 0) return NaN;
  if (n === 1) {
    if (x < min) return 0;
    if (x > max) return 1;
    return 0.5;
  }
  if (x < min) return 0;
  if (javaDoubleCompare(x, min) === 0) {
    let atMin = 0;
    for (let i = 0; i < n && javaDoubleCompare(mean[i]!, x) === 0; i++) atMin += weight[i]!;
    return atMin / 2.0 / size;
  }
  if (x > max) return 1;
  if (x === max) {
    let atMax = 0;
    for (let i = n - 1; i >= 0 && javaDoubleCompare(mean[i]!, x) === 0; i--) atMax += weight[i]!;
    return (size - atMax / 2.0) / size;
  }
  let left = (mean[1]! - mean[0]!) / 2;
  let weightSoFar = 0;
  for (let i = 0; i < n - 1; i++) {
    const right = (mean[i + 1]! - mean[i]!) / 2;
    if (x < mean[i]! + right) {
      const value = (weightSoFar + weight[i]! * interpolate(x, mean[i]! - left, mean[i]! + right)) / size;
      return Math.max(value, 0.0);
    }
    weightSoFar += weight[i]!;
    left = right;
  }
  const last = n - 1;
  const right = (mean[last]! - mean[last - 1]!) / 2;
  if (x < mean[last]! + right) return (weightSoFar + weight[last]! * interpolate(x, mean[last]! - right, mean[last]! + right)) / size;
  return 1;
}

/** AbstractTDigest.interpolate. */
function interpolate(x: number, x0: number, x1: number): number {
  return (x - x0) / (x1 - x0);
}

/**
 * ES's Sort.stableSort: `order` becomes the permutation sorting values[0..n) ascending, ties by index. Any
 * stable sort yields that one permutation; this is a bottom-up merge sort on the index array.
 */
function stableSort(order: Int32Array, values: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return;
  let src: Int32Array = order;
  let dst: Int32Array = new Int32Array(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let a = lo;
      let b = mid;
      let k = lo;
      while (a < mid && b < hi) {
        // Strictly less takes the right run first; equal keeps the left (lower index) first.
        if (values[src[b]!]! < values[src[a]!]!) dst[k++] = src[b++]!;
        else dst[k++] = src[a++]!;
      }
      while (a < mid) dst[k++] = src[a++]!;
      while (b < hi) dst[k++] = src[b++]!;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== order) order.set(src.subarray(0, n));
}
