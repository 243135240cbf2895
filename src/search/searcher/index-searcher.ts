/**
 * Runs queries over a point-in-time view of a shard (Lucene's IndexSearcher over the engine's Searcher).
 *
 * Contract:
 * - rewrite() turns a query into primitives (to a fixpoint); createWeight() binds it to this searcher's
 *   statistics, which are per shard as Elasticsearch's default query_then_fetch computes them: a term's
 *   docFreq and a field's docCount/sumTotalTermFreq are summed over every segment, deleted docs included
 *   (Lucene counts them until a merge drops them). `statistics` can override them (distributed frequencies).
 * - search() feeds every live match of every segment, in doc order, to a collector, honouring
 *   terminate_after and calling the cancellation check at least once per 4096-doc window.
 * - Doc ids in results are searcher-wide: segment docBase + segment doc.
 */
import { EsError } from '../../common/errors.js';
import type { Searcher } from '../../engine/searcher.js';
import { DEFAULT_TRACK_TOTAL_HITS_UP_TO, type TopDocs, type FieldDoc } from '../collect/top-docs.js';
import type { Collector } from '../collect/collector.js';
import { TopScoreDocCollector } from '../collect/top-score-doc-collector.js';
import { TopFieldCollector } from '../collect/top-field-collector.js';
import type { SortSpec } from '../collect/sort.js';
import type { LeafContext } from '../core/leaf-context.js';
import type { Query } from '../core/query.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import { UnscoredWeight } from '../core/unscored-weight.js';
import { Explanation } from '../explanation.js';
import { BM25Similarity } from '../similarity/bm25.js';
import type { CollectionStatistics, Similarity, TermStatistics } from '../similarity/similarity.js';
import { scoreLeaf, type LeafScoringControl } from './leaf-scoring.js';
import { TermStates } from './term-states.js';
import type { TermState } from '../../engine/codec/index.js';
import { NO_MORE_DOCS } from '../core/doc-id-set-iterator.js';

const MAX_REWRITE_STEPS = 1000;

/** Lucene's default limit on boolean clauses (ES's indices.query.bool.max_clause_count default before 8.x). */
export const DEFAULT_MAX_CLAUSE_COUNT = 1024;

/** Replaces searcher-local statistics, e.g. with frequencies gathered from every shard (DFS). */
export interface StatisticsOverride {
  term?(field: string, term: Uint8Array, local: TermStatistics | null): TermStatistics | null;
  collection?(field: string, local: CollectionStatistics | null): CollectionStatistics | null;
}

export interface IndexSearcherOptions {
  readonly similarity?: Similarity;
  readonly statistics?: StatisticsOverride;
  readonly maxClauseCount?: number;
}

export interface SearchOptions {
  /** Stop once this many hits have been collected (ES `terminate_after`). */
  readonly terminateAfter?: number;
  /** Called at least once per 4096-doc window of every segment; throw to abort (cancellation, timeout). */
  readonly checkCancelled?: () => void;
}

export interface TopDocsOptions extends SearchOptions {
  /** Count hits exactly up to this many (ES `track_total_hits`, default 10,000; Infinity = exact). */
  readonly trackTotalHitsUpTo?: number;
}

export interface SearchOutcome {
  readonly terminatedEarly: boolean;
}

/**
 * A query whose rewrite needs work that can be done ahead in slices (a multi-term query's walk over the term
 * dictionary): in a prefetch pass its rewrite defers to `prefetch` instead of doing that work at once.
 */
export interface Prefetchable {
  prefetch(searcher: IndexSearcher, pause: () => Promise<void>): Promise<void>;
}

/** Prefetch passes before the rewrite gives up slicing and lets whatever is left be done in one go. */
const MAX_PREFETCH_PASSES = 8;

export class IndexSearcher {
  readonly leaves: readonly LeafContext[];
  readonly similarity: Similarity;
  readonly maxClauseCount: number;
  private readonly statistics: StatisticsOverride | undefined;
  /** Set during a prefetch pass: the queries whose expensive rewrite work was deferred. */
  private deferred: Prefetchable[] | undefined;

