/**
 * Compressed arrays of 64-bit integers, as Lucene compresses numeric doc values: every value is stored as
 * (value - min) / gcd in the fewest bits that hold the largest such delta. Timestamps in whole seconds
 * (gcd 1000 in millis), small enums and narrow ranges all shrink to a few bits per value.
 *
 * Wide deltas (> 32 bits) are split into a low 32-bit array and a high array, so every read stays in
 * 32-bit integer arithmetic. Values are exact as JS numbers when min, max and their distance are within
 * 2^53 (`exactAsNumber`, true for nearly all real data); `getBigInt` is always exact.
 *
 *   Meta = Count(vInt) Min(i64) Max(i64) Gcd(i64) Low(PackedArrayMeta) HasHigh(byte) [High(PackedArrayMeta)]
 */
import type { ByteReader } from '../../store/byte-reader.js';
import type { ByteWriter } from '../../store/byte-writer.js';
import { bitsRequired } from '../bits.js';
import {
  PackedArrayReader,
  readPackedArrayMeta,
  writePackedArray,
  writePackedArrayMeta,
  type PackedArrayMeta,
} from '../packed/packed-ints.js';

/** Longs to write: a BigInt64Array, or a Float64Array of safe integers (what JSON parsing yields). */
export type LongInput = BigInt64Array | Float64Array;

export interface LongValuesMeta {
  readonly count: number;
  readonly min: bigint;
  readonly max: bigint;
  readonly gcd: bigint;
  readonly low: PackedArrayMeta;
  readonly high: PackedArrayMeta | null;
}

