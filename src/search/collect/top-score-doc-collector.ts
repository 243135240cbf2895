/**
 * The k best hits by score (Lucene's TopScoreDocCollector), ties broken by doc id ascending.
 *
 * Every hit is counted until more than `totalHitsThreshold` have been seen; from then on the collector tells
 * the scorer the minimum competitive score (the next float above the k-th best score: since docs arrive in
 * id order, a later doc with an equal score loses the tie) so WAND-style scorers can skip, and the total
 * becomes a lower bound. With an infinite threshold nothing is skipped and the count is exact.
 */
import type { LeafContext } from '../core/leaf-context.js';
import type { Scorable } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';
import { nextUpFloat } from '../float32.js';
import type { Collector, LeafCollector } from './collector.js';
import { HitQueue } from './hit-queue.js';
import type { ScoreDoc, TopDocs, TotalHits } from './top-docs.js';

export class TopScoreDocCollector implements Collector {
  readonly scoreMode: ScoreMode;
  private readonly queue: HitQueue;
  private totalHits = 0;
  private relation: 'eq' | 'gte' = 'eq';
  private minCompetitiveScore = 0;
  private readonly numHits: number;

  constructor(
    numHits: number,
    private readonly totalHitsThreshold: number,
  ) {
    if (!Number.isInteger(numHits) || numHits < 1) throw new RangeError(`numHits must be at least 1, got ${numHits}`);
    if (!(totalHitsThreshold >= 0)) throw new RangeError(`totalHitsThreshold must be >= 0, got ${totalHitsThreshold}`);
    this.numHits = numHits;
    this.queue = new HitQueue(numHits);
    this.scoreMode = totalHitsThreshold === Infinity ? 'complete' : 'top_scores';
  }

  getLeafCollector(leaf: LeafContext): LeafCollector {
    return new TopScoreLeafCollector(this, leaf.docBase);
  }

  /** Called by the leaf collector for every hit; returns whether the min competitive score may rise. */
  collectHit(scorer: Scorable, doc: number, score: number): void {
    this.totalHits++;
    const queue = this.queue;
    if (score <= queue.topScore) {
      // Equal to the worst kept score: the later doc loses the tie, as Lucene's HitQueue orders them.
      if (this.relation === 'eq') this.updateMinCompetitiveScore(scorer);
      return;
    }
    queue.replaceTop(score, doc);
    this.updateMinCompetitiveScore(scorer);
  }

  private updateMinCompetitiveScore(scorer: Scorable): void {
    if (this.totalHits <= this.totalHitsThreshold) return;
    const top = this.queue.topScore;
    if (top === -Infinity) return; // the queue still holds sentinels
    const minScore = nextUpFloat(top);
    if (minScore > this.minCompetitiveScore) {
      scorer.setMinCompetitiveScore(minScore);
      this.relation = 'gte';
      this.minCompetitiveScore = minScore;
    }
  }

  /** Lets a new segment's scorer start from what earlier segments established. */
  carryMinCompetitiveScore(scorer: Scorable): void {
    if (this.minCompetitiveScore > 0) scorer.setMinCompetitiveScore(this.minCompetitiveScore);
  }

  get totalHitCount(): TotalHits {
    return { value: this.totalHits, relation: this.relation };
  }

  topDocs(terminatedEarly = false): TopDocs {
    const scoreDocs: ScoreDoc[] = this.queue.sorted().slice(0, this.numHits);
    return {
      totalHits: this.totalHitCount,
      scoreDocs,
      maxScore: scoreDocs.length > 0 ? scoreDocs[0]!.score : NaN,
      terminatedEarly,
    };
  }
}

class TopScoreLeafCollector implements LeafCollector {
  private scorer: Scorable | null = null;

  constructor(
    private readonly parent: TopScoreDocCollector,
    private readonly docBase: number,
  ) {}

  setScorer(scorer: Scorable): void {
    this.scorer = scorer;
    this.parent.carryMinCompetitiveScore(scorer);
  }

  collect(doc: number): void {
    const scorer = this.scorer!;
    this.parent.collectHit(scorer, doc + this.docBase, scorer.score());
  }

  collectScored(doc: number, score: number): void {
    this.parent.collectHit(this.scorer!, doc + this.docBase, score);
  }
}