  constructor(
    readonly reader: Searcher,
    options: IndexSearcherOptions = {},
  ) {
    this.leaves = reader.segments.map((segment, ord) => ({
      ord,
      docBase: segment.docBase,
      maxDoc: segment.maxDoc,
      readers: segment.readers,
      liveDocs: segment.liveDocs,
    }));
    this.similarity = options.similarity ?? new BM25Similarity();
    this.statistics = options.statistics;
    this.maxClauseCount = options.maxClauseCount ?? DEFAULT_MAX_CLAUSE_COUNT;
  }

  get maxDoc(): number {
    return this.reader.maxDoc;
  }

  rewrite(query: Query): Query {
    let current = query;
    for (let step = 0; step < MAX_REWRITE_STEPS; step++) {
      const rewritten = current.rewrite(this);
      if (rewritten === current) return current;
      current = rewritten;
    }
    // A rewrite rule that undoes another would otherwise spin forever on a request thread.
    throw new EsError('illegal_state_exception', `query rewriting did not settle after ${MAX_REWRITE_STEPS} steps: ${query.toString()}`);
  }

  /**
   * In a prefetch pass, records `query` and returns true: its rewrite returns it unchanged for now. Outside one,
   * returns false and the rewrite does its work at once.
   */
  deferToPrefetch(query: Prefetchable): boolean {
    if (this.deferred === undefined) return false;
    this.deferred.push(query);
    return true;
  }

  /**
   * rewrite(), with the expensive part of multi-term rewrites (the walks over term dictionaries) done first in
   * slices: `pause` runs between slices (a search phase's checkpoint: cancellation, timeout, a yield of the event
   * loop), so 200 fuzzy terms or a regexp over a large dictionary no longer hold the loop for seconds.
   */
  async rewriteSliced(query: Query, pause: () => Promise<void>): Promise<Query> {
    for (let pass = 0; pass < MAX_PREFETCH_PASSES; pass++) {
      const deferred: Prefetchable[] = [];
      this.deferred = deferred;
      try {
        this.rewrite(query);
      } finally {
        this.deferred = undefined;
      }
      if (deferred.length === 0) break;
      for (const item of deferred) await item.prefetch(this, pause);
    }
    return this.rewrite(query);
  }

  /** `query` must already be rewritten. */
  createWeight(query: Query, scoreMode: ScoreMode, boost: number): Weight {
    const weight = query.createWeight(this, scoreMode, boost);
    return scoreMode === 'complete_no_scores' ? new UnscoredWeight(weight) : weight;
  }

  /** The term in every segment (what a term or phrase weight looks up once). */
  termStates(field: string, term: Uint8Array): TermStates {
    const states: (TermState | null)[] = [];
    let docFreq = 0;
    let totalTermFreq = 0;
    for (const leaf of this.leaves) {
      const state = leaf.readers.terms.terms(field)?.seekExact(term) ?? null;
      states.push(state);
      if (state !== null) {
        docFreq += state.docFreq;
        totalTermFreq += state.totalTermFreq;
      }
    }
    return new TermStates(states, docFreq, totalTermFreq);
  }

  /** Searcher-wide statistics of a term, or null when no segment contains it. */
  termStatistics(field: string, term: Uint8Array, states: TermStates): TermStatistics | null {
    const local = states.docFreq > 0 ? { term, docFreq: states.docFreq, totalTermFreq: states.totalTermFreq } : null;
    return this.statistics?.term ? this.statistics.term(field, term, local) : local;
  }

  /** Searcher-wide statistics of a field, or null when no document has it. */
  collectionStatistics(field: string): CollectionStatistics | null {
    let docCount = 0;
    let sumTotalTermFreq = 0;
    let sumDocFreq = 0;
    for (const leaf of this.leaves) {
      const stats = leaf.readers.terms.terms(field)?.stats;
      if (stats === undefined) continue;
      docCount += stats.docCount;
      sumTotalTermFreq += stats.sumTotalTermFreq;
      sumDocFreq += stats.sumDocFreq;
    }
    const local = docCount === 0 ? null : { field, maxDoc: this.maxDoc, docCount, sumTotalTermFreq, sumDocFreq };
    return this.statistics?.collection ? this.statistics.collection(field, local) : local;
  }

