/**
 * The `_bulk` body, as ES's BulkRequestParser reads it: newline-delimited pairs of an action line
 * (`{"index"|"create"|"update"|"delete": {metadata}}`) and, except for delete, a source line. A `\r` before the
 * newline is dropped; blank action lines are skipped; the body must end with a newline; an action line whose
 * source line is missing at the very end is dropped, as ES does. Errors are ES's, naming the line.
 * Index/create sources stay raw bytes (the document parser reports their errors per item).
 */
import { isUtf8 } from 'node:buffer';
import { EsError, errors } from '../../common/errors.js';
import type { VersionType } from '../../engine/engine.js';
import type { DocWriteItem, OpType } from './doc-write.js';
import { fetchSourceFromJson, type FetchSource } from './fetch-source.js';
import { readPlainActionLine, type PlainActionLine } from './plain-action-line.js';
import { parseUpdateBody } from './update-request.js';
import { parseVersionType } from './write-params.js';

export interface BulkDefaults {
  readonly index: string | undefined;
  readonly routing: string | undefined;
  readonly fetchSource: FetchSource | undefined;
  readonly requireAlias: boolean;
}

const ACTIONS = new Set<OpType>(['index', 'create', 'update', 'delete']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

function tokenName(value: unknown): string {
  if (value === null) return 'VALUE_NULL';
  if (Array.isArray(value)) return 'START_ARRAY';
  switch (typeof value) {
    case 'object':
      return 'START_OBJECT';
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
    default:
      return 'VALUE_STRING';
  }
}

function parseLine(bytes: Uint8Array, line: number): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new EsError('x_content_parse_exception', `[${line}:1] Invalid UTF-8 in bulk line [${line}]`);
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new EsError('x_content_parse_exception', `[1:1] Malformed content on bulk line [${line}]: ${(err as Error).message}`);
  }
}

function longValue(value: unknown, field: string, line: number): number {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  if (!/^-?\d+(\.0+)?$/.test(text)) {
    throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected a simple value for field [${field}] but found [${tokenName(value)}]`);
  }
  return Number.parseInt(text, 10);
}

interface ActionMetadata {
  index: string | undefined;
  id: string | undefined;
  routing: string | undefined;
  opType: string | undefined;
  version: number | undefined;
  versionType: VersionType;
  ifSeqNo: number | undefined;
  ifPrimaryTerm: number | undefined;
  retryOnConflict: number;
  pipeline: string | undefined;
  fetchSource: FetchSource | undefined;
  requireAlias: boolean;
}

function readActionLine(parsed: unknown, line: number, defaults: BulkDefaults): { action: OpType; meta: ActionMetadata } {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected START_OBJECT but found [${tokenName(parsed)}]`);
  }
  const keys = Object.keys(parsed);
  if (keys.length === 0) throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected FIELD_NAME but found [END_OBJECT]`);
  const action = keys[0]!;
  if (!ACTIONS.has(action as OpType)) {
    throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected field [create], [delete], [index] or [update] but found [${action}]`);
  }
  if (keys.length > 1) throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected END_OBJECT but found [FIELD_NAME]`);
  const body = (parsed as Record<string, unknown>)[action];
  const meta = defaultMeta(defaults);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected START_OBJECT or END_OBJECT but found [${tokenName(body)}]`);
  }
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    if (field === '_source') {
      meta.fetchSource = fetchSourceFromJson(value);
      continue;
    }
    if (value !== null && typeof value === 'object') {
      throw errors.illegalArgument(`Malformed action/metadata line [${line}], expected a simple value for field [${field}] but found [${tokenName(value)}]`);
    }
    if (value === null) continue;
    const text = String(value);
    switch (field) {
      case '_index':
        meta.index = text;
        break;
      case '_id':
        meta.id = text;
        break;
      case 'routing':
        meta.routing = text;
        break;
      case 'op_type':
        meta.opType = text;
        break;
      case 'version':
        meta.version = longValue(value, field, line);
        break;
      case 'version_type':
        meta.versionType = parseVersionType(text);
        break;
      case 'if_seq_no':
        meta.ifSeqNo = longValue(value, field, line);
        break;
      case 'if_primary_term':
        meta.ifPrimaryTerm = longValue(value, field, line);
        break;
      case 'retry_on_conflict':
        meta.retryOnConflict = longValue(value, field, line);
        break;
      case 'pipeline':
        meta.pipeline = text;
        break;
      case 'require_alias':
        meta.requireAlias = text === 'true';
        break;
      case 'dynamic_templates':
      case 'list_executed_pipelines':
      case 'require_data_stream':
        break;
      default:
        throw errors.illegalArgument(`Action/metadata line [${line}] contains an unknown parameter [${field}]`);
    }
  }
  return { action: action as OpType, meta };
}

/** The metadata of a plain action line (plain-action-line.ts): what readActionLine makes of the same line. */
function plainActionMeta(plain: PlainActionLine, defaults: BulkDefaults): ActionMetadata {
  return defaultMeta(defaults, plain.index ?? defaults.index, plain.id, plain.routing ?? defaults.routing);
}

/** An action's metadata before its line names more than these: the request's defaults, ES's defaults for the rest. */
function defaultMeta(defaults: BulkDefaults, index = defaults.index, id?: string, routing = defaults.routing): ActionMetadata {
  return {
    index,
    id,
    routing,
    opType: undefined,
    version: undefined,
    versionType: 'internal',
    ifSeqNo: undefined,
    ifPrimaryTerm: undefined,
    retryOnConflict: 0,
    pipeline: undefined,
    fetchSource: defaults.fetchSource,
    requireAlias: defaults.requireAlias,
  };
}

