/**
 * The top-level aggregation driver for one shard, shaped like the search layer's Collector so a search can
 * feed it directly (alone or beside a top-docs collector):
 *
 *   const collector = new AggregationsCollector(specs, context)   // creates and validates aggregators
 *   for each segment: const leaf = collector.getLeafCollector(segment)
 *                     leaf.setScorer(scorer)                       // only read when scoreMode is 'complete'
 *                     leaf.collect(doc) for every matching live doc, increasing, segment-local ids
 *   const shardResult = collector.buildShardResult()               // InternalAggregation[], one per top-level agg
 *
 * Shard results of every shard then go through reduceAggregations(...) and renderAggregations(...).
 */
import { createAggregators } from './aggregator-factory.js';
import type { Aggregator, LeafCollector } from './aggregator.js';
import { AggregationMemory, BucketConsumer, NO_SCORES, type AggregationContext, type ScoreSource } from './context.js';
import type { InternalAggregation } from './internal.js';
import type { AggregationSpec } from './spec.js';
import type { AggregationSegment } from './support/values.js';

export interface AggregationLeafCollector {
  setScorer(scorer: ScoreSource): void;
  collect(doc: number): void;
}

export class AggregationsCollector {
  readonly aggregators: readonly Aggregator[];
  /** 'complete' when some aggregation reads scores (top_hits by score), as Lucene's ScoreMode. */
  readonly scoreMode: 'complete' | 'complete_no_scores';
  private readonly consumer: BucketConsumer;
  private readonly memory: AggregationMemory;
  /** Aggregators at every level: what collecting one document costs, roughly (a search checks in more often). */
  readonly aggregatorCount: number;

  constructor(
    specs: readonly AggregationSpec[],
    readonly context: AggregationContext,
  ) {
    this.consumer = new BucketConsumer(context.maxBuckets);
    this.memory = new AggregationMemory(context.reserveMemory, context.releaseMemory);
    this.aggregators = createAggregators(specs, { ctx: context, consumer: this.consumer, memory: this.memory });
    for (const aggregator of this.aggregators) aggregator.topLevel = true;
    this.aggregatorCount = countAggregators(this.aggregators);
    this.scoreMode = this.aggregators.some((a) => a.needsScores()) ? 'complete' : 'complete_no_scores';
  }

  getLeafCollector(segment: AggregationSegment): AggregationLeafCollector {
    let scorer: ScoreSource = NO_SCORES;
    const scores: ScoreSource = { score: () => scorer.score() };
    const leaves: LeafCollector[] = this.aggregators.map((a) => a.getLeafCollector(segment, scores));
    return {
      setScorer(next: ScoreSource): void {
        scorer = next;
      },
      collect(doc: number): void {
        for (let i = 0; i < leaves.length; i++) leaves[i]!.collect(doc, 0);
      },
    };
  }

  /** The shard's results, top-level aggregations in request order. */
  buildShardResult(): InternalAggregation[] {
    return this.aggregators.map((a) => a.buildAggregations([0])[0]!);
  }

  /** Gives back what the aggregators reserved on the request breaker (call once the shard is done with them). */
  releaseMemory(): void {
    this.memory.release();
  }
}

function countAggregators(aggregators: readonly Aggregator[]): number {
  let count = 0;
  for (const aggregator of aggregators) count += 1 + countAggregators(aggregator.subAggregators);
  return count;
}