  /** Feeds every live match to `collector`. */
  search(query: Query, collector: Collector, options: SearchOptions = {}): SearchOutcome {
    const weight = this.createWeight(this.rewrite(query), collector.scoreMode, 1);
    return this.searchWeight(weight, collector, options);
  }

  searchWeight(weight: Weight, collector: Collector, options: SearchOptions = {}): SearchOutcome {
    const limit = options.terminateAfter ?? Infinity;
    if (!(limit > 0)) throw new RangeError(`terminateAfter must be positive, got ${limit}`);
    const control: LeafScoringControl = { remaining: limit, checkCancelled: options.checkCancelled };
    for (const leaf of this.leaves) {
      options.checkCancelled?.();
      const scorer = weight.scorer(leaf);
      if (scorer === null) continue;
      const leafCollector = collector.getLeafCollector(leaf);
      leafCollector.setScorer(scorer);
      if (scoreLeaf(scorer, leafCollector, leaf.liveDocs, control)) return { terminatedEarly: true };
    }
    return { terminatedEarly: false };
  }

  /** The `size` best hits by score (ES's default search). */
  topDocs(query: Query, size: number, options: TopDocsOptions = {}): TopDocs {
    const collector = new TopScoreDocCollector(size, options.trackTotalHitsUpTo ?? DEFAULT_TRACK_TOTAL_HITS_UP_TO);
    const { terminatedEarly } = this.search(query, collector, options);
    return collector.topDocs(terminatedEarly);
  }

  /** The `size` first hits in `sort` order (ES's `sort`). */
  topFieldDocs(query: Query, size: number, sort: SortSpec, options: SearchOptions & { trackScores?: boolean } = {}): TopDocs<FieldDoc> {
    const collector = new TopFieldCollector(size, sort, options.trackScores ?? false);
    const { terminatedEarly } = this.search(query, collector, options);
    return collector.topDocs(terminatedEarly);
  }

  /** Number of live matches, without scoring (uses per-segment counts when a weight knows them). */
  count(query: Query, options: SearchOptions = {}): number {
    const weight = this.createWeight(this.rewrite(query), 'complete_no_scores', 1);
    let total = 0;
    for (const leaf of this.leaves) {
      options.checkCancelled?.();
      const known = weight.count(leaf);
      if (known >= 0) {
        total += known;
        continue;
      }
      const scorer = weight.scorer(leaf);
      if (scorer === null) continue;
      const live = leaf.liveDocs;
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        if (live === null || live.isLive(doc)) total++;
      }
    }
    return total;
  }

  /** Why the searcher-wide doc `doc` matches `query` or not. */
  explain(query: Query, doc: number): Explanation {
    const leaf = this.leafOf(doc);
    if (leaf === null) throw new RangeError(`doc ${doc} out of range [0, ${this.maxDoc})`);
    const weight = this.createWeight(this.rewrite(query), 'complete', 1);
    const segmentDoc = doc - leaf.docBase;
    if (leaf.liveDocs !== null && !leaf.liveDocs.isLive(segmentDoc)) {
      return Explanation.noMatch(`Document ${doc} is deleted`);
    }
    return weight.explain(leaf, segmentDoc);
  }

  /** The segment holding searcher-wide doc `doc`. */
  leafOf(doc: number): LeafContext | null {
    const leaves = this.leaves;
    let low = 0;
    let high = leaves.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const leaf = leaves[mid]!;
      if (doc < leaf.docBase) high = mid - 1;
      else if (doc >= leaf.docBase + leaf.maxDoc) low = mid + 1;
      else return leaf;
    }
    return null;
  }
}
