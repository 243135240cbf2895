/**
 * The query phase on one shard (ES's QueryPhase with QueryPhaseCollector): runs the request's query over the
 * shard's searcher and keeps the best `from + size` hits (by score or by the sort), counts the total as
 * `track_total_hits` asks, and feeds the aggregations. As in ES:
 * - `min_score` filters hits and aggregations; `post_filter` filters hits only;
 * - `terminate_after` counts hits that passed both filters and stops everything after that many;
 * - block-max WAND skipping (a lower-bound total, relation `gte`) is used only when nothing else needs to see
 *   every match: relevance order, no aggregations, no paging `after`, no terminate_after, and a bounded total;
 * - a `timeout` ends collection with the partial results (timed_out), a cancelled task fails the shard.
 * The doc loop checks cancellation and the deadline every 4096 docs and yields the event loop when it has
 * held it for a few milliseconds (see PhaseControl).
 */
import {
  AggregationsCollector,
  fieldTypesFromMapping,
  type AggregationContext,
  type AggregationSegment,
  type AggregationSpec,
  type CompiledFilter,
  type InternalAggregation,
} from '../aggregations/index.js';
import type { Collector, LeafCollector } from '../collect/collector.js';
import { TopFieldCollector } from '../collect/top-field-collector.js';
import { TopScoreDocCollector } from '../collect/top-score-doc-collector.js';
import type { FieldDoc, ScoreDoc, SortValue, TopDocs, TotalHits } from '../collect/top-docs.js';
import { NO_MORE_DOCS, type DocIdSetIterator } from '../core/doc-id-set-iterator.js';
import type { LeafContext } from '../core/leaf-context.js';
import type { Query } from '../core/query.js';
import type { Scorable, ScoredCollector, Scorer } from '../core/scorer.js';
import type { ScoreMode } from '../core/score-mode.js';
import type { Weight } from '../core/weight.js';
import { checkDocValueFieldsLimit, checkResultWindow, TRACK_TOTAL_HITS_ACCURATE, TRACK_TOTAL_HITS_DISABLED, type QueryAst, type SearchRequest } from '../dsl/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import { CANCELLATION_WINDOW } from '../searcher/leaf-scoring.js';
import { IndexSearcher, type StatisticsOverride } from '../searcher/index-searcher.js';
import { afterFilterForLeaf, type AfterDoc, type LeafAfterFilter } from './after-filter.js';
import { TimeExceeded, type PhaseControl } from './phase-control.js';
import { buildShardQuery, buildShardQuerySliced } from './shard-query.js';
import { withSliceFilter } from './slice-filter.js';
import type { ShardSearchTarget } from './shard-target.js';
import { shardDocValue } from './sort-values.js';
import type { ResolvedSort } from './sort.js';

export interface QueryPhaseRequest {
  readonly request: SearchRequest;
  readonly sort: ResolvedSort;
  readonly aggregations?: readonly AggregationSpec[];
  /** Hits to keep on this shard: from + size, or the scroll's size; 0 counts only. */
  readonly numHits: number;
  /** ES's resolved track_total_hits: -1 (disabled), a bound, or TRACK_TOTAL_HITS_ACCURATE. */
  readonly trackTotalHitsUpTo: number;
  /** Only hits after this one (search_after, the next page of a scroll). */
  readonly after?: AfterDoc;
  /** Term and field statistics gathered from every shard (dfs_query_then_fetch). */
  readonly statistics?: StatisticsOverride;
  /** The request's fixed `now` (date math, date histograms). */
  readonly nowMillis: number;
  /** Which result-window check applies: a search's from + size, a scroll's batch size, or none. */
  readonly windowCheck: 'search' | 'scroll' | 'none';
}

export interface ShardHit {
  /** Shard-wide doc id (segment docBase + doc). */
  readonly doc: number;
  /** A float; NaN when scores were not computed. */
  readonly score: number;
  /** Raw sort values (field sorts only); `_shard_doc` already carries the shard index. */
  readonly sortValues?: readonly SortValue[];
}

export interface QueryPhaseResult {
  readonly totalHits: TotalHits;
  readonly hits: readonly ShardHit[];
  readonly maxScore: number;
  readonly aggregations?: InternalAggregation[];
  /** Present when the request set terminate_after. */
  readonly terminatedEarly?: boolean;
  readonly timedOut: boolean;
}

/** Matches between two cancellation/timeout checks within a window. */
const CHECK_EVERY_MATCHES = 64;

/** Remembers the current doc's score, so min_score, the hit queue and aggregations score it once. */
class CachingScorable implements Scorable {
  private doc = -1;
  private value = 0;

