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
  const out: Record<string, unknown> = { type: error.type, reason: error.reason, ...error.metadata };
  if (errorTrace && error.stack) out['stack_trace'] = error.stack;
  if (withCause && error.causedBy) out['caused_by'] = innerObject(error.causedBy, true, errorTrace);
  return out;
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