const TWO_32 = 0x100000000;
const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function gcdNumber(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function gcdBigInt(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** True when the values fit the fast all-number path. */
function safeNumbers(values: LongInput, count: number): Float64Array | null {
  if (values instanceof Float64Array) {
    for (let i = 0; i < count; i++) {
      if (!Number.isSafeInteger(values[i]!)) throw new RangeError(`long value ${values[i]} is not a safe integer; pass a BigInt64Array`);
    }
    return values;
  }
  const numbers = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (v > MAX_SAFE || v < -MAX_SAFE) return null;
    numbers[i] = Number(v);
  }
  return numbers;
}

export function writeLongValues(out: ByteWriter, values: LongInput, count = values.length): LongValuesMeta {
  const numbers = safeNumbers(values, count);
  if (numbers !== null) {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < count; i++) {
      const v = numbers[i]!;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (count === 0) min = max = 0;
    if (max - min <= Number.MAX_SAFE_INTEGER) {
      let gcd = 0;
      for (let i = 0; i < count && gcd !== 1; i++) gcd = gcdNumber(gcd, numbers[i]! - min);
      if (gcd === 0) gcd = 1;
      const bits = bitsRequired((max - min) / gcd);
      const delta = (i: number): number => (numbers[i]! - min) / gcd;
      return writeSplit(out, count, BigInt(min), BigInt(max), BigInt(gcd), bits, (i) => delta(i) % TWO_32, (i) => Math.floor(delta(i) / TWO_32));
    }
  }
  // Values beyond 2^53 or a range wider than 2^53: exact BigInt arithmetic.
  const big = values instanceof BigInt64Array ? values : BigInt64Array.from(values, (v) => BigInt(v));
  let min = MAX_LONG;
  let max = MIN_LONG;
  for (let i = 0; i < count; i++) {
    const v = big[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let gcd = 0n;
  for (let i = 0; i < count && gcd !== 1n; i++) gcd = gcdBigInt(gcd, big[i]! - min);
  if (gcd === 0n) gcd = 1n;
  const maxDelta = (max - min) / gcd;
  const bits = maxDelta === 0n ? 0 : maxDelta.toString(2).length;
  const delta = (i: number): bigint => (big[i]! - min) / gcd;
  return writeSplit(out, count, min, max, gcd, bits, (i) => Number(delta(i) & 0xffffffffn), (i) => Number(delta(i) >> 32n));
}

function writeSplit(
  out: ByteWriter,
  count: number,
  min: bigint,
  max: bigint,
  gcd: bigint,
  bits: number,
  low: (i: number) => number,
  high: (i: number) => number,
): LongValuesMeta {
  const lowMeta = writePackedArray(out, count, Math.min(bits, 32), low);
  const highMeta = bits > 32 ? writePackedArray(out, count, bits - 32, high) : null;
  return { count, min, max, gcd, low: lowMeta, high: highMeta };
}

export function writeLongValuesMeta(toc: ByteWriter, meta: LongValuesMeta): void {
  toc.writeVInt(meta.count);
  toc.writeBigInt64LE(meta.min);
  toc.writeBigInt64LE(meta.max);
  // The gcd of the deltas can exceed 2^63 (values -2^63 and 2^53: one delta of 2^63 + 2^53): stored as the unsigned
  // 64-bit pattern, which is the same bytes as before for every gcd below 2^63.
  toc.writeBigInt64LE(BigInt.asIntN(64, meta.gcd));
  writePackedArrayMeta(toc, meta.low);
  toc.writeByte(meta.high === null ? 0 : 1);
  if (meta.high !== null) writePackedArrayMeta(toc, meta.high);
}

export function readLongValuesMeta(toc: ByteReader): LongValuesMeta {
  const count = toc.readVInt();
  const min = toc.readBigInt64LE();
  const max = toc.readBigInt64LE();
  const gcd = BigInt.asUintN(64, toc.readBigInt64LE());
  const low = readPackedArrayMeta(toc);
  const high = toc.readByte() === 1 ? readPackedArrayMeta(toc) : null;
  if (gcd <= 0n || max < min) throw toc.corrupt(`invalid long values header: min=${min} max=${max} gcd=${gcd}`);
  if (low.count !== count || (high !== null && high.count !== count)) throw toc.corrupt('long values arrays disagree on their length');
  return { count, min, max, gcd, low, high };
}

export class LongValuesReader {
  readonly count: number;
  readonly min: bigint;
  readonly max: bigint;
  /** True when get() is exact (values and their range within 2^53). */
  readonly exactAsNumber: boolean;
  private readonly low: PackedArrayReader;
  private readonly high: PackedArrayReader | null;
  private readonly minNumber: number;
  private readonly gcdNumber: number;
  /** Every value is min + delta * gcd. */
  readonly gcd: bigint;

  constructor(bytes: Buffer, meta: LongValuesMeta, body: ByteReader) {
    this.count = meta.count;
    this.min = meta.min;
    this.max = meta.max;
    this.gcd = meta.gcd;
    this.low = new PackedArrayReader(bytes, meta.low, body);
    this.high = meta.high === null ? null : new PackedArrayReader(bytes, meta.high, body);
    this.exactAsNumber = meta.min >= -MAX_SAFE && meta.max <= MAX_SAFE && meta.max - meta.min <= MAX_SAFE;
    this.minNumber = Number(meta.min);
    this.gcdNumber = Number(meta.gcd);
  }

  /** The value at `index` as a number (exact when exactAsNumber, else the nearest double). */
  get(index: number): number {
    if (!this.exactAsNumber) return Number(this.getBigInt(index));
    const high = this.high;
    const delta = high === null ? this.low.get(index) : this.low.get(index) + high.get(index) * TWO_32;
    return this.minNumber + delta * this.gcdNumber;
  }

  /** True when deltaAt is exact: every (value - min) / gcd is within 2^53. */
  get deltasExact(): boolean {
    return (this.max - this.min) / this.gcd <= MAX_SAFE;
  }

  /**
   * (value - min) / gcd at `index`, as a number: values of one column compare as their deltas do, without
   * BigInts (nanosecond timestamps exceed 2^53, but a segment's spread rarely does).
   */
  deltaAt(index: number): number {
    const high = this.high;
    return high === null ? this.low.get(index) : this.low.get(index) + high.get(index) * TWO_32;
  }

  /** The deltas of the values in [lower, upper] (inclusive): an empty interval (low > high) when none can be. */
  deltaRange(lower: bigint, upper: bigint): { low: number; high: number } {
    if (upper < this.min || lower > this.max || lower > upper) return { low: 1, high: 0 };
    const from = lower <= this.min ? 0n : (lower - this.min + this.gcd - 1n) / this.gcd;
    const to = upper >= this.max ? (this.max - this.min) / this.gcd : (upper - this.min) / this.gcd;
    return { low: Number(from), high: Number(to) };
  }

  getBigInt(index: number): bigint {
    const high = this.high;
    let delta = BigInt(this.low.get(index));
    if (high !== null) delta += BigInt(high.get(index)) << 32n;
    return BigInt.asIntN(64, this.min + delta * this.gcd);
  }
}
