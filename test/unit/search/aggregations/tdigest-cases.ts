/**
 * The inputs of the recorded Elasticsearch t-digest cases (tdigest-es-oracle.test.ts): deterministic samples
 * from mulberry32 (seed per case), only +, * and / so any language regenerates the same doubles, dealt
 * round-robin (sample i to shard i % shards) and added to each shard digest in order.
 */
export type Shape = 'uniform' | 'sorted' | 'reversed' | 'duplicates' | 'skewed';

export const SHAPES: readonly Shape[] = ['uniform', 'sorted', 'reversed', 'duplicates', 'skewed'];
export const SIZES: readonly number[] = [1000, 5000, 50_000, 500_000];
export const SHARD_COUNTS: readonly number[] = [1, 3, 5];
/** 0 and 1 are min and max. */
export const QUANTILES: readonly number[] = [0, 0.01, 0.25, 0.5, 0.75, 0.95, 0.99, 0.999, 1];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function caseName(shape: Shape, n: number, shards: number): string {
  return `${shape}-${n}-${shards}`;
}

/** Seed = n + index of the shape; shard splits of the same (shape, n) share the samples. */
export function samples(shape: Shape, n: number): Float64Array {
  const next = mulberry32(n + SHAPES.indexOf(shape));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = next();
    switch (shape) {
      case 'uniform':
        out[i] = u * 1000;
        break;
      case 'sorted':
        out[i] = i + u;
        break;
      case 'reversed':
        out[i] = n - i + u;
        break;
      case 'duplicates':
        out[i] = Math.floor(u * 20);
        break;
      case 'skewed':
        out[i] = u * u * u * u * 1e6;
        break;
    }
  }
  return out;
}

export function dealt(values: Float64Array, shards: number): number[][] {
  const out: number[][] = Array.from({ length: shards }, () => []);
  values.forEach((v, i) => out[i % shards]!.push(v));
  return out;
}
