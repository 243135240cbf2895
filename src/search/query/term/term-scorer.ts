/**
 * Scores one term's postings in one segment (Lucene's TermScorer with ImpactsDISI). Once a minimum
 * competitive score is set, whole postings blocks whose best possible score (from the block's impacts:
 * its Pareto-best (freq, norm) pairs) is below it are skipped without being decoded.
 */
import type { PostingsEnum, TermImpacts } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer } from '../../core/scorer.js';
import type { SimScorer } from '../../similarity/similarity.js';

/** Norm byte used for fields that do not store norms (Lucene's LeafSimScorer default of 1). */
export const DEFAULT_NORM = 1;

export class TermScorer extends Scorer {
  private minCompetitiveScore = 0;
  /** Last doc of the block whose max score was last checked as competitive; docs up to it need no check. */
  private upTo = -1;
  private impacts: TermImpacts | null = null;
  private blockMaxScores: Float64Array | null = null;
  private shallowBlock = 0;

  constructor(
    readonly postings: PostingsEnum,
    private readonly simScorer: SimScorer,
    /** Norm byte per doc; null when the field has no norms. */
    private readonly norms: Uint8Array | null,
  ) {
    super();
  }

  docID(): number {
    return this.postings.docID();
  }

  cost(): number {
    return this.postings.cost();
  }

  freq(): number {
    return this.postings.freq();
  }

  nextDoc(): number {
    const postings = this.postings;
    if (this.minCompetitiveScore === 0 || postings.docID() < this.upTo) return postings.nextDoc();
    return this.advance(postings.docID() + 1);
  }

  advance(target: number): number {
    if (this.minCompetitiveScore > 0 && target > this.upTo) {
      target = this.competitiveTarget(target);
      if (target === NO_MORE_DOCS) return this.exhaust();
    }
    return this.postings.advance(target);
  }

  score(): number {
    const norms = this.norms;
    const doc = this.postings.docID();
    return this.simScorer.score(this.postings.freq(), norms === null ? DEFAULT_NORM : norms[doc]!);
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore > this.minCompetitiveScore) {
      this.minCompetitiveScore = minScore;
      this.upTo = -1; // re-check the current block against the new bound
    }
  }

  override advanceShallow(target: number): number {
    const impacts = this.loadImpacts();
    const block = this.blockOf(impacts, target);
    if (block >= impacts.blockCount) return NO_MORE_DOCS;
    this.shallowBlock = block;
    return impacts.blockLastDocs[block]!;
  }

  override getMaxScore(upTo: number): number {
    const impacts = this.loadImpacts();
    const maxScores = this.blockMaxScores!;
    let max = 0;
    for (let block = this.shallowBlock; block < impacts.blockCount; block++) {
      if (maxScores[block]! > max) max = maxScores[block]!;
      if (impacts.blockLastDocs[block]! >= upTo) break;
    }
    return max;
  }

  /** The first doc >= target in a block that can reach the minimum competitive score, or NO_MORE_DOCS. */
  private competitiveTarget(target: number): number {
    const impacts = this.loadImpacts();
    const maxScores = this.blockMaxScores!;
    const min = this.minCompetitiveScore;
    let block = this.blockOf(impacts, target);
    while (block < impacts.blockCount && maxScores[block]! < min) block++;
    if (block >= impacts.blockCount) return NO_MORE_DOCS;
    this.shallowBlock = block;
    this.upTo = impacts.blockLastDocs[block]!;
    return block === 0 ? target : Math.max(target, impacts.blockLastDocs[block - 1]! + 1);
  }

  /** Index of the block holding `target`, searching from the last shallow block when targets moved forward. */
  private blockOf(impacts: TermImpacts, target: number): number {
    const block = this.shallowBlock;
    const from = block > 0 && block <= impacts.blockCount && impacts.blockLastDocs[block - 1]! < target ? block : 0;
    return impacts.blockIndexOf(target, from);
  }

  private loadImpacts(): TermImpacts {
    if (this.impacts === null) {
      const impacts = this.postings.impacts();
      const simScorer = this.simScorer;
      this.blockMaxScores = impacts.maxScores((freq, norm) => simScorer.score(freq, this.norms === null ? DEFAULT_NORM : norm));
      this.impacts = impacts;
    }
    return this.impacts;
  }

  private exhaust(): number {
    // Move the postings past the end so docID() reports NO_MORE_DOCS.
    return this.postings.advance(NO_MORE_DOCS);
  }
}