/** Ingest pipelines do not exist yet: naming one (other than `_none`) is refused rather than ignored. */
export function rejectPipeline(pipeline: string | undefined): void {
  if (pipeline === undefined || pipeline === '_none') return;
  throw errors.illegalArgument(`pipeline with id [${pipeline}] does not exist: ingest pipelines are not supported yet`);
}

function itemOf(meta: ActionMetadata, op: OpType, source: Uint8Array | undefined, update: DocWriteItem['update'], sourceIsUtf8 = false): DocWriteItem {
  return {
    op,
    index: meta.index,
    id: meta.id,
    routing: meta.routing,
    version: meta.version,
    versionType: meta.versionType,
    ifSeqNo: meta.ifSeqNo,
    ifPrimaryTerm: meta.ifPrimaryTerm,
    source,
    update,
    requireAlias: meta.requireAlias,
    sourceIsUtf8,
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function parseBulkBody(body: Uint8Array, defaults: BulkDefaults): DocWriteItem[] {
  const items: DocWriteItem[] = [];
  // A newline is never part of a multi-byte sequence, so every line of a valid body is valid: one check of the
  // whole body spares each document its own (an invalid body leaves the check to each document, for its error).
  const bodyIsUtf8 = isUtf8(body);
  let previousAction: { readonly bytes: Uint8Array; readonly action: OpType; readonly meta: ActionMetadata } | undefined;
  let from = 0;
  let line = 0;
  const nextNewline = (start: number): number => {
    const found = body.indexOf(0x0a, start);
    if (found >= 0) return found;
    if (start !== body.length) throw errors.illegalArgument('The bulk request must be terminated by a newline [\\n]');
    return -1;
  };
  const slice = (start: number, end: number): Uint8Array => (end > start && body[end - 1] === 0x0d ? body.subarray(start, end - 1) : body.subarray(start, end));
  for (;;) {
    const end = nextNewline(from);
    if (end < 0) break;
    line++;
    const actionBytes = slice(from, end);
    from = end + 1;
    // Clients repeat the same action line (`{"index":{"_index":"x"}}`) for every document: the same bytes
    // read the same way, so they are decoded once (the metadata is only read from, never changed).
    let action: OpType;
    let meta: ActionMetadata;
    let plain: PlainActionLine | undefined;
    if (previousAction !== undefined && sameBytes(previousAction.bytes, actionBytes)) {
      ({ action, meta } = previousAction);
    } else if ((plain = readPlainActionLine(actionBytes)) !== undefined) {
      // The usual line, an id of its own on each: read from its bytes (no JSON.parse, no object to walk).
      action = plain.action;
      meta = plainActionMeta(plain, defaults);
      // A line naming an id is rarely repeated: comparing the next line with it would be wasted.
      previousAction = plain.id === undefined ? { bytes: actionBytes, action, meta } : undefined;
    } else {
      const parsed = parseLine(actionBytes, line);
      if (parsed === undefined) continue;
      ({ action, meta } = readActionLine(parsed, line, defaults));
      previousAction = { bytes: actionBytes, action, meta };
    }
    rejectPipeline(meta.pipeline);
    if (action === 'delete') {
      items.push(itemOf(meta, 'delete', undefined, undefined));
      continue;
    }
    const sourceEnd = nextNewline(from);
    if (sourceEnd < 0) break;
    line++;
    const source = slice(from, sourceEnd);
    from = sourceEnd + 1;
    if (action === 'update') {
      if (meta.version !== undefined || meta.versionType !== 'internal') {
        throw errors.illegalArgument('Update requests do not support versioning. Please use `if_seq_no` and `if_primary_term` instead');
      }
      const parsedSource = parseLine(source, line);
      if (parsedSource === undefined) throw new EsError('x_content_parse_exception', `[${line}:1] Unexpected end-of-input: expected an update body on line [${line}]`);
      const update = parseUpdateBody(Buffer.from(source).toString('utf8'), meta.retryOnConflict);
      // The action line's (or the request's) `_source` wins over the body's, as in ES.
      // The body's if_seq_no/if_primary_term win over the action line's (UpdateRequest.fromXContent runs last).
      const concurrency = { ifSeqNo: update.ifSeqNo ?? meta.ifSeqNo, ifPrimaryTerm: update.ifPrimaryTerm ?? meta.ifPrimaryTerm };
      items.push(itemOf({ ...meta, ...concurrency }, 'update', undefined, meta.fetchSource === undefined ? update : { ...update, fetchSource: meta.fetchSource }));
      continue;
    }
    let op: OpType = action;
    if (action === 'index' && meta.opType !== undefined) {
      if (meta.opType !== 'create' && meta.opType !== 'index') throw errors.illegalArgument(`opType must be 'create' or 'index', found: [${meta.opType}]`);
      op = meta.opType;
    }
    // A view into the request body, not a copy: a copy is an ArrayBuffer per document for the garbage collector
    // to track. The price is that a body stays in memory while any of its sources is referenced (until refresh).
    items.push(itemOf(meta, op, source.length === 0 ? undefined : source, undefined, bodyIsUtf8));
  }
  return items;
}
