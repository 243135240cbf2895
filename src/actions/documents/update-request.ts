/**
 * The update API's body (UpdateRequest.fromXContent: doc, upsert, doc_as_upsert, detect_noop, scripted_upsert,
 * script, _source) and the merge ES's UpdateHelper does: the partial `doc` deep-merged into the current source
 * (objects merge, everything else replaces), with "was anything changed" for detect_noop. Trees keep number
 * literals as RawJson so an update rewrites untouched values byte for byte. The `script` is parsed here (ES's
 * Script.parse) and run by update-script.ts.
 */
import { didYouMean } from '../../common/did-you-mean.js';
import { EsError, errors } from '../../common/errors.js';
import { RawJson, expandRawJson, stringifyWithRaw } from '../../common/raw-json.js';
import { lineColumn } from './json-location.js';
import { fetchSourceFromJson, type FetchSource } from './fetch-source.js';
import { parseScript, type Script } from '../../script/index.js';

export type JsonTree = Record<string, unknown>;

/** A script given by `id`: ES only finds out it is missing when the update runs it (a 400 "failed to execute script"). */
export interface StoredScriptReference {
  readonly storedScriptError: EsError;
}

/** The body's `script`: ES's Script.parse errors as UpdateRequest's parser reports them. */
function parseUpdateScript(value: unknown, text: string): Script | StoredScriptReference | undefined {
  if (value === undefined) return undefined;
  try {
    return parseScript(value);
  } catch (err) {
    if (!(err instanceof EsError)) throw err;
    if (err.type === 'resource_not_found_exception') return { storedScriptError: err };
    const wrapped = xContentError(text, 'script', '[UpdateRequest] failed to parse field [script]');
    throw new EsError('x_content_parse_exception', wrapped.message, { causedBy: err });
  }
}

export interface UpdateSpec {
  readonly doc: JsonTree | undefined;
  readonly upsert: JsonTree | undefined;
  readonly docAsUpsert: boolean;
  readonly detectNoop: boolean;
  readonly scriptedUpsert: boolean;
  readonly hasScript: boolean;
  readonly script: Script | StoredScriptReference | undefined;
  readonly fetchSource: FetchSource | undefined;
  readonly retryOnConflict: number;
  /** The body's `if_seq_no`/`if_primary_term`, which win over the URL's (or the bulk action line's), as in ES. */
  readonly ifSeqNo?: number;
  readonly ifPrimaryTerm?: number;
}

/** UpdateRequest.PARSER's fields, in declaration order (the candidates of its "did you mean"). */
const KNOWN_FIELDS = new Set(['script', 'scripted_upsert', 'upsert', 'doc', 'doc_as_upsert', 'detect_noop', '_source', 'if_seq_no', 'if_primary_term']);

function isObject(value: unknown): value is JsonTree {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);
}

function booleanField(body: JsonTree, name: string, fallback: boolean, text: string): boolean {
  const value = body[name];
  if (value === undefined) return fallback;
  if (value === true || value === false) return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw xContentError(text, name, `[UpdateRequest] failed to parse field [${name}]`);
}

/** ObjectParser.declareLong: a number or a numeric string. */
function longField(body: JsonTree, name: string, text: string): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  const raw = value instanceof RawJson ? value.text : typeof value === 'string' ? value.trim() : undefined;
  if (raw === undefined || !/^-?\d+$/.test(raw)) throw xContentError(text, name, `[UpdateRequest] failed to parse field [${name}]`);
  return Number(raw);
}

function xContentError(text: string, field: string, message: string): EsError {
  const at = text.indexOf(`"${field}"`);
  const [line, column] = lineColumn(text, at < 0 ? 0 : at);
  return new EsError('x_content_parse_exception', `[${line}:${column}] ${message}`);
}

/**
 * Parses the body (already known to be valid JSON) into an UpdateSpec. `retryOnConflict` comes from the URL or
 * the bulk action line.
 */
