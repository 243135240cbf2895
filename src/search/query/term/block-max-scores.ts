/**
 * The best score each postings block of a term can produce (from the block's competitive impacts, under a
 * given SimScorer), with a cursor over the blocks: what TermScorer and PhraseScorer skip blocks with.
 * Computed on first use, since a search that never sets a minimum competitive score never needs it.
 */
import type { PostingsEnum, TermImpacts } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import type { SimScorer } from '../../similarity/similarity.js';
import { DEFAULT_NORM } from './term-scorer-norm.js';

export class BlockMaxScores {
  readonly impacts: TermImpacts;
  readonly maxScores: Float64Array;
  /** Block the last advanceShallow landed on. */
  block = 0;

  constructor(postings: PostingsEnum, simScorer: SimScorer, hasNorms: boolean) {
    this.impacts = postings.impacts();
    this.maxScores = this.impacts.maxScores((freq, norm) => simScorer.score(freq, hasNorms ? norm : DEFAULT_NORM));
  }

  /** Index of the block holding `target` (blockCount when beyond the last doc). */
  blockOf(target: number): number {
    const impacts = this.impacts;
    const block = this.block;
    const from = block > 0 && block <= impacts.blockCount && impacts.blockLastDocs[block - 1]! < target ? block : 0;
    return impacts.blockIndexOf(target, from);
  }

  /** Moves the cursor to the block holding `target`; returns its last doc, or NO_MORE_DOCS past the end. */
  advanceShallow(target: number): number {
    const block = this.blockOf(target);
    if (block >= this.impacts.blockCount) return NO_MORE_DOCS;
    this.block = block;
    return this.impacts.blockLastDocs[block]!;
  }

  /** Best score over the blocks from the cursor's through the one holding `upTo`. */
  maxScore(upTo: number): number {
    const lastDocs = this.impacts.blockLastDocs;
    const count = this.impacts.blockCount;
    let max = 0;
    for (let block = this.block; block < count; block++) {
      if (this.maxScores[block]! > max) max = this.maxScores[block]!;
      if (lastDocs[block]! >= upTo) break;
    }
    return max;
  }

  /** The first block at or after the one holding `target` whose best score reaches `minScore`, or -1. */
  firstCompetitiveBlock(target: number, minScore: number): number {
    let block = this.blockOf(target);
    const count = this.impacts.blockCount;
    while (block < count && this.maxScores[block]! < minScore) block++;
    if (block >= count) return -1;
    this.block = block;
    return block;
  }
}
