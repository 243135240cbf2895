/**
 * Point in time (RestOpenPointInTimeAction, RestClosePointInTimeAction): `POST /{index}/_pit?keep_alive=1m`
 * opens a reader context on every shard of the target indices (keeping each index's alias filter, as ES's PIT
 * id does, so searches on it see what the aliases showed at open) and answers `{id, _shards}`; a search with
 * `pit: {id, keep_alive}` in its body runs on those contexts (search-action.ts). `DELETE /_pit` with
 * `{"id": ...}` frees them: `{succeeded, num_freed}`, 404 when nothing was freed. Each shard's context is opened
 * on the node holding the searched copy (`indices:data/read/open_reader_context`) and the id names that node,
 * so any node can search or close the point in time.
 */
import { resolveSearchTargets } from '../../cluster/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import { errors, toEsError } from '../../common/errors.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { aliasFiltersOf } from './alias-filter.js';
import { decodePitId, encodePitId, type PitShardRef } from './context-ids.js';
import { freeContexts } from './free-contexts.js';
import { OPEN_READER_CONTEXT_ACTION, type OpenContextRequest, type RemoteContextRef } from './remote-contexts.js';
import { sendToNode } from '../remote-node.js';
import { encodeTagged } from './wire-values.js';
import { searchPhaseExecutionError, shardsHeader, type ShardFailure } from './search-errors.js';
import { indexExpressions } from './search-input.js';
import { resolveSearchShards } from './search-shards.js';
import { copyFailure, keptFailure } from './search-executor.js';

export const OPEN_PIT_ACTION = 'indices:data/read/open_point_in_time';
export const CLOSE_PIT_ACTION = 'indices:data/read/close_point_in_time';

async function handleOpen(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const problems: string[] = [];
  const indices = indexExpressions(request.pathParams['index']);
  if (indices.length === 0) problems.push('[index] is not specified');
  const keepAlive = request.param('keep_alive');
  if (keepAlive === undefined) problems.push('[keep_alive] is not specified');
  if (problems.length > 0) throw errors.requestValidation(problems);
  if (request.hasBody && request.body().length > 0) {
    const body = request.json();
    if (body !== null && typeof body === 'object' && Object.keys(body).length > 0) {
      throw errors.illegalArgument('[index_filter] is not supported by this node');
    }
  }
  const keepAliveMillis = parseTimeValueMillis(keepAlive!, 'keep_alive');
  const services = context.services;
  const state = services.clusterService.state();
  const options = indicesOptionsFromParams((name) => request.param(name), STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const targets = resolveSearchTargets(state, options, indices, request.param('routing'));
  const refs = resolveSearchShards(services, state, targets.indices, targets.routingOf, request.param('preference'));
  const filters = aliasFiltersOf(targets);
  const failed: (ShardFailure | undefined)[] = [];
  const opened = await Promise.all(
    refs.map(async (ref, position): Promise<PitShardRef | undefined> => {
      const base = { index: ref.index, indexUuid: ref.indexUuid, shard: ref.shard };
      if (ref.copy === undefined) {
        failed[position] = { index: ref.index, shard: ref.shard, nodeId: null, cause: errors.searchShardNotAvailable(undefined) };
        return undefined;
      }
      // The context lives on the copy's node (this one's through the transport's local shortcut), with the alias
      // filter every search on it applies. A copy that fails is followed by the next one, as ES's open runs as a
      // search phase (SearchShardIterator): the shard fails only when every copy did.
      const args: OpenContextRequest = { ...base, keepAliveMillis, ...(filters.has(ref.index) && { aliasFilter: filters.get(ref.index)! }) };
      let failure: ShardFailure | undefined;
      for (const { node } of [ref.copy, ...(ref.alternatives ?? [])]) {
        try {
          const remote = (await sendToNode(services, node, OPEN_READER_CONTEXT_ACTION, args, context.task, undefined, { encodeRequest: encodeTagged })) as RemoteContextRef;
          return { ...base, nodeId: node.id, sessionId: remote.sessionId, contextId: remote.contextId };
        } catch (err) {
          failure = keptFailure(failure, copyFailure(ref, node, OPEN_READER_CONTEXT_ACTION, err));
          // A cancelled open tries no other copy; what it opened is freed below.
          if (context.task.isCancelled || toEsError(err).type === 'task_cancelled_exception') break;
        }
      }
      failed[position] = failure;
      return undefined;
    }),
  );
  const shards = opened.filter((shard): shard is PitShardRef => shard !== undefined);
  // In shard order, whichever node answered first.
  const failures = failed.filter((failure): failure is ShardFailure => failure !== undefined);
  const allowPartial = request.paramBool('allow_partial_search_results', false);
  if (failures.length > 0 && (shards.length === 0 || !allowPartial)) {
    await freeContexts(services, shards, 'pit', context.task);
    throw searchPhaseExecutionError('query', shards.length === 0 ? 'all shards failed' : 'Partial shards failure', failures);
  }
  return json({ id: encodePitId(shards), _shards: shardsHeader(refs.length, shards.length, 0, failures) });
}

async function handleClose(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const body = request.hasBody && request.body().length > 0 ? request.json() : undefined;
  let id: string | undefined;
  if (body !== undefined) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.illegalArgument('Malformed content, must start with an object');
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (key === 'id' && typeof value === 'string') id = value;
      else throw errors.illegalArgument(`Unknown parameter [${key}] in request body or parameter is of the wrong type[${typeof value === 'string' ? 'VALUE_STRING' : 'START_OBJECT'}] `);
    }
  }
  if (id === undefined || id.length === 0) throw errors.requestValidation(['id is empty']);
  const freed = await freeContexts(context.services, decodePitId(id), 'pit', context.task);
  return json({ succeeded: true, num_freed: freed }, freed === 0 ? 404 : 200);
}

export const pitRoutes: Route[] = [
  {
    method: 'POST',
    path: '/{index}/_pit',
    action: OPEN_PIT_ACTION,
    body: 'optional',
    params: ['keep_alive', 'routing', 'preference', 'allow_partial_search_results', ...INDICES_OPTIONS_PARAMS],
    handler: handleOpen,
  },
  {
    method: 'DELETE',
    path: '/_pit',
    action: CLOSE_PIT_ACTION,
    body: 'optional',
    handler: handleClose,
  },
];
