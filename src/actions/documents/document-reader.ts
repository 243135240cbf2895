/**
 * Real-time reads by id (ES's TransportGetAction / ShardGetService): the index expression resolves to one
 * concrete index, the id (or routing) picks the shard, and a copy's node answers — refreshed first with
 * `refresh=true`, from the translog-backed live view unless `realtime=false`. A `version` given with the read
 * must match the document's (ES's 409 otherwise).
 */
import { EsError, errors, indexErrors, toEsError } from '../../common/errors.js';
import { resolveConcreteIndexNames, resolveIndexRouting, type ClusterState } from '../../cluster/index.js';
import { checkReadBlocks, storedMapping } from '../../cluster/metadata/index-updates.js';
import type { IndicesOptions } from '../../cluster/indices-options.js';
import type { GetResult, VersionType } from '../../engine/engine.js';
import { displayStoredValue, storedFieldsOfMapping } from '../../search/index.js';
import type { FieldLookup } from '../../search/dsl/index.js';
import type { FieldValue } from '../../search/fetch/index.js';
import { RawJson } from '../../common/raw-json.js';
import { fieldLookupFor } from '../../search/phase/index.js';
import { readIndexSettings, shardIdFor } from '../../indices/index.js';
import type { ActionContext } from '../rest.js';
import type { DiscoveryNode } from '../../cluster/index.js';
import { sendToNode } from '../remote-node.js';
import { isCopyUnavailable } from '../copy-unavailable.js';
import { indicesOf } from '../indices-services.js';
import { orderCopies, parsePreference } from '../copy-preference.js';
import { sourceForResponse, type FetchSource } from './fetch-source.js';

/** Single-document reads resolve like ES's GetRequest: open indices, one index per alias, closed ones forbidden. */
const SINGLE_INDEX_OPTIONS: IndicesOptions = Object.freeze({
  ignoreUnavailable: false,
  allowNoIndices: false,
  expandOpen: true,
  expandClosed: false,
  expandHidden: false,
  allowAliasesToMultipleIndices: false,
  forbidClosedIndices: true,
  ignoreAliases: false,
  ignoreThrottled: false,
});

export interface ReadOptions {
  readonly routing: string | undefined;
  /** `preference`: which copy answers (copy-preference.ts); `_shards:` does not apply to a get. */
  readonly preference?: string;
  readonly realtime: boolean;
  readonly refresh: boolean;
  readonly version: number | undefined;
  readonly versionType: VersionType;
  readonly fetchSource: FetchSource;
  /** `stored_fields` as asked (`_source` among them is the source's business, see storedFieldsFetchSource). */
  readonly storedFields?: readonly string[];
}

export interface DocumentRead {
  readonly index: string;
  readonly id: string;
  readonly result: GetResult;
  readonly routing: string | undefined;
  /** The asked stored fields the document has, as ES prints them under `fields`. */
  readonly fields?: ReadonlyMap<string, readonly FieldValue[]>;
}

export function resolveSingleIndex(state: ClusterState, expression: string): string {
  const names = resolveConcreteIndexNames(state, SINGLE_INDEX_OPTIONS, [expression]);
  if (names.length !== 1) throw errors.indexExpressionNotFound([expression]);
  return names[0]!;
}

function noShardAvailable(state: ClusterState, index: string, shard: number, what: string): EsError {
  return new EsError('no_shard_available_action_exception', `No shard available for [${what}]`, { metadata: { index_uuid: state.indices.get(index)?.uuid ?? '_na_', shard: String(shard), index } });
}

/**
 * The nodes whose copies may serve reads of a shard, in the order they are tried: any started copy (replicas
 * hold every acknowledged write and apply them to their version map, so a realtime get reads the same there),
 * in the order `preference` gives (copy-preference.ts; by default this node's, else the primary's, else a
 * replica's). None active or allowed: ES's NoShardAvailableActionException.
 */
function readableCopies(state: ClusterState, context: ActionContext, index: string, shard: number, what: string, preferenceText: string | undefined): DiscoveryNode[] {
  const started = (state.routing.get(index)?.[shard] ?? []).filter((copy) => copy.nodeId !== undefined && (copy.state === 'STARTED' || copy.state === 'RELOCATING'));
  const preference = parsePreference(preferenceText);
  const ordered = orderCopies(started, { ...preference, shards: undefined }, context.services.localNode.id, { index, indexUuid: state.indices.get(index)?.uuid ?? '', shard });
  const nodes = ordered.flatMap((copy) => {
    const node = state.nodes.get(copy.nodeId!);
    return node === undefined ? [] : [node];
  });
  if (nodes.length === 0) throw noShardAvailable(state, index, shard, what);
  return nodes;
}

export const GET_SHARD_ACTION = 'indices:data/read/get[s]';

interface ShardGetRequest {
  readonly index: string;
  readonly shard: number;
  readonly id: string;
  readonly what: string;
  readonly options: ReadOptions;
}

/** A stored field's value on the wire: a number's literal (RawJson) tagged, strings and booleans as they are. */
type WireFieldValue = string | boolean | { readonly rawJson: string };

/**
 * A read's answer as it crosses a socket: `fields` as entries (a Map would arrive as a plain object), a number
 * literal as `{rawJson}` (sent bare, a RawJson arrives as the object `{text: '7'}`, and a realtime get of a stored
 * number through another node printed that object).
 */
export function documentReadToWire(value: unknown): unknown {
  const read = value as DocumentRead;
  if (read.fields === undefined) return read;
  const fields = [...read.fields].map(([name, values]): [string, WireFieldValue[]] => [name, values.map((one) => (one instanceof RawJson ? { rawJson: one.text } : one))]);
  return { ...read, fields };
}

