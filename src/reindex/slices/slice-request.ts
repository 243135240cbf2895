/**
 * How a sliced request is cut (ES's BulkByScrollParallelizationHelper and AbstractBulkByScrollRequest.forSlice):
 * `slices: auto` is the fewest shards among the source indices, at most 20; each slice worker gets the same
 * request with `slice: {id, max}` on its source search, `requests_per_second` divided by the slice count and
 * `max_docs` divided too (rounding down, as ES does).
 */
import { MAX_DOCS_ALL_MATCHES, type BulkByScrollRequest } from '../request.js';

/** BulkByScrollParallelizationHelper.AUTO_SLICE_CEILING. */
export const AUTO_SLICE_CEILING = 20;

/** The slice count `auto` resolves to, from the primary shard counts of the concrete source indices. */
export function autoSliceCount(shardCounts: readonly number[]): number {
  if (shardCounts.length === 0) return 1;
  return Math.min(Math.min(...shardCounts), AUTO_SLICE_CEILING);
}

/** AbstractBulkByScrollRequest.doForSlice. */
export function sliceRequest(request: BulkByScrollRequest, sliceId: number, totalSlices: number): BulkByScrollRequest {
  if (totalSlices < 1) throw new RangeError(`Number of total slices must be at least 1 but was [${totalSlices}]`);
  return {
    ...request,
    requestsPerSecond: request.requestsPerSecond / totalSlices,
    maxDocs: request.maxDocs === MAX_DOCS_ALL_MATCHES ? MAX_DOCS_ALL_MATCHES : Math.floor(request.maxDocs / totalSlices),
    slice: { id: sliceId, max: totalSlices },
  };
}
