/**
 * search/aggregations: the `aggs` of a search request, from JSON to JSON.
 *
 *   const specs = parseAggregations(body.aggs, { parseQuery })            // request -> typed specs (ES errors)
 *   per shard:  const collector = new AggregationsCollector(specs, context)
 *               feed it like a Collector: getLeafCollector(segment), setScorer(scorer), collect(doc)
 *               const shardResult = collector.buildShardResult()          // plain data, transport-safe
 *   coordinating node:
 *               const reduced = reduceAggregations(shardResults, finalReduceContext(maxBuckets))
 *               response.aggregations = renderAggregations(reduced, { typedKeys })
 */
export { parseAggregations, type ParseAggregationsOptions } from './parse/parse-aggregations.js';
export type { QueryParser } from './parse/parse-bucket-aggs.js';
export type * from './spec.js';
export { AggregationsCollector, type AggregationLeafCollector } from './aggregations-collector.js';
export {
  BucketConsumer,
  DEFAULT_MAX_BUCKETS,
  DEFAULT_MAX_INNER_RESULT_WINDOW,
  type AggregationContext,
  type CompiledFilter,
  type ScoreSource,
  type SegmentDocFilter,
  type TopHitRef,
} from './context.js';
export type { AggregationSegment } from './support/values.js';
export { aggFieldType, fieldTypesFromMapping, type AggFieldType, type FieldTypeLookup } from './support/field-types.js';
export type * from './internal.js';
export { reduceAggregations } from './reduce/reduce.js';
export { finalReduceContext, partialReduceContext, PARTIAL_REDUCE, type ReduceContext } from './reduce/reduce-context.js';
export { renderAggregations, type RenderOptions } from './render.js';
