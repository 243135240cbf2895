/**
 * Renders an EsError as Elasticsearch's error body:
 * `{"error":{"root_cause":[...],"type":..,"reason":..,<metadata>,"caused_by":{...}},"status":N}`.
 * root_cause follows ES's guess: the deepest Elasticsearch exception in the cause chain (plain Java
 * exceptions such as illegal_argument_exception end the walk, as they do in ES).
 */
import type { EsError } from '../common/errors.js';

/** Exceptions that are plain Java ones in ES (not ElasticsearchException subclasses). */
const PLAIN_JAVA_TYPES = new Set([
  'illegal_argument_exception',
  'illegal_state_exception',
  'unsupported_operation_exception',
  'json_parse_exception',
  // XContentParseException lives in the x-content library and extends IllegalArgumentException.
  'x_content_parse_exception',
  'number_format_exception',
  'exception',
]);

function isElasticsearchException(error: EsError): boolean {
  return !PLAIN_JAVA_TYPES.has(error.type);
}

function rootCauses(error: EsError): EsError[] {
  if (error.rootCauses !== undefined) return [...error.rootCauses];
  if (!isElasticsearchException(error)) return [error];
  let current = error;
  while (current.causedBy && isElasticsearchException(current.causedBy)) current = current.causedBy;
  return [current];
}

function innerObject(error: EsError, withCause: boolean, errorTrace: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.type, reason: error.printedReason, ...error.metadata };
  if (errorTrace && error.stack) out['stack_trace'] = stackTrace(error);
  if (withCause && error.causedBy) out['caused_by'] = innerObject(error.causedBy, true, errorTrace);
  return out;
}

/**
 * ES's `stack_trace` (only with `error_trace=true`): the error's stack and, as Java prints it, "Caused by:" the
 * stack of what was thrown underneath (an internal error's own message and frames are visible only here and in the log).
 */
function stackTrace(error: EsError): string {
  let trace = error.stack ?? '';
  for (let cause = error.cause, depth = 0; cause instanceof Error && depth < 8; cause = cause.cause, depth++) {
    trace += `\nCaused by: ${cause.stack ?? `${cause.name}: ${cause.message}`}`;
  }
  return trace;
}

export function errorObject(error: EsError, errorTrace = false): Record<string, unknown> {
  return {
    root_cause: rootCauses(error).map((cause) => innerObject(cause, false, errorTrace)),
    ...innerObject(error, true, errorTrace),
  };
}

export function errorBody(error: EsError, errorTrace = false): Record<string, unknown> {
  return { error: errorObject(error, errorTrace), status: error.status };
}