function documentReadFromWire(wire: unknown): DocumentRead {
  const read = wire as Omit<DocumentRead, 'fields'> & { fields?: Array<[string, WireFieldValue[]]> };
  if (read.fields === undefined) return read as DocumentRead;
  const fields = read.fields.map(([name, values]): [string, FieldValue[]] => [name, values.map((one) => (typeof one === 'object' ? new RawJson(one.rawJson) : one))]);
  return { ...read, fields: new Map(fields) };
}

export async function readDocument(context: ActionContext, expression: string, id: string, options: ReadOptions): Promise<DocumentRead> {
  const state = context.services.clusterService.state();
  const index = resolveSingleIndex(state, expression);
  const metadata = state.indices.get(index)!;
  checkReadBlocks(metadata);
  const local = indicesOf(context.services).service.indexService(index);
  const current = local?.uuid === metadata.uuid ? local : undefined;
  const mapping = current?.mapping ?? storedMapping(metadata);
  // A read through an alias takes the alias's index_routing (Metadata.resolveIndexRouting).
  const routing = resolveIndexRouting(state, options.routing, expression);
  if (routing === undefined && mapping.routingRequired === true) throw indexErrors.routingMissing(index, id);
  const shard = shardIdFor(current?.settings ?? readIndexSettings(metadata.settings), id, routing);
  const what = `get [${index}][${id}]: routing [${routing ?? 'null'}]`;
  // ES's TransportSingleShardAction: the chosen copy's node answers the shard request (this node's own copy through
  // the transport's local shortcut); a copy that is not there (yet) or a node that is gone passes it to the next.
  // The index name (not the expression) goes on: the other node resolves it to the same concrete index.
  const request: ShardGetRequest = { index, shard, id, what, options: { ...options, routing } };
  for (const node of readableCopies(state, context, index, shard, what, options.preference)) {
    try {
      return (await sendToNode(context.services, node, GET_SHARD_ACTION, request, context.task, undefined, { decodeResponse: documentReadFromWire })) as DocumentRead;
    } catch (err) {
      const error = toEsError(err);
      if (!isCopyUnavailable(error)) throw error;
    }
  }
  throw noShardAvailable(state, index, shard, what);
}

/** The shard request on the node holding the chosen copy (ES's TransportGetAction.shardOperation). */
export async function readDocumentOnShardNode(context: ActionContext, request: ShardGetRequest): Promise<DocumentRead> {
  const { index, shard: shardId, id, options } = request;
  const state = context.services.clusterService.state();
  const metadata = state.indices.get(index);
  const current = indicesOf(context.services).service.indexService(index);
  const shard = metadata === undefined || current?.uuid !== metadata.uuid ? undefined : current.shards.get(shardId);
  if (metadata === undefined || current === undefined || shard === undefined || shard.state !== 'started') throw noShardAvailable(state, index, shardId, request.what);
  const routing = options.routing;
  // Only mapped `store: true` fields have stored values (ShardGetService reads no others).
  const lookup = fieldLookupFor(current.mapping, current.settings.mapping);
  const storedNames = options.storedFields === undefined ? undefined : storedFieldsOfMapping(lookup, options.storedFields);
  // The shard-level get runs on ES's `get` pool (bounded queue, 429 beyond it).
  const result = await context.services.threadPools.execute('get', async () => {
    if (options.refresh) await shard.refresh('refresh_flag_get');
    // A non-realtime read is tied to the refresh cycle: on a search-idle copy it waits for the skipped refresh
    // (ES's TransportGetAction and TransportShardMultiGetAction); a realtime one reads unrefreshed writes anyway.
    else if (!options.realtime) await shard.ensureSearchActive();
    return shard.get(id, options.realtime, storedNames);
  });
  // VersionType.isVersionConflictForReads: for every version type a read wants exactly the version it names.
  if (result.found && options.version !== undefined && options.version !== result.version) {
    throw new EsError('version_conflict_engine_exception', `[${id}]: version conflict, current version [${result.version}] is different than the one provided [${options.version}]`, {
      metadata: { index_uuid: metadata.uuid, shard: String(shardId), index },
    });
  }
  const fields = result.storedFields !== undefined ? displayFields(lookup, result.storedFields) : undefined;
  return { index, id, result, routing: result.routing ?? routing, ...(fields !== undefined && { fields }) };
}

function displayFields(lookup: FieldLookup, stored: ReadonlyMap<string, readonly unknown[]>): Map<string, FieldValue[]> | undefined {
  if (stored.size === 0) return undefined;
  const fields = new Map<string, FieldValue[]>();
  for (const [name, values] of stored) fields.set(name, values.map((value) => displayStoredValue(lookup, name, value)));
  return fields;
}

/** GetResult.toXContent: the body of a GET (and of a found or missing mget entry). */
export function getResultBody(read: DocumentRead, fetchSource: FetchSource): Record<string, unknown> {
  const { result } = read;
  const body: Record<string, unknown> = { _index: read.index, _id: read.id };
  if (!result.found) {
    body['found'] = false;
    return body;
  }
  if (result.version !== undefined) body['_version'] = result.version;
  if (result.seqNo !== undefined && result.seqNo >= 0) {
    body['_seq_no'] = result.seqNo;
    body['_primary_term'] = result.primaryTerm;
  }
  if (result.routing !== undefined) body['_routing'] = result.routing;
  if (result.ignored !== undefined && result.ignored.length > 0) body['_ignored'] = [...result.ignored];
  body['found'] = true;
  const source = sourceForResponse(result.source, fetchSource);
  if (source !== undefined) body['_source'] = source;
  if (read.fields !== undefined) body['fields'] = Object.fromEntries(read.fields);
  return body;
}
