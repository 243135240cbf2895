/**
 * `indices.query.bool.max_clause_count`, counted as Lucene 9 counts it, but while a query is being built rather
 * than after (a 50,000-term query string is refused after the terms that pass the limit, not after all of them):
 *
 * - one boolean level with more than the limit: BooleanQuery.Builder.add's TooManyClauses, which ES reports as
 *   query_shard_exception "failed to create query: maxClauseCount is set to N" (caused by too_many_clauses);
 * - more leaf queries in the whole tree than the limit allows: IndexSearcher's TooManyNestedClauses at rewrite,
 *   which ES 8 (since 8.16) reports as illegal_argument_exception "Query rewrite failed: too many clauses".
 *
 * ES itself computes the limit from the heap and the search pool: max(1024, heap MB * 64 / search threads).
 */
import { EsError } from '../../../common/errors.js';
import { childPlans, type PlanQuery } from './query-plan.js';

/** SearchUtils.calculateMaxClauseValue. */
export function calculateMaxClauseCount(searchThreadPoolSize: number, heapBytes: number): number {
  const heapMb = Math.floor(heapBytes / (1024 * 1024));
  if (searchThreadPoolSize <= 0 || heapMb <= 0) return 1024;
  return Math.max(1024, Math.floor((heapMb * 64) / searchThreadPoolSize));
}

/** Lucene's IndexSearcher.TooManyClauses (a cause; the builder wraps it as query_shard_exception). */
export function tooManyClauses(maxClauseCount: number): EsError {
  return new EsError('too_many_clauses', `maxClauseCount is set to ${maxClauseCount}`);
}

/** A failure ES raises while rewriting on the shard, reported as it is rather than as "failed to create query". */
export class QueryRewriteFailure extends EsError {}

/** TooManyNestedClauses at rewrite, as ES 8.16+ reports it. */
export function tooManyNestedClauses(maxClauseCount: number): QueryRewriteFailure {
  return new QueryRewriteFailure('illegal_argument_exception', 'Query rewrite failed: too many clauses', {
    causedBy: new EsError('too_many_nested_clauses', `Query contains too many nested clauses; maxClauseCount is set to ${maxClauseCount}`),
  });
}

/**
 * The leaf queries of a plan as Lucene's clause-counting visitor sees them (every non-compound query counts
 * once, a phrase or a term set included); counting stops once it passes `stopAbove`.
 */
export function countLeafClauses(query: PlanQuery, stopAbove = Infinity): number {
  let count = 0;
  const stack: PlanQuery[] = [query];
  while (stack.length > 0 && count <= stopAbove) {
    const children = childPlans(stack.pop()!);
    if (children === undefined) count++;
    else stack.push(...children);
  }
  return count;
}

/** Lucene's visitor throws on the first leaf seen once more than the limit have been counted. */
export function exceedsNestedLimit(leaves: number, maxClauseCount: number): boolean {
  return leaves > maxClauseCount + 1;
}

/** A running count of leaf clauses while a query grows, refusing it as soon as the whole could not pass. */
export class ClauseBudget {
  private leaves = 0;

  constructor(private readonly maxClauseCount: number) {}

  add(query: PlanQuery): void {
    this.leaves += countLeafClauses(query, this.maxClauseCount + 1);
    if (exceedsNestedLimit(this.leaves, this.maxClauseCount)) throw tooManyNestedClauses(this.maxClauseCount);
  }
}
