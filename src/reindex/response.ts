/**
 * A finished worker's response body, as ES's BulkByScrollResponse.toXContent: `took`, `timed_out`, the status
 * fields, then `failures` (bulk failures as BulkItemResponse.Failure, then search failures as
 * ScrollableHitSource.SearchFailure). The HTTP status is the worst failure's (408 when timed out), as ES's
 * BulkIndexByScrollResponseContentListener computes it.
 */
import type { EsError } from '../common/errors.js';
import type { SearchFailure } from './client.js';
import { statusFields, type StatusRenderOptions } from './status.js';
import type { BulkByScrollResult, BulkFailure } from './worker.js';

/** ElasticsearchException.generateThrowableXContent for a nested cause. */
export function causeJson(error: EsError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.type, reason: error.reason, ...error.metadata };
  if (error.causedBy !== undefined) out['caused_by'] = causeJson(error.causedBy);
  return out;
}

function bulkFailureJson(failure: BulkFailure): Record<string, unknown> {
  return { index: failure.index, id: failure.id, cause: causeJson(failure.cause), status: failure.cause.status };
}

function searchFailureJson(failure: SearchFailure): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (failure.index !== undefined) out['index'] = failure.index;
  if (failure.shard !== undefined) out['shard'] = failure.shard;
  if (failure.nodeId !== undefined) out['node'] = failure.nodeId;
  out['reason'] = causeJson(failure.reason);
  out['status'] = failure.reason.status;
  return out;
}

export function responseBody(result: BulkByScrollResult, options: StatusRenderOptions): Record<string, unknown> {
  return {
    took: result.tookMillis,
    timed_out: result.timedOut,
    ...statusFields(result.status, options),
    failures: [...result.bulkFailures.map(bulkFailureJson), ...result.searchFailures.map(searchFailureJson)],
  };
}

export function responseStatus(result: BulkByScrollResult): number {
  let status = result.timedOut ? 408 : 200;
  for (const failure of result.bulkFailures) status = Math.max(status, failure.cause.status);
  for (const failure of result.searchFailures) status = Math.max(status, failure.reason.status);
  return status;
}
