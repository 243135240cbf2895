/**
 * Competitive impacts: per postings block, the (freq, norm) pairs that can produce the block's best score
 * under any scoring function that does not decrease with freq and does not increase with the (unsigned)
 * norm byte, as Lucene's CompetitiveImpactAccumulator and Impacts define them.
 */
import type { ByteWriter } from '../../store/byte-writer.js';

/** Collects the (freq, norm) pairs of one block and writes its Pareto frontier. */
export class CompetitiveImpactAccumulator {
  private readonly maxFreqByNorm = new Int32Array(256);
  /** The range of norm slots used since the last write (empty: lowest > highest), so a write scans only it. */
  private lowestNorm = 256;
  private highestNorm = -1;

  add(freq: number, norm: number): void {
    const slot = norm & 0xff;
    if (freq > this.maxFreqByNorm[slot]!) this.maxFreqByNorm[slot] = freq;
    if (slot < this.lowestNorm) this.lowestNorm = slot;
    if (slot > this.highestNorm) this.highestNorm = slot;
  }

  /** Writes Count(vInt) then {FreqDelta NormDelta}* (see postings-format.ts) and resets. */
  writeTo(out: ByteWriter, scratch: Int32Array): void {
    // Scan norms from best (smallest) to worst: a pair is competitive only if its freq beats every freq
    // seen at a smaller norm.
    let count = 0;
    let bestFreq = 0;
    for (let norm = this.lowestNorm; norm <= this.highestNorm; norm++) {
      const freq = this.maxFreqByNorm[norm]!;
      if (freq > bestFreq) {
        scratch[count * 2] = freq;
        scratch[count * 2 + 1] = norm;
        count++;
        bestFreq = freq;
      }
    }
    out.writeVInt(count);
    let previousFreq = 0;
    let previousNorm = -1;
    for (let i = 0; i < count; i++) {
      const freq = scratch[i * 2]!;
      const norm = scratch[i * 2 + 1]!;
      out.writeVInt(freq - previousFreq - 1);
      out.writeVInt(norm - previousNorm - 1);
      previousFreq = freq;
      previousNorm = norm;
    }
    if (this.lowestNorm <= this.highestNorm) this.maxFreqByNorm.fill(0, this.lowestNorm, this.highestNorm + 1);
    this.lowestNorm = 256;
    this.highestNorm = -1;
  }
}

/** Scores a (freq, norm byte) pair; must not decrease with freq nor increase with norm. */
export type ImpactScorer = (freq: number, norm: number) => number;

/**
 * The skip data of one term as arrays: per block, its last doc id and its competitive impacts. This is
 * what block-max WAND consumes: compute each block's max score once per query term (`maxScores`), then
 * bound any doc range by the blocks that cover it.
 */
export class TermImpacts {
  constructor(
    readonly blockCount: number,
    /** Last doc id of each block, ascending. */
    readonly blockLastDocs: Int32Array,
    /** Block b's impacts are entries [impactStarts[b], impactStarts[b + 1]) of the two arrays below. */
    readonly impactStarts: Int32Array,
    readonly impactFreqs: Int32Array,
    readonly impactNorms: Uint8Array,
  ) {}

  /** Index of the first block whose last doc is >= target, from block `from`; blockCount when none. */
  blockIndexOf(target: number, from = 0): number {
    return firstBlockEndingAtOrAfter(this.blockLastDocs, this.blockCount, target, from);
  }

  maxScoreOfBlock(block: number, score: ImpactScorer): number {
    let max = -Infinity;
    for (let i = this.impactStarts[block]!; i < this.impactStarts[block + 1]!; i++) {
      const value = score(this.impactFreqs[i]!, this.impactNorms[i]!);
      if (value > max) max = value;
    }
    return max;
  }

  /** Max score of every block, for a query term's lifetime. */
  maxScores(score: ImpactScorer): Float64Array {
    const scores = new Float64Array(this.blockCount);
    for (let b = 0; b < this.blockCount; b++) scores[b] = this.maxScoreOfBlock(b, score);
    return scores;
  }

  /** Max score over the whole term (what WAND uses before looking at blocks). */
  maxScore(score: ImpactScorer): number {
    let max = -Infinity;
    for (let b = 0; b < this.blockCount; b++) max = Math.max(max, this.maxScoreOfBlock(b, score));
    return max;
  }
}

/** Binary search over blocks' last docs: the first block from `from` whose last doc is >= target; `count` when none. */
export function firstBlockEndingAtOrAfter(lastDocs: Int32Array, count: number, target: number, from: number): number {
  let low = from;
  let high = count - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (lastDocs[mid]! < target) low = mid + 1;
    else high = mid - 1;
  }
  return low;
}