  constructor(
    private readonly scorer: Scorer,
    private readonly forwardMinCompetitive: boolean,
  ) {}

  docID(): number {
    return this.scorer.docID();
  }

  score(): number {
    const doc = this.scorer.docID();
    if (doc !== this.doc) {
      this.doc = doc;
      this.value = this.scorer.score();
    }
    return this.value;
  }

  setMinCompetitiveScore(minScore: number): void {
    // With aggregations (or paging) every match must still be seen, so skipping stays off.
    if (this.forwardMinCompetitive) this.scorer.setMinCompetitiveScore(minScore);
  }
}

/** Sequential membership test against a filter's iterator (Lucene.asSequentialAccessBits). */
function matchesIterator(iterator: DocIdSetIterator, doc: number): boolean {
  let current = iterator.docID();
  if (current < doc) current = iterator.advance(doc);
  return current === doc;
}

const EMPTY_ITERATOR: DocIdSetIterator = {
  docID: () => NO_MORE_DOCS,
  nextDoc: () => NO_MORE_DOCS,
  advance: () => NO_MORE_DOCS,
  cost: () => 0,
};

/** A query bound to the shard searcher, usable as a random-access filter per segment (filter aggregations). */
function compileFilter(searcher: IndexSearcher, query: Query): CompiledFilter {
  const weight = searcher.createWeight(searcher.rewrite(query), 'complete_no_scores', 1);
  return {
    forSegment(segment: AggregationSegment) {
      const leaf = searcher.leaves.find((candidate) => candidate.docBase === segment.docBase && candidate.readers === segment.readers);
      const iterator = leaf === undefined ? null : weight.scorer(leaf);
      return { matches: (doc: number) => iterator !== null && matchesIterator(iterator, doc) };
    },
  };
}

export function aggregationContext(target: ShardSearchTarget, searcher: IndexSearcher, nowMillis: number): AggregationContext {
  return {
    fieldType: fieldTypesFromMapping(target.mapping, target.mappingSettings),
    nowInMillis: nowMillis,
    maxBuckets: target.settings.maxBuckets,
    termStrings: new WeakMap(),
    ...(target.requestBreaker !== undefined && {
      reserveMemory: (bytes: number, label: string) => target.requestBreaker!.addEstimateBytesAndMaybeBreak(bytes, label),
      releaseMemory: (bytes: number) => target.requestBreaker!.addWithoutBreaking(-bytes),
    }),
    indexName: target.index,
    maxInnerResultWindow: target.settings.maxInnerResultWindow,
    segments: searcher.leaves,
    compileFilter: (query) => compileFilter(searcher, buildShardQuery(target, query as QueryAst, nowMillis)),
  };
}

export function shardSearcher(target: ShardSearchTarget, statistics?: StatisticsOverride): IndexSearcher {
  return new IndexSearcher(target.searcher, { maxClauseCount: target.settings.maxClauseCount, ...(statistics !== undefined && { statistics }) });
}

/** ES's shard-side request checks (DefaultSearchContext.preProcess, SearchService.parseSource). */
function checkLimits(target: ShardSearchTarget, input: QueryPhaseRequest): void {
  const request = input.request;
  if (input.windowCheck === 'search') checkResultWindow(request, target.settings.maxResultWindow);
  if (input.windowCheck === 'scroll' && input.numHits > target.settings.maxResultWindow) {
    throw illegalArgument(
      `Batch size is too large, size must be less than or equal to: [${target.settings.maxResultWindow}] but was [${input.numHits}]. ` +
        'Scroll batch sizes cost as much memory as result windows so they are controlled by the [index.max_result_window] index level setting.',
    );
  }
  checkDocValueFieldsLimit(request, target.settings.maxDocvalueFieldsSearch);
}

interface Collection {
  readonly top: (Collector & { topDocs(terminatedEarly?: boolean): TopDocs<ScoreDoc | FieldDoc> }) | undefined;
  readonly aggs: AggregationsCollector | undefined;
  /** Block-max skipping is on: the total comes from the top-docs collector. */
  readonly wand: boolean;
  readonly scoreMode: ScoreMode;
}

