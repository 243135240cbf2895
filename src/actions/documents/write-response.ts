/**
 * Document write responses in ES's shapes: DocWriteResponse.innerToXContent (`_index`, `_id`, `_version`,
 * `result`, `forced_refresh` when set, `_shards`, `_seq_no`/`_primary_term` when assigned, then the update's
 * `get`), and BulkItemResponse (the same under the op name plus `status`, or `_index`, `_id`, `status`, `error`).
 */
import type { EsError } from '../../common/errors.js';
import { successStatus, type DocWriteOutcome, type DocWriteSuccess } from './doc-write.js';

export function docWriteBody(success: DocWriteSuccess): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _index: success.index,
    _id: success.id,
    _version: success.version,
    result: success.result,
  };
  if (success.forcedRefresh) body['forced_refresh'] = true;
  body['_shards'] = { total: success.shards.total, successful: success.shards.successful, failed: success.shards.failed };
  if (success.seqNo >= 0) {
    body['_seq_no'] = success.seqNo;
    body['_primary_term'] = success.primaryTerm;
  }
  if (success.get !== undefined) body['get'] = success.get;
  return body;
}

/** ElasticsearchException.generateThrowableXContent: type, reason, metadata, caused_by (no root_cause). */
export function errorXContent(error: EsError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.type, reason: error.reason, ...error.metadata };
  if (error.causedBy) out['caused_by'] = errorXContent(error.causedBy);
  return out;
}

/** The first Elasticsearch exception down the cause chain, as ES's root_cause guess picks it. */
export function errorWithRootCause(error: EsError): Record<string, unknown> {
  const plain = new Set(['illegal_argument_exception', 'illegal_state_exception', 'unsupported_operation_exception', 'json_parse_exception', 'number_format_exception', 'exception']);
  let root = error;
  if (!plain.has(error.type)) while (root.causedBy && !plain.has(root.causedBy.type)) root = root.causedBy;
  const rootOnly: Record<string, unknown> = { type: root.type, reason: root.reason, ...root.metadata };
  return { root_cause: [rootOnly], ...errorXContent(error) };
}

export function bulkItemBody(outcome: DocWriteOutcome): Record<string, unknown> {
  if (outcome.kind === 'success') return { [outcome.op]: { ...docWriteBody(outcome), status: successStatus(outcome) } };
  return {
    [outcome.op]: {
      _index: outcome.index ?? null,
      _id: outcome.id ?? null,
      status: outcome.error.status,
      error: errorXContent(outcome.error),
    },
  };
}

/** The Location header ES sets on 201: `/{index}/_doc/{id}[?routing=...]`, each part URL-encoded as Java does. */
export function locationOf(success: DocWriteSuccess): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const base = `/${encode(success.index)}/_doc/${encode(success.id)}`;
  return success.routing === undefined ? base : `${base}?routing=${encode(success.routing)}`;
}
