/**
 * `POST /{index}/_close` and `POST /{index}/_open` (RestCloseIndexAction, RestOpenIndexAction). Both refuse
 * wildcards and `_all` while `action.destructive_requires_name` holds (TransportCloseIndexAction and
 * TransportOpenIndexAction both call DestructiveOperations). Close resolves open indices only (CloseIndexRequest's
 * strictExpandOpen) and answers per index; open resolves closed indices only
 * (OpenIndexRequest's fromOptions(false, true, false, true)). Both then wait, as their transport actions do,
 * for `wait_for_active_shards` copies of every shard (default: the index's `index.write.wait_for_active_shards`).
 */
import { errors } from '../../common/errors.js';
import type { ClusterState } from '../../cluster/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN, type IndicesOptions } from '../../cluster/indices-options.js';
import { enoughShardsActive, parseActiveShardCount, type ActiveShardCount } from '../../cluster/metadata/active-shard-count.js';
import { json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { ackOptions } from '../acked-request.js';
import { failDestructive } from './destructive-operations.js';
import { expressionsOf, resolveIndices } from './resolve-indices.js';

/** ES's default ack timeout (`timeout`). */
const DEFAULT_TIMEOUT_MILLIS = 30_000;

/** OpenIndexRequest: IndicesOptions.fromOptions(false, true, false, true): closed indices only, missing names fail. */
const OPEN_DEFAULTS: IndicesOptions = Object.freeze({ ...STRICT_EXPAND_OPEN, expandOpen: false, expandClosed: true });

const PARAMS = ['timeout', 'master_timeout', 'wait_for_active_shards', ...INDICES_OPTIONS_PARAMS];

/** `wait_for_active_shards`: absent or `index-setting` means each index's own setting (ActiveShardCount.DEFAULT). */
function wantedCopies(request: RestRequest): (state: ClusterState, index: string) => ActiveShardCount {
  const value = request.param('wait_for_active_shards');
  if (value !== undefined && value.toLowerCase() !== 'index-setting') {
    const parsed = parseActiveShardCount(value);
    return () => parsed;
  }
  return (state, index) => parseActiveShardCount(state.indices.get(index)?.settings['index.write.wait_for_active_shards'] ?? '1');
}

/** Waits until every shard of `names` has its wanted active copies; false when the timeout passed first. */
async function waitForActiveShards(context: ActionContext, names: readonly string[], target: 'open' | 'close', request: RestRequest): Promise<boolean> {
  const wanted = wantedCopies(request);
  const clusterService = context.services.clusterService;
  const uuids = new Map(names.map((name) => [name, clusterService.state().indices.get(name)?.uuid]));
  const { timedOut } = await clusterService.waitFor(
    (state) =>
      names.every((name) => {
        const metadata = state.indices.get(name);
        // Deleted, replaced or switched back meanwhile: nothing more to wait for.
        if (metadata === undefined || metadata.uuid !== uuids.get(name) || metadata.state !== target) return true;
        return enoughShardsActive(state, name, wanted(state, name));
      }),
    request.paramTimeMillis('timeout', DEFAULT_TIMEOUT_MILLIS),
    context.task.signal,
  );
  return !timedOut;
}

const closeHandler: Route['handler'] = async (request, context) => {
  const settings = context.services.settings;
  failDestructive(settings, expressionsOf(request));
  if (settings.getString('cluster.indices.close.enable', 'true') === 'false') throw errors.closingIndicesDisabled();
  request.paramTimeMillis('master_timeout', DEFAULT_TIMEOUT_MILLIS);
  // A malformed count fails before anything changes.
  wantedCopies(request);
  const names = resolveIndices(request, context.services.clusterService.state(), STRICT_EXPAND_OPEN).sort();
  if (names.length === 0) return json({ acknowledged: true, shards_acknowledged: false, indices: {} });
  const { acknowledged, value: closed } = await indicesOf(context.services).metadata.setIndicesState(names, 'close', ackOptions(request, context));
  if (closed.length === 0) return json({ acknowledged, shards_acknowledged: false, indices: {} });
  // TransportCloseIndexAction waits for the copies only once every node acknowledged.
  const shardsAcknowledged = acknowledged && (await waitForActiveShards(context, closed, 'close', request));
  const indices: Record<string, { closed: boolean }> = {};
  for (const name of closed) indices[name] = { closed: true };
  return json({ acknowledged, shards_acknowledged: shardsAcknowledged, indices });
};

const openHandler: Route['handler'] = async (request, context) => {
  failDestructive(context.services.settings, expressionsOf(request));
  request.paramTimeMillis('master_timeout', DEFAULT_TIMEOUT_MILLIS);
  wantedCopies(request);
  const names = resolveIndices(request, context.services.clusterService.state(), OPEN_DEFAULTS).sort();
  if (names.length === 0) return json({ acknowledged: true, shards_acknowledged: true });
  const { acknowledged } = await indicesOf(context.services).metadata.setIndicesState(names, 'open', ackOptions(request, context));
  const shardsAcknowledged = acknowledged && (await waitForActiveShards(context, names, 'open', request));
  return json({ acknowledged, shards_acknowledged: shardsAcknowledged });
};

export const openCloseRoutes: Route[] = [
  { method: 'POST', path: '/_close', action: 'indices:admin/close', params: PARAMS, handler: closeHandler },
  {
    method: 'POST',
    path: '/{index}/_close',
    action: 'indices:admin/close',
    params: PARAMS,
    describe: (request) => `close-indices [${request.pathParams['index']}]`,
    handler: closeHandler,
  },
  { method: 'POST', path: '/_open', action: 'indices:admin/open', params: PARAMS, handler: openHandler },
  {
    method: 'POST',
    path: '/{index}/_open',
    action: 'indices:admin/open',
    params: PARAMS,
    describe: (request) => `open-indices [${request.pathParams['index']}]`,
    handler: openHandler,
  },
];