function setUpCollection(target: ShardSearchTarget, searcher: IndexSearcher, input: QueryPhaseRequest): Collection {
  const { request, sort, numHits, trackTotalHitsUpTo } = input;
  const aggs = input.aggregations !== undefined && input.aggregations.length > 0 ? new AggregationsCollector(input.aggregations, aggregationContext(target, searcher, input.nowMillis)) : undefined;
  const wand =
    sort.relevance && numHits > 0 && aggs === undefined && input.after === undefined && request.terminateAfter === undefined && trackTotalHitsUpTo !== TRACK_TOTAL_HITS_ACCURATE;
  let top: Collection['top'];
  if (numHits > 0 && sort.relevance) {
    // Lucene counts exactly up to max(numHits, track_total_hits) before it starts skipping.
    const threshold = !wand ? Infinity : trackTotalHitsUpTo === TRACK_TOTAL_HITS_DISABLED ? numHits : Math.max(numHits, trackTotalHitsUpTo);
    top = new TopScoreDocCollector(numHits, threshold);
  } else if (numHits > 0) {
    top = new TopFieldCollector(numHits, sort.core, request.trackScores ?? false);
  }
  const afterNeedsScores = input.after !== undefined && (input.after.kind === 'relevance' || sort.fields.some((field) => field.kind === 'score'));
  const needsScores =
    (top !== undefined && top.scoreMode !== 'complete_no_scores') || aggs?.scoreMode === 'complete' || request.minScore !== undefined || afterNeedsScores;
  const scoreMode: ScoreMode = wand ? 'top_scores' : needsScores ? 'complete' : 'complete_no_scores';
  return { top, aggs, wand, scoreMode };
}

interface LoopState {
  collected: number;
  terminated: boolean;
}

/** Feeds one segment's matches through min_score, post_filter, terminate_after and `after` to the collectors. */
async function collectLeaf(
  leaf: LeafContext,
  scorer: Scorer,
  postFilter: Weight | undefined,
  topLeaf: LeafCollector | undefined,
  aggLeaf: { setScorer(s: Scorable): void; collect(doc: number): void } | undefined,
  afterFilter: LeafAfterFilter | undefined,
  collection: Collection,
  input: QueryPhaseRequest,
  state: LoopState,
  control: PhaseControl,
): Promise<void> {
  const scorable = new CachingScorable(scorer, collection.wand);
  topLeaf?.setScorer(collection.wand ? scorer : scorable);
  aggLeaf?.setScorer(scorable);
  if (
    collection.wand &&
    topLeaf?.collectScored !== undefined &&
    scorer.scoreRange !== undefined &&
    aggLeaf === undefined &&
    postFilter === undefined &&
    afterFilter === undefined &&
    input.request.minScore === undefined &&
    input.request.terminateAfter === undefined
  ) {
    // The plain top-k search: the scorer's own loop (monomorphic, see Scorer.scoreRange) over windows of
    // CHECK_EVERY_MATCHES doc ids, so a check still comes at least every that many matches. The hit
    // count is the collector's (skipping is on), so nothing is counted here.
    const collector = topLeaf as LeafCollector & ScoredCollector;
    let doc = scorer.nextDoc();
    while (doc !== NO_MORE_DOCS) {
      doc = scorer.scoreRange(collector, leaf.liveDocs, doc, (Math.floor(doc / CHECK_EVERY_MATCHES) + 1) * CHECK_EVERY_MATCHES);
      if (doc === NO_MORE_DOCS) break;
      control.check();
      if (control.shouldYield) await control.yield();
    }
    return;
  }
  const score = (): number => scorable.score();
  const postIterator = postFilter === undefined ? null : (postFilter.scorer(leaf) ?? EMPTY_ITERATOR);
  const live = leaf.liveDocs;
  const minScore = input.request.minScore;
  const terminateAfter = input.request.terminateAfter;
  let windowEnd = CANCELLATION_WINDOW;
  let sinceCheck = 0;
  // A match fed to a hundred aggregations costs a hundred times more: check in that much more often.
  const checkEvery = collection.aggs === undefined ? CHECK_EVERY_MATCHES : Math.max(1, Math.floor(CHECK_EVERY_MATCHES / collection.aggs.aggregatorCount));
  for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
    // Every 4096-doc window (ES's cancellable bulk scorer), and every few matches too, since one match can
    // cost a lot (a sloppy phrase over long text): a cancel or timeout is seen within a few milliseconds.
    if (doc >= windowEnd || ++sinceCheck >= checkEvery) {
      sinceCheck = 0;
      if (doc >= windowEnd) windowEnd = (Math.floor(doc / CANCELLATION_WINDOW) + 1) * CANCELLATION_WINDOW;
      control.check();
      if (control.shouldYield) await control.yield();
    }
    if (live !== null && !live.isLive(doc)) continue;
    if (minScore !== undefined && score() < minScore) continue;
    if (postIterator === null || matchesIterator(postIterator, doc)) {
      // terminate_after counts filtered hits and stops aggregations too (QueryPhaseCollector).
      if (terminateAfter !== undefined && state.collected >= terminateAfter) {
        state.terminated = true;
        return;
      }
      state.collected++;
      if (topLeaf !== undefined && (afterFilter === undefined || afterFilter.accepts(doc, score))) topLeaf.collect(doc);
    }
    aggLeaf?.collect(doc);
  }
}

