/**
 * Shard failures of a search and how ES reports them: ShardSearchFailure objects (`shard`, `index`, `node`,
 * `reason`) grouped by index, exception type and message (ExceptionsHelper.groupBy), in a response's
 * `_shards.failures`, and SearchPhaseExecutionException when a phase cannot go on ("all shards failed",
 * "Partial shards failure"): its root causes are its shards' causes, its status the first 5xx among them
 * (502-504 first) or else the first failure's, and "all shards failed" carries the first shard's guessed
 * root cause as `caused_by` unless that is already one of the shard failures' own causes.
 */
import { EsError, type EsErrorType } from '../../common/errors.js';

export interface ShardFailure {
  readonly index: string | undefined;
  /** -1 when the failure is not tied to a shard. */
  readonly shard: number;
  /** The copy's node; null for a shard with no copy to send to (ES prints `"node": null`), undefined for no shard. */
  readonly nodeId: string | null | undefined;
  readonly cause: EsError;
}

/** Plain Java exceptions in ES (not ElasticsearchException): they end root-cause walks (as http/error-response.ts). */
const PLAIN_JAVA_TYPES = new Set([
  'illegal_argument_exception',
  'illegal_state_exception',
  'unsupported_operation_exception',
  'json_parse_exception',
  'x_content_parse_exception',
  'number_format_exception',
  'exception',
]);

function isElasticsearchException(error: EsError): boolean {
  return !PLAIN_JAVA_TYPES.has(error.type);
}

/** ElasticsearchException.guessRootCauses(Throwable). */
export function guessRootCauses(error: EsError): EsError[] {
  if (error.rootCauses !== undefined) return [...error.rootCauses];
  if (!isElasticsearchException(error)) return [error];
  let current = error;
  while (current.causedBy !== undefined && isElasticsearchException(current.causedBy)) current = current.causedBy;
  return [current];
}

/** generateThrowableXContent: type, reason, metadata, then the cause chain. */
export function errorXContent(error: EsError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.type, reason: error.printedReason, ...error.metadata };
  if (error.causedBy !== undefined) out['caused_by'] = errorXContent(error.causedBy);
  return out;
}

/** generateFailureXContent: what goes under `error` (root causes first), e.g. for an msearch item. */
export function errorObjectXContent(error: EsError): Record<string, unknown> {
  const rootCauses = guessRootCauses(error).map((cause) => {
    const { caused_by: _ignored, ...rest } = errorXContent(cause);
    return rest;
  });
  return { root_cause: rootCauses, ...errorXContent(error) };
}

export function shardFailureXContent(failure: ShardFailure): Record<string, unknown> {
  return {
    shard: failure.shard,
    index: failure.index ?? null,
    ...(failure.nodeId !== undefined && { node: failure.nodeId }),
    reason: errorXContent(failure.cause),
  };
}

/** ExceptionsHelper.groupBy: one failure per (index, exception type, message). */
export function groupFailures(failures: readonly ShardFailure[]): ShardFailure[] {
  const seen = new Set<string>();
  const unique: ShardFailure[] = [];
  for (const failure of failures) {
    const key = JSON.stringify([failure.index ?? null, failure.cause.type, failure.cause.reason]);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(failure);
  }
  return unique;
}

/** SearchPhaseExecutionException.status(). */
function phaseFailureStatus(failures: readonly ShardFailure[]): number {
  let status: number | undefined;
  for (const failure of failures) {
    const shardStatus = failure.cause.status;
    if (shardStatus >= 502 && shardStatus <= 504) return shardStatus;
    if (shardStatus >= 500) status = shardStatus;
  }
  return status ?? failures[0]?.cause.status ?? 503;
}

/** The `caused_by` ES derives for "all shards failed" (guessed root cause of the first grouped failure). */
function allShardsFailedCause(grouped: readonly ShardFailure[]): EsError | undefined {
  const first = grouped[0]?.cause;
  if (first === undefined) return undefined;
  if (!isElasticsearchException(first)) {
    // ES wraps a plain exception in an ElasticsearchException named after it, with it as the cause.
    return new EsError(first.type as EsErrorType, first.reason, { causedBy: first });
  }
  const root = guessRootCauses(first)[0]!;
  // The cause is dropped when it is a shard failure's own cause (deduplicateCause).
  return grouped.some((failure) => failure.cause === root) ? undefined : root;
}

export function searchPhaseExecutionError(phase: string, reason: 'all shards failed' | 'Partial shards failure', failures: readonly ShardFailure[]): EsError {
  const grouped = groupFailures(failures);
  const causedBy = reason === 'all shards failed' ? allShardsFailedCause(grouped) : undefined;
  return new EsError('search_phase_execution_exception', reason, {
    status: phaseFailureStatus(failures),
    metadata: { phase, grouped: true, failed_shards: grouped.map(shardFailureXContent) },
    rootCauses: grouped.flatMap((failure) => guessRootCauses(failure.cause)),
    ...(causedBy !== undefined && { causedBy }),
  });
}

/**
 * AbstractSearchAsyncAction.onPhaseFailure(phase, "", cause): the search could not move on to `phase` (it was
 * cancelled, say). Its status and root causes are the shard failures' when there are any, else the cause's.
 */
export function searchPhaseFailure(phase: string, cause: EsError, failures: readonly ShardFailure[]): EsError {
  const grouped = groupFailures(failures);
  // SearchPhaseExecutionException.deduplicateCause: no cause when it is one of the shard failures' own.
  const causedBy = failures.some((failure) => failure.cause === cause) ? undefined : cause;
  return new EsError('search_phase_execution_exception', '', {
    status: failures.length === 0 ? cause.status : phaseFailureStatus(failures),
    metadata: { phase, grouped: true, failed_shards: grouped.map(shardFailureXContent) },
    rootCauses: failures.length === 0 ? guessRootCauses(cause) : grouped.flatMap((failure) => guessRootCauses(failure.cause)),
    ...(causedBy !== undefined && { causedBy }),
  });
}

/** RestActions.buildBroadcastShardsHeader's `_shards`. */
export function shardsHeader(total: number, successful: number, skipped: number, failures: readonly ShardFailure[]): Record<string, unknown> {
  return {
    total,
    successful,
    skipped,
    failed: failures.length,
    ...(failures.length > 0 && { failures: groupFailures(failures).map(shardFailureXContent) }),
  };
}

/** SearchContextMissingException. */
export function searchContextMissing(contextId: number): EsError {
  return new EsError('search_context_missing_exception', `No search context found for id [${contextId}]`);
}
