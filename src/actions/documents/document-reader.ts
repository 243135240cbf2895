/**
 * Real-time reads by id (ES's TransportGetAction / ShardGetService): the index expression resolves to one
 * concrete index, the id (or routing) picks the shard, and the local copy answers — refreshed first with
 * `refresh=true`, from the translog-backed live view unless `realtime=false`. A `version` given with the read
 * must match the document's (ES's 409 otherwise).
 */
import { EsError, errors, indexErrors } from '../../common/errors.js';
import { resolveConcreteIndexNames, resolveIndexRouting, type ClusterState } from '../../cluster/index.js';
import { checkReadBlocks, storedMapping } from '../../cluster/metadata/index-updates.js';
import type { IndicesOptions } from '../../cluster/indices-options.js';
import type { GetResult, VersionType } from '../../engine/engine.js';
import { displayStoredValue, storedFieldsOfMapping } from '../../search/index.js';
import type { FieldLookup } from '../../search/dsl/index.js';
import type { FieldValue } from '../../search/fetch/index.js';
import { fieldLookupFor } from '../../search/phase/index.js';
import { readIndexSettings, shardIdFor, type IndexShard } from '../../indices/index.js';
import type { ActionContext } from '../rest.js';
import type { DiscoveryNode } from '../../cluster/index.js';
import { sendToNode } from '../remote-node.js';
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
 * The copy that serves reads of a shard: any started copy (replicas hold every acknowledged write and apply
 * them to their version map, so a realtime get reads the same there), in the order `preference` gives
 * (copy-preference.ts; by default this node's, else the primary's, else a replica's). Local: its IndexShard;
 * on another node: that node; none active or allowed: ES's NoShardAvailableActionException.
 */
function readableShard(state: ClusterState, context: ActionContext, index: string, shard: number, what: string, preferenceText: string | undefined): IndexShard | DiscoveryNode {
  const { service } = indicesOf(context.services);
  const localId = context.services.localNode.id;
  const started = (state.routing.get(index)?.[shard] ?? []).filter(
    (copy) => copy.nodeId !== undefined && (copy.state === 'STARTED' || copy.state === 'RELOCATING') && (copy.nodeId !== localId || service.shard(index, shard)?.state === 'started'),
  );
  const preference = parsePreference(preferenceText);
  const chosen = orderCopies(started, { ...preference, shards: undefined }, localId, { index, indexUuid: state.indices.get(index)?.uuid ?? '', shard })[0];
  if (chosen?.nodeId === undefined) throw noShardAvailable(state, index, shard, what);
  if (chosen.nodeId !== localId) {
    const node = state.nodes.get(chosen.nodeId);
    if (node === undefined || context.services.transport === undefined) throw noShardAvailable(state, index, shard, what);
    return node;
  }
  const local = service.shard(index, shard);
  if (local === undefined) throw noShardAvailable(state, index, shard, what);
  return local;
}

export const GET_SHARD_ACTION = 'indices:data/read/get[s]';

/**
 * A realtime get on the node that holds the shard's copy (ES's TransportGetAction shard request): the sender
 * chose this node's copy, so it answers (`_only_local`) whatever preference the request had.
 */
export async function readDocumentOnShardNode(context: ActionContext, args: { index: string; id: string; options: ReadOptions }): Promise<DocumentRead> {
  return readDocument(context, args.index, args.id, { ...args.options, preference: '_only_local' });
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
  const shardId = shardIdFor(current?.settings ?? readIndexSettings(metadata.settings), id, routing);
  const holder = readableShard(state, context, index, shardId, `get [${index}][${id}]: routing [${routing ?? 'null'}]`, options.preference);
  if (!('acquireSearcher' in holder)) {
    // The index name (not the expression) goes on: the other node resolves it to the same concrete index.
    return (await sendToNode(context.services, holder, GET_SHARD_ACTION, { index, id, options: { ...options, routing } }, context.task)) as DocumentRead;
  }
  const shard = holder;
  // Only mapped `store: true` fields have stored values (ShardGetService reads no others).
  const lookup = current === undefined ? undefined : fieldLookupFor(current.mapping, current.settings.mapping);
  const storedNames = lookup === undefined || options.storedFields === undefined ? undefined : storedFieldsOfMapping(lookup, options.storedFields);
  // The shard-level get runs on ES's `get` pool (bounded queue, 429 beyond it).
  const result = await context.services.threadPools.execute('get', async () => {
    if (options.refresh) await shard.refresh('refresh_flag_get');
    return shard.get(id, options.realtime, storedNames);
  });
  // VersionType.isVersionConflictForReads: for every version type a read wants exactly the version it names.
  if (result.found && options.version !== undefined && options.version !== result.version) {
    throw new EsError('version_conflict_engine_exception', `[${id}]: version conflict, current version [${result.version}] is different than the one provided [${options.version}]`, {
      metadata: { index_uuid: metadata.uuid, shard: String(shardId), index },
    });
  }
  const fields = lookup !== undefined && result.storedFields !== undefined ? displayFields(lookup, result.storedFields) : undefined;
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