/** Exact per-segment counts when the weight knows them (match_all, a term without deletes): ES's count shortcut. */
function countShortcut(weight: Weight, searcher: IndexSearcher): number | undefined {
  let total = 0;
  for (const leaf of searcher.leaves) {
    const count = weight.count(leaf);
    if (count < 0) return undefined;
    total += count;
  }
  return total;
}

export async function executeQueryPhase(target: ShardSearchTarget, input: QueryPhaseRequest, control: PhaseControl): Promise<QueryPhaseResult> {
  checkLimits(target, input);
  control.check();
  const { request } = input;
  const searcher = shardSearcher(target, input.statistics);
  // Automata and term expansions are built in slices between checkpoints: a costly regexp or 200 fuzzy terms
  // keep the event loop turning and stay cancellable.
  const pause = () => control.pause();
  const query = await searcher.rewriteSliced(withSliceFilter(await buildShardQuerySliced(target, request.query, input.nowMillis, pause), target, request.slice), pause);
  const postFilter =
    request.postFilter === undefined
      ? undefined
      : searcher.createWeight(await searcher.rewriteSliced(await buildShardQuerySliced(target, request.postFilter, input.nowMillis, pause), pause), 'complete_no_scores', 1);
  const collection = setUpCollection(target, searcher, input);
  try {
    return await runCollection(target, input, control, searcher, query, postFilter, collection);
  } finally {
    // The aggregators' memory is released from the request breaker once their results are built (or failed).
    collection.aggs?.releaseMemory();
  }
}

async function runCollection(
  target: ShardSearchTarget,
  input: QueryPhaseRequest,
  control: PhaseControl,
  searcher: IndexSearcher,
  query: Query,
  postFilter: Weight | undefined,
  collection: Collection,
): Promise<QueryPhaseResult> {
  const { request } = input;
  const weight = searcher.createWeight(query, collection.scoreMode, 1);
  const state: LoopState = { collected: 0, terminated: false };
  let timedOut = false;
  const countOnly = collection.top === undefined && collection.aggs === undefined;
  const simpleCount = countOnly && postFilter === undefined && request.minScore === undefined && request.terminateAfter === undefined;
  const shortcut = simpleCount ? countShortcut(weight, searcher) : undefined;
  if (shortcut !== undefined) {
    state.collected = shortcut;
  } else if (!(countOnly && input.trackTotalHitsUpTo === TRACK_TOTAL_HITS_DISABLED && request.terminateAfter === undefined)) {
    try {
      for (const leaf of searcher.leaves) {
        await control.checkpoint();
        const scorer = weight.scorer(leaf);
        if (scorer === null) continue;
        const topLeaf = collection.top?.getLeafCollector(leaf);
        const aggLeaf = collection.aggs?.getLeafCollector(leaf);
        const afterFilter = input.after === undefined ? undefined : afterFilterForLeaf(input.after, input.sort, leaf, target.shardIndex);
        await collectLeaf(leaf, scorer, postFilter, topLeaf, aggLeaf, afterFilter, collection, input, state, control);
        if (state.terminated) break;
      }
    } catch (err) {
      if (!(err instanceof TimeExceeded)) throw err;
      timedOut = true;
    }
  }
  const topDocs = collection.top?.topDocs(state.terminated);
  const totalHits: TotalHits = collection.wand && topDocs !== undefined ? topDocs.totalHits : { value: state.collected, relation: 'eq' };
  const hits: ShardHit[] = (topDocs?.scoreDocs ?? []).map((scoreDoc) => {
    if (!('sortValues' in scoreDoc)) return { doc: scoreDoc.doc, score: scoreDoc.score };
    const sortValues = input.sort.fields.map((field, i) => (field.kind === 'shard_doc' ? shardDocValue(target.shardIndex, scoreDoc.doc) : (scoreDoc as FieldDoc).sortValues[i]!));
    // A field-sorted hit carries its score only with track_scores (ES populates scores only then).
    return { doc: scoreDoc.doc, score: request.trackScores === true ? scoreDoc.score : NaN, sortValues };
  });
  return {
    totalHits,
    hits,
    maxScore: topDocs?.maxScore ?? NaN,
    ...(collection.aggs !== undefined && { aggregations: collection.aggs.buildShardResult() }),
    ...(request.terminateAfter !== undefined && { terminatedEarly: state.terminated }),
    timedOut,
  };
}
