/**
 * A write script applied to each hit of a reindex or update_by_query, as ES's ScriptApplier with its
 * ReindexScriptApplier / UpdateByQueryScriptApplier: the script sees ctx `_index`, `_id`, `_version`,
 * `_routing` of the source hit, the write's `_source`, `op` ("index") and `_now`, under ES 8's metadata rules
 * for its context (reindex may change `_index`, `_id`, `_version`, `_routing`; update_by_query only `op`;
 * `op` is one of index, noop, delete). Afterwards the write takes the changed source; a reindex write takes the
 * metadata the script changed (compared with the hit's, as ReindexMetadata.*Changed); `op` decides: index keeps
 * the write, noop drops it, delete turns it into an unguarded delete of the same index, id and routing.
 *
 * ES reads `_version` only when the source search fetched versions (reindex with an external version type,
 * update_by_query with `version: true`); otherwise ctx._version is -1, kept here.
 */
import { errors, reindexErrors } from '../common/errors.js';
import { RawJson, expandRawJson, stringifyWithRaw } from '../common/raw-json.js';
import { REINDEX_METADATA, UPDATE_BY_QUERY_METADATA, type CompiledScript, type ScriptContext } from '../script/index.js';
import { isMap, javaClassName, javaToString, normalize } from '../script/values.js';
import type { ScrollHit, WriteRequest } from './client.js';
import type { HitScriptStep } from './request.js';

/** ES's ScriptApplier.INDEX: the op a script starts with. */
const INDEX_OP = 'index';
/** The version a hit carries when the search did not fetch versions (SearchHit's default). */
const NO_VERSION = -1;

export interface ScriptApplierOptions {
  readonly kind: 'reindex' | 'update_by_query';
  /** Whether the source search fetches versions; when not, ctx._version is -1 as in ES. */
  readonly versionsFetched: boolean;
  /** ctx._now (ES's threadPool.absoluteTimeInMillis); the wall clock by default. */
  readonly nowMillis?: () => number;
  /** Looked at while the script loops: true stops it (ScriptInterrupted), as a cancelled task asks. */
  readonly interrupted?: () => boolean;
}

/** The metadata a hit offers the script, kept to tell what the script changed. */
interface HitMetadata {
  readonly index: string;
  readonly id: string;
  readonly version: number;
  readonly routing: string | null;
}

function sourceTree(write: WriteRequest, hit: ScrollHit): Record<string, unknown> {
  const text = write.source ?? hit.source;
  if (text === undefined) throw reindexErrors.sourceNotStored(hit.index, hit.id);
  const tree = expandRawJson(new RawJson(text));
  if (!isMap(tree)) throw reindexErrors.scriptSourceNotMap(javaToString(normalize(tree)), javaClassName(normalize(tree)));
  return tree;
}

/** The source the script left, as JSON text (CtxMap refuses anything but a map there). */
function sourceAfter(ctx: ScriptContext): string {
  const source: unknown = ctx['_source'];
  if (source === undefined || source === null) throw reindexErrors.scriptSourceNull();
  if (!isMap(source)) throw reindexErrors.scriptSourceNotMap(javaToString(normalize(source)), javaClassName(normalize(source)));
  return stringifyWithRaw(source);
}

/** Metadata.getString: a metadata value as text (ObjectField keys such as `_index` and `_id` take any value). */
function metadataString(value: unknown): string | null {
  const normalized = normalize(value);
  if (normalized === null) return null;
  return typeof normalized === 'string' ? normalized : javaToString(normalized);
}

/** Metadata.getNumber for `_version` (a whole number after the metadata rules), null meaning internal versioning. */
function metadataVersion(value: unknown): number | null {
  const normalized = normalize(value);
  if (normalized === null) return null;
  return Number(javaToString(normalized));
}

/** ReindexScriptApplier.updateRequest: the write takes each metadata key the script changed. */
function applyReindexMetadata(write: WriteRequest, ctx: ScriptContext, original: HitMetadata): WriteRequest {
  let out = write;
  const index = metadataString(ctx['_index']);
  if (index !== original.index) out = { ...out, index: index ?? '' };
  const id = metadataString(ctx['_id']);
  if (id !== original.id) out = { ...out, id: id ?? undefined };
  const version = metadataVersion(ctx['_version']);
  if (version !== original.version) {
    // null: internal versioning (Versions.MATCH_ANY); a number: that version, with the request's version type.
    out = version === null ? { ...out, version: undefined, versionType: 'internal' } : { ...out, version };
  }
  const routing = metadataString(ctx['_routing']);
  if (routing !== original.routing) out = { ...out, routing: routing ?? undefined };
  return out;
}

/** ScriptApplier.requestFromOp. */
function writeForOp(write: WriteRequest, op: unknown): WriteRequest | undefined {
  switch (op) {
    case 'noop':
      return undefined;
    case 'delete':
      // ES builds a new DeleteRequest: same index, id, version and routing, internal versioning, no seq_no guard.
      return { ...write, op: 'delete', source: undefined, versionType: 'internal', ifSeqNo: undefined, ifPrimaryTerm: undefined };
    case INDEX_OP:
      return write;
    default:
      // The metadata rules refuse any other op inside the script; this guards the contract.
      throw errors.illegalArgument(`Unsupported operation type change from [${INDEX_OP}] to [${String(op)}]`);
  }
}

/** The per-hit script step of a reindex or update_by_query worker. */
export function scriptApplier(script: CompiledScript, options: ScriptApplierOptions): HitScriptStep {
  const metadataRules = options.kind === 'reindex' ? REINDEX_METADATA : UPDATE_BY_QUERY_METADATA;
  const now = options.nowMillis ?? Date.now;
  return (write, hit) => {
    const original: HitMetadata = {
      index: hit.index,
      id: hit.id,
      version: options.versionsFetched ? (hit.version ?? NO_VERSION) : NO_VERSION,
      routing: hit.routing ?? null,
    };
    const ctx: ScriptContext = {
      _index: original.index,
      _id: original.id,
      _version: original.version,
      _routing: original.routing,
      _source: sourceTree(write, hit),
      op: INDEX_OP,
      _now: now(),
    };
    script.execute(ctx, metadataRules, options.interrupted);
    let scripted: WriteRequest = { ...write, source: sourceAfter(ctx) };
    if (options.kind === 'reindex') scripted = applyReindexMetadata(scripted, ctx, original);
    return writeForOp(scripted, ctx['op']);
  };
}