export function parseUpdateBody(text: string, retryOnConflict: number): UpdateSpec {
  const parsed = expandRawJson(new RawJson(text));
  if (!isObject(parsed)) throw errors.jsonParse('[1:1] Unexpected token, expected START_OBJECT');
  for (const key of Object.keys(parsed)) {
    if (!KNOWN_FIELDS.has(key)) throw xContentError(text, key, `[UpdateRequest] unknown field [${key}]${didYouMean(key, KNOWN_FIELDS)}`);
  }
  const docValue = parsed['doc'];
  const upsertValue = parsed['upsert'];
  for (const [name, value] of [['doc', docValue], ['upsert', upsertValue]] as const) {
    if (value !== undefined && !isObject(value)) throw xContentError(text, name, `[UpdateRequest] failed to parse field [${name}]`);
  }
  const source = parsed['_source'];
  return {
    doc: docValue as JsonTree | undefined,
    upsert: upsertValue as JsonTree | undefined,
    docAsUpsert: booleanField(parsed, 'doc_as_upsert', false, text),
    detectNoop: booleanField(parsed, 'detect_noop', true, text),
    scriptedUpsert: booleanField(parsed, 'scripted_upsert', false, text),
    hasScript: parsed['script'] !== undefined,
    script: parseUpdateScript(parsed['script'], text),
    fetchSource: source === undefined ? undefined : fetchSourceFromJson(source instanceof RawJson ? expandRawJson(source) : source),
    retryOnConflict,
    ...optional('ifSeqNo', longField(parsed, 'if_seq_no', text)),
    ...optional('ifPrimaryTerm', longField(parsed, 'if_primary_term', text)),
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

/** UpdateRequest.validate()'s update-specific problems (after the common ones). */
export function updateProblems(spec: UpdateSpec, ifSeqNo: number | undefined): string[] {
  const problems: string[] = [];
  if (ifSeqNo !== undefined) {
    if (spec.retryOnConflict > 0) problems.push('compare and write operations can not be retried');
    if (spec.docAsUpsert) problems.push('compare and write operations can not be used with upsert');
    if (spec.upsert !== undefined) problems.push("upsert requests don't support `if_seq_no` and `if_primary_term`");
  }
  if (!spec.hasScript && spec.doc === undefined) problems.push('script or doc is missing');
  if (spec.hasScript && spec.doc !== undefined) problems.push("can't provide both script and doc");
  if (spec.doc === undefined && spec.docAsUpsert) problems.push('doc must be specified if doc_as_upsert is enabled');
  return problems;
}

/** Java's Objects.equals on the values Jackson would have produced (numbers by type and value). */
function sameValue(left: unknown, right: unknown): boolean {
  if (left instanceof RawJson && right instanceof RawJson) {
    const leftFloat = /[.eE]/.test(left.text);
    const rightFloat = /[.eE]/.test(right.text);
    if (leftFloat !== rightFloat) return false;
    return leftFloat ? Number(left.text) === Number(right.text) : BigInt(left.text) === BigInt(right.text);
  }
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, i) => sameValue(item, right[i]));
  if (isObject(left) && isObject(right)) {
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
  }
  return left === right;
}

/** XContentHelper.update: merges `changes` into `source` in place; returns whether anything changed. */
export function mergeInto(source: JsonTree, changes: JsonTree, checkUpdatesAreUnequal: boolean): boolean {
  let modified = false;
  for (const [key, value] of Object.entries(changes)) {
    if (!Object.hasOwn(source, key)) {
      Object.defineProperty(source, key, { value, enumerable: true, writable: true, configurable: true });
      modified = true;
      continue;
    }
    const old = source[key];
    if (isObject(old) && isObject(value)) {
      modified = mergeInto(old, value, checkUpdatesAreUnequal && !modified) || modified;
      continue;
    }
    source[key] = value;
    if (modified) continue;
    if (!checkUpdatesAreUnequal) {
      modified = true;
      continue;
    }
    modified = !sameValue(old, value);
  }
  return modified;
}

export function treeFromSource(source: Uint8Array): JsonTree {
  const tree = expandRawJson(new RawJson(Buffer.from(source.buffer, source.byteOffset, source.byteLength).toString('utf8')));
  if (!isObject(tree)) throw errors.illegalArgument('the stored document is not a JSON object');
  return tree;
}

export function treeToBytes(tree: JsonTree): Uint8Array {
  return Buffer.from(stringifyWithRaw(tree), 'utf8');
}
