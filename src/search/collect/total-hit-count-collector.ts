/** Counts hits without scoring them (Lucene's TotalHitCountCollector; ES's `size: 0` with an exact total). */
import type { LeafContext } from '../core/leaf-context.js';
import type { Collector, LeafCollector } from './collector.js';

export class TotalHitCountCollector implements Collector {
  readonly scoreMode = 'complete_no_scores' as const;
  totalHits = 0;

  getLeafCollector(_leaf: LeafContext): LeafCollector {
    return {
      setScorer: () => {},
      collect: () => {
        this.totalHits++;
      },
    };
  }
}
