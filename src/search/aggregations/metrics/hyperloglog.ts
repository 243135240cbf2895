/**
 * HyperLogLog++ as Elasticsearch's cardinality aggregation runs it (HyperLogLogPlusPlus): every value's 64-bit
 * hash is first kept in a linear-counting set of 32-bit "encoded" hashes (sparse representation, P2 = 25 bits
 * of index) until the set holds more than (2^p / 4) * 0.75 entries; then the set is replayed into 2^p one-byte
 * registers. Sketches of the same precision merge losslessly, so shards send sketches and the coordinating
 * node merges them.
 *
 * Linear counting reports round(m * ln(m / (m - n))) with m = 2^25, exactly as ES does (equal to the number of
 * distinct values unless two of them share their 25 top hash bits). In register mode ES subtracts an empirical
 * bias from tables published with the HLL++ paper; Gannet instead uses Ertl's improved raw estimator (2017),
 * which is unbiased without tables: the result is within the same error bounds but not bit-identical.
 */
export const MIN_PRECISION = 4;
export const MAX_PRECISION = 18;
export const DEFAULT_PRECISION = 14;
const P2 = 25;
const MAX_LOAD_FACTOR = Math.fround(0.75);

/** HyperLogLogPlusPlus.precisionFromThreshold: the precision at which `count` values are still linear-counted. */
export function precisionFromThreshold(count: number): number {
  // Java divides a long by a float: the quotient is a float.
  const hashTableEntries = Math.ceil(Math.fround(Math.fround(count) / MAX_LOAD_FACTOR));
  const bytes = hashTableEntries * 4;
  const bitsRequired = bytes === 0 ? 1 : Math.floor(Math.log2(bytes)) + 1;
  return Math.min(MAX_PRECISION, Math.max(MIN_PRECISION, bitsRequired));
}

/** The linear-counting capacity ES derives from a precision. */
export function linearCountingThreshold(precision: number): number {
  const capacity = (1 << precision) / 4;
  return Math.trunc(Math.fround(capacity * MAX_LOAD_FACTOR));
}

function numberOfLeadingZeros64(hi: number, lo: number): number {
  if (hi !== 0) return Math.clz32(hi);
  return 32 + Math.clz32(lo);
}

/** AbstractLinearCounting.encodeHash: the hash in 32 bits (never 0). */
export function encodeHash(hi: number, lo: number, p: number): number {
  const e = hi >>> (32 - P2); // hash >>> (64 - 25): the top 25 bits of the hash
  const lowMask = (1 << (P2 - p)) - 1;
  if ((e & lowMask) === 0) {
    // hash << 25
    const shiftedHi = ((hi << P2) | (lo >>> (32 - P2))) >>> 0;
    const shiftedLo = (lo << P2) >>> 0;
    const runLen = 1 + Math.min(numberOfLeadingZeros64(shiftedHi, shiftedLo), 64 - P2);
    return ((e << 7) | (runLen << 1) | 1) | 0;
  }
  return (e << 1) | 0;
}

function decodeIndex(encoded: number, p: number): number {
  const index = (encoded & 1) === 1 ? encoded >>> 7 : encoded >>> 1;
  return index >>> (P2 - p);
}

function decodeRunLen(encoded: number, p: number): number {
  if ((encoded & 1) === 1) return ((encoded >>> 1) & 0x3f) + (P2 - p);
  const bits = encoded << (31 + p - P2);
  return 1 + Math.clz32(bits);
}

/** What a shard sends: the precision and either the encoded hashes or the registers. */
export interface HllState {
  readonly precision: number;
  /** Linear counting: the distinct encoded hashes. */
  readonly hashes: readonly number[] | null;
  /** HyperLogLog: one run length per register (2^precision entries). */
  readonly registers: Uint8Array | null;
}

export class HyperLogLogPlusPlus {
  private hashes: Set<number> | null = new Set();
  private registers: Uint8Array | null = null;
  private readonly threshold: number;

