/**
 * Document write responses in ES's shapes: DocWriteResponse.innerToXContent (`_index`, `_id`, `_version`,
 * `result`, `forced_refresh` when set, `_shards`, `_seq_no`/`_primary_term` when assigned, then the update's
 * `get`), and BulkItemResponse (the same under the op name plus `status`, or `_index`, `_id`, `status`, `error`).
 */
import type { EsError } from '../../common/errors.js';
import { RawJson } from '../../common/raw-json.js';
import { successStatus, type DocWriteOutcome, type DocWriteSuccess, type ShardInfo } from './doc-write.js';
import { restStatusName } from '../tasks/task-json.js';

export function docWriteBody(success: DocWriteSuccess): Record<string, unknown> {
  const body: Record<string, unknown> = {
    _index: success.index,
    _id: success.id,
    _version: success.version,
    result: success.result,
  };
  if (success.forcedRefresh) body['forced_refresh'] = true;
  body['_shards'] = shardsBody(success.shards);
  if (success.seqNo >= 0) {
    body['_seq_no'] = success.seqNo;
    body['_primary_term'] = success.primaryTerm;
  }
  if (success.get !== undefined) body['get'] = success.get;
  return body;
}

/**
 * ReplicationResponse.ShardInfo: `total`, `successful`, `failed`, and `failures` (each ShardInfo.Failure:
 * `_index`, `_shard`, `_node`, `reason`, `status` as its RestStatus name, `primary`) when a copy failed.
 */
export function shardsBody(shards: ShardInfo): Record<string, unknown> {
  const body: Record<string, unknown> = { total: shards.total, successful: shards.successful, failed: shards.failed };
  if (shards.failures !== undefined && shards.failures.length > 0) {
    body['failures'] = shards.failures.map((failure) => ({
      _index: failure.index,
      _shard: failure.shard,
      _node: failure.nodeId ?? null,
      reason: errorXContent(failure.error),
      status: restStatusName(failure.error.status),
      primary: failure.primary,
    }));
  }
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
  return outcome.kind === 'success' && outcome.get === undefined && (outcome.shards.failures === undefined || outcome.shards.failures.length === 0);
}

/** Characters that never need escaping in a JSON string (auto-generated ids, usual index names). */
const PLAIN_JSON_TEXT = /^[\w.\-]*$/;

function jsonString(text: string): string {
  return PLAIN_JSON_TEXT.test(text) ? `"${text}"` : JSON.stringify(text);
}

/**
 * Success items printed as bytes into one buffer, decoded once at the end: per item only the id and a few
 * integers change, and writing them as bytes costs no string per field (the template strings and the join
 * of ~10 parts per item were most of the allocation of a bulk response). The fixed text between them is
 * prepared as a few byte pieces per run of alike items.
 */
class ItemPrinter {
  private bytes: Buffer;
  private at = 0;
  /** Whether every byte so far is ASCII: the final text is then decoded as Latin-1 (a plain copy). */
  private ascii = true;

  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafeSlow(Math.max(1024, capacity));
  }

  ensure(extra: number): void {
    if (this.at + extra <= this.bytes.length) return;
    let capacity = this.bytes.length * 2;
    while (capacity < this.at + extra) capacity *= 2;
    const grown = Buffer.allocUnsafeSlow(capacity);
    this.bytes.copy(grown, 0, 0, this.at);
    this.bytes = grown;
  }

  /** A piece prepared once: copied, not encoded again. */
  raw(piece: Piece): void {
    const bytes = this.bytes;
    const source = piece.bytes;
    if (!piece.ascii) this.ascii = false;
    if (source.length > 16) {
      bytes.set(source, this.at);
      this.at += source.length;
      return;
    }
    let at = this.at;
    for (let i = 0; i < source.length; i++) bytes[at++] = source[i]!;
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
        this.raw(piece(JSON.stringify(text)));
        return;
      }
    }
    bytes[at++] = 0x22;
    this.at = at;
  }

  /** A number as JSON prints it; non-negative safe integers digit by digit. */
  number(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      this.raw(piece(String(value)));
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
    return this.bytes.toString(this.ascii ? 'latin1' : 'utf8', 0, this.at);
  }
}

interface Piece {
  readonly bytes: Uint8Array;
  readonly ascii: boolean;
}

function piece(text: string): Piece {
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, ascii: bytes.length === text.length };
}

/** The longest a number prints (`-9007199254740991`, `1.7976931348623157e+308`) and a margin for the rest. */
const NUMBER_BYTES = 24;
const MARGIN_BYTES = 64;

const VERSION = piece(',"_version":');
const PRIMARY_TERM = piece(',"_primary_term":');

