/**
 * The can-match pre-filter (ES's CanMatchPreFilterSearchPhase with SearchService.canMatch): before the query
 * phase, each shard rewrites the query against its own data, and a shard whose query rewrites to match_none is
 * skipped (counted in `_shards.skipped`, not queried). The rewrite is the one the query builders already do
 * (unmapped fields, `_index`, empty terms: a `rewritten` match_none in the plan) plus the shard-dependent one of
 * a range on a date field (DateFieldType.isFieldWithinQuery: no indexed value in the shard, or every value
 * outside the range, is DISJOINT), collapsed through bool/constant_score/boosting/dis_max as their builders
 * collapse. `shouldPreFilterSearchShards` is TransportSearchAction's decision of when the phase runs at all.
 */
import type { AggregationSpec } from '../aggregations/index.js';
import type { QueryAst } from '../dsl/index.js';
import type { PlanQuery } from '../dsl/index.js';
import { buildTopLevelQuery } from '../dsl/index.js';
import type { ShardSearchTarget } from './shard-target.js';
import { fieldLookupFor, shardBuildContext } from './shard-query.js';

/** SearchRequest.DEFAULT_PRE_FILTER_SHARD_SIZE. */
export const DEFAULT_PRE_FILTER_SHARD_SIZE = 128;

export interface PreFilterDecision {
  readonly dfs: boolean;
  readonly query: QueryAst | undefined;
  readonly aggregations: readonly AggregationSpec[] | undefined;
  /** Whether the first sort is a field sort (FieldSortBuilder.getPrimaryFieldSortOrNull). */
  readonly primaryFieldSort: boolean;
  /** The request's `pre_filter_shard_size`, when given. */
  readonly preFilterShardSize: number | undefined;
  /** Whether a searched index has a write block (ES then pre-filters from one shard on). */
  readonly readOnlyIndices: boolean;
  readonly numShards: number;
}

/** AggregatorFactories.Builder.mustVisitAllDocs: a global aggregation, or terms with min_doc_count 0. */
function mustVisitAllDocs(aggregations: readonly AggregationSpec[] | undefined): boolean {
  return (aggregations ?? []).some((spec) => (spec.type as string) === 'global' || (spec.type === 'terms' && spec.minDocCount === 0));
}

/** SearchService.canRewriteToMatchNone. */
function canRewriteToMatchNone(query: QueryAst | undefined, aggregations: readonly AggregationSpec[] | undefined): boolean {
  if (query === undefined || query.kind === 'match_all') return false;
  return !mustVisitAllDocs(aggregations);
}

/** TransportSearchAction.shouldPreFilterSearchShards. */
export function shouldPreFilterSearchShards(decision: PreFilterDecision): boolean {
  const threshold = decision.preFilterShardSize ?? (decision.readOnlyIndices || decision.primaryFieldSort ? 1 : DEFAULT_PRE_FILTER_SHARD_SIZE);
  // dfs_query_then_fetch needs every shard's statistics, so it always fans out to all of them.
  return !decision.dfs && (canRewriteToMatchNone(decision.query, decision.aggregations) || decision.primaryFieldSort) && threshold < decision.numShards;
}

/** The smallest and largest value of a numeric field over the shard's segments (deleted documents included, as points). */
function valueBounds(target: ShardSearchTarget, field: string): { min: bigint; max: bigint } | undefined {
  let bounds: { min: bigint; max: bigint } | undefined;
  for (const segment of target.searcher.segments) {
    const values = segment.readers.docValues.sortedNumeric(field);
    const range = values?.longBounds();
    if (range === undefined) continue;
    bounds = bounds === undefined ? range : { min: range.min < bounds.min ? range.min : bounds.min, max: range.max > bounds.max ? range.max : bounds.max };
  }
  return bounds;
}

class ShardRewrite {
  private readonly fields;

  constructor(private readonly target: ShardSearchTarget) {
    this.fields = fieldLookupFor(target.mapping, target.mappingSettings);
  }

  /** DateFieldType.isFieldWithinQuery == DISJOINT (RangeQueryBuilder then rewrites to match_none). */
  private disjointDateRange(field: string, lower: bigint, upper: bigint): boolean {
    const mapped = this.fields.get(field);
    if (mapped === undefined || mapped.kind !== 'mapped') return false;
    const type: string = mapped.options.type;
    if (type !== 'date' && type !== 'date_nanos') return false;
    // Not indexed: ES has no points to look at and assumes the range intersects.
    if (!mapped.options.index) return false;
    const bounds = valueBounds(this.target, field);
    if (bounds === undefined) return true;
    return upper < bounds.min || lower > bounds.max;
  }

  /** Whether the query, rewritten on this shard, is match_none. */
  matchesNothing(query: PlanQuery): boolean {
    switch (query.type) {
      case 'match_none':
        return true;
      case 'named':
      case 'boost':
      case 'constant_score':
        return this.matchesNothing(query.query);
      case 'long_range':
        return this.disjointDateRange(query.field, query.lower, query.upper);
      case 'bool': {
        const required = query.clauses.filter((clause) => clause.occur === 'must' || clause.occur === 'filter');
        if (required.some((clause) => this.matchesNothing(clause.query))) return true;
        const should = query.clauses.filter((clause) => clause.occur === 'should');
        const onlyShould = should.length === query.clauses.length && should.length > 0;
        return onlyShould && should.every((clause) => this.matchesNothing(clause.query));
      }
      case 'boosting':
        return this.matchesNothing(query.positive);
      case 'dis_max':
        return query.queries.length > 0 && query.queries.every((inner) => this.matchesNothing(inner));
      default:
        return false;
    }
  }
}

/**
 * SearchService.canMatch for one shard: false when the request's query (alias filter included) rewrites to
 * match_none there. A query that fails to build can match: the query phase reports its failure.
 */
export function canMatchShard(target: ShardSearchTarget, query: QueryAst | undefined, nowMillis: number): boolean {
  if (query === undefined) return true;
  let plan: PlanQuery | null;
  try {
    plan = buildTopLevelQuery(query, shardBuildContext(target, nowMillis));
  } catch {
    return true;
  }
  return plan === null || !new ShardRewrite(target).matchesNothing(plan);
}
