/** Documents containing one exact term of a field, scored with the searcher's similarity (BM25). */
import { Query } from '../../core/query.js';
import type { ScoreMode } from '../../core/score-mode.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import type { TermStates } from '../../searcher/term-states.js';
import { Term } from './term.js';
import { TermWeight } from './term-weight.js';

export class TermQuery extends Query {
  readonly term: Term;

  /** `states` pins precomputed (e.g. blended) statistics, as multi-term rewrites do. */
  constructor(
    field: string | Term,
    term?: string | Uint8Array,
    private readonly states?: TermStates,
  ) {
    super();
    if (field instanceof Term) this.term = field;
    else {
      if (term === undefined) throw new TypeError('TermQuery needs a term');
      this.term = new Term(field, term);
    }
  }

  createWeight(searcher: IndexSearcher, scoreMode: ScoreMode, boost: number): TermWeight {
    const states = this.states ?? searcher.termStates(this.term.field, this.term.bytes);
    return new TermWeight(this, searcher, scoreMode, boost, states);
  }

  toString(field?: string): string {
    return this.term.field === field ? this.term.text : this.term.toString();
  }

  equals(other: Query): boolean {
    return other instanceof TermQuery && this.term.equals(other.term) && this.states === other.states;
  }
}
