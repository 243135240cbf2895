/**
 * Scores one term's postings in one segment (Lucene's TermScorer with ImpactsDISI). Once a minimum
 * competitive score is set, whole postings blocks whose best possible score (from the block's impacts:
 * its Pareto-best (freq, norm) pairs) is below it are skipped without being decoded.
 */
import type { LiveDocs, PostingsEnum } from '../../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../../core/doc-id-set-iterator.js';
import { Scorer, type ScoredCollector } from '../../core/scorer.js';
import type { SimScorer } from '../../similarity/similarity.js';
import { BlockMaxScores } from './block-max-scores.js';
import { DEFAULT_NORM } from './term-scorer-norm.js';

export { DEFAULT_NORM };

export class TermScorer extends Scorer {
  private minCompetitiveScore = 0;
  /** Last doc of the block last found competitive; docs up to it need no check. */
  private upTo = -1;
  private blocks: BlockMaxScores | null = null;

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
      const blocks = this.loadBlocks();
      const block = blocks.firstCompetitiveBlock(target, this.minCompetitiveScore);
      // Past the last competitive block: move the postings past the end so docID() is NO_MORE_DOCS.
      if (block < 0) return this.postings.advance(NO_MORE_DOCS);
      this.upTo = blocks.impacts.blockLastDocs[block]!;
      if (block > 0) target = Math.max(target, blocks.impacts.blockLastDocs[block - 1]! + 1);
    }
    return this.postings.advance(target);
  }

  score(): number {
    const norms = this.norms;
    return this.simScorer.score(this.postings.freq(), norms === null ? DEFAULT_NORM : norms[this.postings.docID()]!);
  }

  override scoreRange(collector: ScoredCollector, liveDocs: LiveDocs | null, doc: number, end: number): number {
    // This class's own copy of the loop, on purpose: see Scorer.scoreRange.
    while (doc < end) {
      if (liveDocs === null || liveDocs.isLive(doc)) collector.collectScored(doc, this.score());
      doc = this.nextDoc();
    }
    return doc;
  }

  override setMinCompetitiveScore(minScore: number): void {
    if (minScore > this.minCompetitiveScore) {
      this.minCompetitiveScore = minScore;
      this.upTo = -1; // re-check the current block against the new bound
    }
  }

  override advanceShallow(target: number): number {
    return this.loadBlocks().advanceShallow(target);
  }

  override getMaxScore(upTo: number): number {
    return this.loadBlocks().maxScore(upTo);
  }

  private loadBlocks(): BlockMaxScores {
    return (this.blocks ??= new BlockMaxScores(this.postings, this.simScorer, this.norms !== null));
  }
}
