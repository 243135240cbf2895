/** Every document, each scoring the boost (1 by default). */
import { AllDocsIterator } from '../core/bitset.js';
import { ConstantScoreWeight } from '../core/constant-score-weight.js';
import type { DocIdSetIterator } from '../core/doc-id-set-iterator.js';
import type { LeafContext } from '../core/leaf-context.js';
import { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { IndexSearcher } from '../searcher/index-searcher.js';

export class MatchAllDocsQuery extends Query {
  createWeight(_searcher: IndexSearcher, _scoreMode: ScoreMode, boost: number): ConstantScoreWeight {
    return new MatchAllWeight(this, boost);
  }

  toString(): string {
    return '*:*';
  }

  equals(other: Query): boolean {
    return other instanceof MatchAllDocsQuery;
  }
}

class MatchAllWeight extends ConstantScoreWeight {
  iterator(leaf: LeafContext): DocIdSetIterator | null {
    return leaf.maxDoc === 0 ? null : new AllDocsIterator(leaf.maxDoc);
  }

  override count(leaf: LeafContext): number {
    return leaf.liveDocs === null ? leaf.maxDoc : leaf.liveDocs.liveCount;
  }
}
