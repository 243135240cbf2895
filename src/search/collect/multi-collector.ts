/**
 * Feeds every hit to several collectors in one pass (Lucene's MultiCollector): top hits plus aggregations,
 * say. The pass needs scores if any collector does. A minimum competitive score only reaches the scorer
 * when a single collector is attached: skipping documents for one collector would starve the others.
 */
import type { LeafContext } from '../core/leaf-context.js';
import type { Scorable } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Collector, LeafCollector } from './collector.js';

export class MultiCollector implements Collector {
  readonly scoreMode: ScoreMode;

  constructor(private readonly collectors: readonly Collector[]) {
    if (collectors.length === 0) throw new RangeError('MultiCollector needs at least one collector');
    const modes = new Set(collectors.map((collector) => collector.scoreMode));
    if (modes.size === 1) this.scoreMode = collectors[0]!.scoreMode;
    else this.scoreMode = [...modes].some((mode) => mode !== 'complete_no_scores') ? 'complete' : 'complete_no_scores';
  }

  getLeafCollector(leaf: LeafContext): LeafCollector {
    const leaves = this.collectors.map((collector) => collector.getLeafCollector(leaf));
    const single = leaves.length === 1;
    return {
      setScorer(scorer: Scorable) {
        // Several collectors may ask for the same doc's score: compute it once.
        let scoredDoc = -1;
        let score = 0;
        const shared: Scorable = single
          ? scorer
          : {
              docID: () => scorer.docID(),
              score: () => {
                const doc = scorer.docID();
                if (doc !== scoredDoc) {
                  scoredDoc = doc;
                  score = scorer.score();
                }
                return score;
              },
              setMinCompetitiveScore: () => {},
            };
        for (const leafCollector of leaves) leafCollector.setScorer(shared);
      },
      collect(doc: number) {
        for (const leafCollector of leaves) leafCollector.collect(doc);
      },
    };
  }
}
