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

/**
 * Success items printed as bytes into one buffer, decoded once at the end: per item only the id and a few
 * integers change, and writing them as bytes costs no string per field (the template strings and the join
 * of ~10 parts per item were most of the allocation of a bulk response).
 */
class ItemPrinter {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private at = 0;

  ensure(extra: number): void {
    if (this.at + extra <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < this.at + extra) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  /** Text of at most `ensure`d UTF-8 bytes. */
  text(text: string): void {
    this.at += this.bytes.write(text, this.at, 'utf8');
  }

  /** Bytes prepared once (copied here: a native call per short piece would cost more than the copy). */
  raw(piece: Uint8Array): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < piece.length; i++) bytes[at++] = piece[i]!;
    this.at = at;
  }

  /** A JSON string: its characters as bytes when none needs escaping or is beyond ASCII, else JSON.stringify's. */
  jsonString(text: string): void {
    const bytes = this.bytes;
    const start = this.at;
    let at = start;
    bytes[at++] = 0x22;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      // [A-Za-z0-9_.-]: PLAIN_JSON_TEXT's characters.
      if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2d) bytes[at++] = c;
      else {
        this.at = start;
        this.text(JSON.stringify(text));
        return;
      }
    }
    bytes[at++] = 0x22;
    this.at = at;
  }

  /** A number as JSON prints it; non-negative safe integers digit by digit. */
  number(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      this.text(String(value));
      return;
    }
    const bytes = this.bytes;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let at = this.at + digits;
    this.at = at;
    let rest = value;
    do {
      bytes[--at] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  finish(): string {
    return this.bytes.toString('utf8', 0, this.at);
  }
}

/** The longest a number prints (`-9007199254740991`, `1.7976931348623157e+308`) and the fixed text of an item. */
const NUMBER_BYTES = 24;
const FIXED_ITEM_BYTES = 160;

const utf8Bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const COMMA = utf8Bytes(',');
const VERSION = utf8Bytes(',"_version":');
const FORCED_REFRESH = utf8Bytes(',"forced_refresh":true');
const SEQ_NO = utf8Bytes(',"_seq_no":');
const PRIMARY_TERM = utf8Bytes(',"_primary_term":');
const STATUS = utf8Bytes(',"status":');
const ITEM_END = utf8Bytes('}}');
const RESULTS = new Map<string, Uint8Array>();

function resultBytes(result: string): Uint8Array {
  let bytes = RESULTS.get(result);
  if (bytes === undefined) RESULTS.set(result, (bytes = utf8Bytes(`,"result":${JSON.stringify(result)}`)));
  return bytes;
}

function plainSuccessItems(outcomes: readonly DocWriteSuccess[]): RawJson {
  const printer = new ItemPrinter();
  printer.ensure(1);
  printer.text('[');
  let lastOp = '';
  let lastIndex: string | undefined;
  let prefix: Uint8Array = COMMA;
  let lastShards: DocWriteSuccess['shards'] | undefined;
  let shardsText: Uint8Array = COMMA;
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    if (outcome.op !== lastOp || outcome.index !== lastIndex) {
      lastOp = outcome.op;
      lastIndex = outcome.index;
      prefix = utf8Bytes(`{"${outcome.op}":{"_index":${jsonString(outcome.index)},"_id":`);
    }
    const { shards } = outcome;
    if (shards !== lastShards) {
      lastShards = shards;
      shardsText = utf8Bytes(`,"_shards":{"total":${shards.total},"successful":${shards.successful},"failed":${shards.failed}}`);
    }
    // UTF-8 needs at most 3 bytes per UTF-16 unit, and an escaped unit takes 6 (\uXXXX).
    const result = resultBytes(outcome.result);
    printer.ensure(prefix.length + 6 * outcome.id.length + shardsText.length + result.length + 4 * NUMBER_BYTES + FIXED_ITEM_BYTES);
    if (i > 0) printer.raw(COMMA);
    printer.raw(prefix);
    printer.jsonString(outcome.id);
    printer.raw(VERSION);
    printer.number(outcome.version);
    printer.raw(result);
    if (outcome.forcedRefresh) printer.raw(FORCED_REFRESH);
    printer.raw(shardsText);
    if (outcome.seqNo >= 0) {
      printer.raw(SEQ_NO);
      printer.number(outcome.seqNo);
      printer.raw(PRIMARY_TERM);
      printer.number(outcome.primaryTerm);
    }
    printer.raw(STATUS);
    printer.number(successStatus(outcome));
    printer.raw(ITEM_END);
  }
  printer.ensure(1);
  printer.text(']');
  return new RawJson(printer.finish());
}

/** The Location header ES sets on 201: `/{index}/_doc/{id}[?routing=...]`, each part URL-encoded as Java does. */
export function locationOf(success: DocWriteSuccess): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const base = `/${encode(success.index)}/_doc/${encode(success.id)}`;
  return success.routing === undefined ? base : `${base}?routing=${encode(success.routing)}`;
}