  constructor(readonly precision: number) {
    if (precision < MIN_PRECISION) throw new RangeError('precision must be >= 4');
    if (precision > MAX_PRECISION) throw new RangeError('precision must be <= 18');
    this.threshold = linearCountingThreshold(precision);
  }

  static fromState(state: HllState): HyperLogLogPlusPlus {
    const sketch = new HyperLogLogPlusPlus(state.precision);
    sketch.merge(state);
    return sketch;
  }

  /** Adds one 64-bit hash given as its words. */
  collect(hi: number, lo: number): void {
    if (this.hashes !== null) {
      this.addEncoded(encodeHash(hi, lo, this.precision));
      return;
    }
    const p = this.precision;
    const index = hi >>> (32 - p);
    const shiftedHi = ((hi << p) | (lo >>> (32 - p))) >>> 0;
    const shiftedLo = (lo << p) >>> 0;
    const runLen = 1 + Math.min(numberOfLeadingZeros64(shiftedHi, shiftedLo), 64 - p);
    const registers = this.registers!;
    if (runLen > registers[index]!) registers[index] = runLen;
  }

  private addEncoded(encoded: number): void {
    const hashes = this.hashes;
    if (hashes !== null) {
      if (hashes.has(encoded)) return;
      hashes.add(encoded);
      if (hashes.size > this.threshold) this.upgrade();
      return;
    }
    this.addRunLen(decodeIndex(encoded, this.precision), decodeRunLen(encoded, this.precision));
  }

  private addRunLen(index: number, runLen: number): void {
    const registers = this.registers!;
    if (runLen > registers[index]!) registers[index] = runLen;
  }

  private upgrade(): void {
    const hashes = this.hashes!;
    this.hashes = null;
    this.registers = new Uint8Array(1 << this.precision);
    for (const encoded of hashes) this.addRunLen(decodeIndex(encoded, this.precision), decodeRunLen(encoded, this.precision));
  }

  merge(other: HllState): void {
    if (other.precision !== this.precision) throw new RangeError('cannot merge sketches of different precisions');
    if (other.hashes !== null) {
      for (const encoded of other.hashes) this.addEncoded(encoded);
      return;
    }
    if (this.hashes !== null) this.upgrade();
    const registers = this.registers!;
    const incoming = other.registers!;
    for (let i = 0; i < registers.length; i++) if (incoming[i]! > registers[i]!) registers[i] = incoming[i]!;
  }

  cardinality(): number {
    if (this.hashes !== null) {
      const m = 2 ** P2;
      return Math.round(m * Math.log(m / (m - this.hashes.size)));
    }
    return ertlEstimate(this.registers!, this.precision);
  }

  state(): HllState {
    return {
      precision: this.precision,
      hashes: this.hashes === null ? null : [...this.hashes],
      registers: this.registers === null ? null : this.registers.slice(),
    };
  }
}

/** Ertl, "New cardinality estimation algorithms for HyperLogLog sketches" (2017), improved raw estimator. */
function ertlEstimate(registers: Uint8Array, p: number): number {
  const m = registers.length;
  const q = 64 - p;
  const counts = new Float64Array(q + 2);
  for (let i = 0; i < m; i++) counts[registers[i]!]! += 1;
  let z = m * tau(1 - counts[q + 1]! / m);
  for (let k = q; k >= 1; k--) z = 0.5 * (z + counts[k]!);
  z += m * sigma(counts[0]! / m);
  const alphaInf = 1 / (2 * Math.LN2);
  return Math.round((alphaInf * m * m) / z);
}

function sigma(input: number): number {
  if (input === 1) return Infinity;
  let x = input;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const previous = z;
    z += x * y;
    y += y;
    if (z === previous) return z;
  }
}

function tau(input: number): number {
  if (input === 0 || input === 1) return 0;
  let x = input;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const previous = z;
    y *= 0.5;
    z -= (1 - x) * (1 - x) * y;
    if (z === previous) return z / 3;
  }
}