/** The fixed text of a run of alike items: what precedes the id, what follows the version, the end. */
class ItemPieces {
  readonly first: Piece;
  readonly next: Piece;
  private readonly middles = new Map<string, Piece>();
  private readonly ends = new Map<number, Piece>();

  constructor(
    op: string,
    index: string,
    private readonly shards: string,
  ) {
    const head = `{"${op}":{"_index":${jsonString(index)},"_id":`;
    this.first = piece(head);
    this.next = piece(`,${head}`);
  }

  // The last answers, since alike items follow one another: no key to build per item.
  private lastMiddle: { result: string; forcedRefresh: boolean; hasSeqNo: boolean; piece: Piece } | undefined;
  private lastEnd: { status: number; piece: Piece } | undefined;

  /** From `result` to `_seq_no`'s name (when the item has one), in docWriteBody's order. */
  middle(result: string, forcedRefresh: boolean, hasSeqNo: boolean): Piece {
    const last = this.lastMiddle;
    if (last !== undefined && last.result === result && last.forcedRefresh === forcedRefresh && last.hasSeqNo === hasSeqNo) return last.piece;
    const key = `${result}/${forcedRefresh}/${hasSeqNo}`;
    let found = this.middles.get(key);
    if (found === undefined) {
      found = piece(`,"result":${JSON.stringify(result)}${forcedRefresh ? ',"forced_refresh":true' : ''}${this.shards}${hasSeqNo ? ',"_seq_no":' : ''}`);
      this.middles.set(key, found);
    }
    this.lastMiddle = { result, forcedRefresh, hasSeqNo, piece: found };
    return found;
  }

  end(status: number): Piece {
    const last = this.lastEnd;
    if (last !== undefined && last.status === status) return last.piece;
    let found = this.ends.get(status);
    if (found === undefined) {
      found = piece(`,"status":${status}}}`);
      this.ends.set(status, found);
    }
    this.lastEnd = { status, piece: found };
    return found;
  }
}

function plainSuccessItems(outcomes: readonly DocWriteSuccess[]): RawJson {
  // ~180 bytes an item of the usual kind; the printer grows if ids or names are longer.
  const printer = new ItemPrinter(2 + outcomes.length * 192);
  printer.ensure(1);
  printer.raw(OPEN);
  let lastOp = '';
  let lastIndex: string | undefined;
  let lastShards: DocWriteSuccess['shards'] | undefined;
  let pieces: ItemPieces | undefined;
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    const { shards } = outcome;
    // `_shards` compared by value: each shard group has its own object (and items of the groups alternate in a
    // bulk's order), so comparing identities built the pieces again for nearly every item.
    if (pieces === undefined || outcome.op !== lastOp || outcome.index !== lastIndex || !sameShardCounts(shards, lastShards!)) {
      lastOp = outcome.op;
      lastIndex = outcome.index;
      lastShards = shards;
      pieces = new ItemPieces(outcome.op, outcome.index, `,"_shards":{"total":${shards.total},"successful":${shards.successful},"failed":${shards.failed}}`);
    }
    const head = i > 0 ? pieces.next : pieces.first;
    const hasSeqNo = outcome.seqNo >= 0;
    const middle = pieces.middle(outcome.result, outcome.forcedRefresh, hasSeqNo);
    const end = pieces.end(successStatus(outcome));
    // UTF-8 takes at most 3 bytes per UTF-16 unit, and an escaped unit takes 6 (\uXXXX).
    printer.ensure(head.bytes.length + 6 * outcome.id.length + middle.bytes.length + end.bytes.length + PRIMARY_TERM.bytes.length + 3 * NUMBER_BYTES + MARGIN_BYTES);
    printer.raw(head);
    printer.jsonString(outcome.id);
    printer.raw(VERSION);
    printer.number(outcome.version);
    printer.raw(middle);
    if (hasSeqNo) {
      printer.number(outcome.seqNo);
      printer.raw(PRIMARY_TERM);
      printer.number(outcome.primaryTerm);
    }
    printer.raw(end);
  }
  printer.ensure(1);
  printer.raw(CLOSE);
  return new RawJson(printer.finish());
}

/** Whether two `_shards` blocks print the same (plain successes carry no failures). */
function sameShardCounts(a: DocWriteSuccess['shards'], b: DocWriteSuccess['shards']): boolean {
  return a === b || (a.total === b.total && a.successful === b.successful && a.failed === b.failed);
}

const OPEN = piece('[');
const CLOSE = piece(']');

/** The Location header ES sets on 201: `/{index}/_doc/{id}[?routing=...]`, each part URL-encoded as Java does. */
export function locationOf(success: DocWriteSuccess): string {
  const encode = (part: string): string => encodeURIComponent(part).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const base = `/${encode(success.index)}/_doc/${encode(success.id)}`;
  return success.routing === undefined ? base : `${base}?routing=${encode(success.routing)}`;
}
