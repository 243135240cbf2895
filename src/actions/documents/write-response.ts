/**
 * Document write responses in ES's shapes: DocWriteResponse.innerToXContent (`_index`, `_id`, `_version`,
 * `result`, `forced_refresh` when set, `_shards`, `_seq_no`/`_primary_term` when assigned, then the update's
 * `get`), and BulkItemResponse (the same under the op name plus `status`, or `_index`, `_id`, `status`, `error`).
 */
import type { EsError } from '../../common/errors.js';
import { RawJson } from '../../common/raw-json.js';
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

/**
 * A bulk response's `items`. A 5,000-item bulk otherwise builds ~10 objects per item for the generic writer to
 * walk (a tenth of the request thread's time in profiles): successes without a `get` block are printed here
 * straight from their fields, in docWriteBody's order; failures and updates with `get` stay objects. When every
 * item is such a success (the usual bulk), the whole array is one RawJson joined from parts, the parts shared
 * by items alike (the `_index` prefix, the `_shards` block) built once. Pretty printing and `filter_path`
 * still see plain values (they expand RawJson).
 */
export function bulkItems(outcomes: readonly DocWriteOutcome[]): RawJson | Array<RawJson | Record<string, unknown>> {
  if (outcomes.every(isPlainSuccess)) return plainSuccessItems(outcomes as readonly DocWriteSuccess[]);
  const items: Array<RawJson | Record<string, unknown>> = new Array(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    items[i] = isPlainSuccess(outcome) ? new RawJson(plainSuccessItems([outcome]).text.slice(1, -1)) : bulkItemBody(outcome);
  }
  return items;
}

function isPlainSuccess(outcome: DocWriteOutcome): outcome is DocWriteSuccess {
  return outcome.kind === 'success' && outcome.get === undefined;
}

/** Characters that never need escaping in a JSON string (auto-generated ids, usual index names). */
const PLAIN_JSON_TEXT = /^[\w.\-]*$/;

function jsonString(text: string): string {
  return PLAIN_JSON_TEXT.test(text) ? `"${text}"` : JSON.stringify(text);
}

function plainSuccessItems(outcomes: readonly DocWriteSuccess[]): RawJson {
  const parts: string[] = ['['];
  let lastPrefixKey = '';
  let prefix = '';
  let lastShards: DocWriteSuccess['shards'] | undefined;
  let shardsText = '';
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    if (outcome.op + outcome.index !== lastPrefixKey) {
      lastPrefixKey = outcome.op + outcome.index;
      prefix = `{"${outcome.op}":{"_index":${jsonString(outcome.index)},"_id":`;
    }
    const { shards } = outcome;
    if (shards !== lastShards) {
      lastShards = shards;
      shardsText = `,"_shards":{"total":${shards.total},"successful":${shards.successful},"failed":${shards.failed}}`;
    }
    if (i > 0) parts.push(',');
    parts.push(prefix, PLAIN_JSON_TEXT.test(outcome.id) ? `"${outcome.id}"` : JSON.stringify(outcome.id));
    parts.push(`,"_version":${outcome.version},"result":"${outcome.result}"`);
    if (outcome.forcedRefresh) parts.push(',"forced_refresh":true');
    parts.push(shardsText);
    if (outcome.seqNo >= 0) parts.push(`,"_seq_no":${outcome.seqNo},"_primary_term":${outcome.primaryTerm}`);
    parts.push(`,"status":${successStatus(outcome)}}}`);
  }
  parts.push(']');
  return new RawJson(parts.join(''));
}

/** The Location header ES sets on 201: `/{index}/_doc/{id}[?routing=...]`, each part URL-encoded as Java does. */
export function locationOf(success: DocWriteSuccess): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const base = `/${encode(success.index)}/_doc/${encode(success.id)}`;
  return success.routing === undefined ? base : `${base}?routing=${encode(success.routing)}`;
}
