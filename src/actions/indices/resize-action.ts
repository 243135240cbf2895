/**
 * `PUT|POST /{index}/_shrink|_split|_clone/{target}` (RestResizeHandler, TransportResizeAction): a new index with
 * fewer, more or the same number of primary shards, holding the source's documents, mappings and settings (the checks
 * and the settings: cluster/metadata/resize-index.ts). The source must be write-blocked.
 *
 * ES hard-links the source's segment files into the target's shards and recovers them (LOCAL_SHARDS); Gannet copies
 * the documents instead, keeping each one's id, routing and `_version` (external versioning), so every document lands
 * on the target shard ES's resize arithmetic gives it (the target keeps the source's routing shards). The copy is a
 * child task of the request (`indices:admin/resize[copy]`). The write-type blocks the target inherits are set once the
 * copy is done; until then the new index is writable. Answers as create index does: `{acknowledged,
 * shards_acknowledged, index}`.
 */
import { errors } from '../../common/errors.js';
import { planResize, type ResizeType } from '../../cluster/metadata/resize-index.js';
import { BulkByScrollWorker } from '../../reindex/index.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { NodeBulkByScrollClient } from '../reindex/node-client.js';
import { refreshThroughPrimaries } from './replicated-refresh.js';

const COPY_BATCH = 1000;

function resizeHandler(type: ResizeType): Route['handler'] {
  return async (request, context) => {
    const sourceName = request.pathParams['index']!;
    const targetName = request.pathParams['target']!;
    const body = (request.hasBody ? request.json() : {}) as Record<string, unknown>;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.jsonParse('[resize] failed to parse the request body: expected an object');
    for (const key of Object.keys(body)) {
      if (!['settings', 'aliases', 'mappings'].includes(key)) throw errors.jsonParse(`[resize] unknown field [${key}]`);
    }
    const services = context.services;
    const plan = planResize(services.clusterService.state(), type, sourceName, targetName, { settings: body['settings'], mappings: body['mappings'] });
    const { metadata } = indicesOf(services);
    const timeoutMillis = request.paramTimeMillis('timeout', 30_000);
    request.paramTimeMillis('master_timeout', 30_000);
    const created = await metadata.createIndex(
      {
        index: targetName,
        settings: plan.settings,
        mappings: plan.source.mappings,
        aliases: body['aliases'],
        internal: { settings: plan.internalSettings, noTemplates: true },
      },
      {
        cause: `${type}_index`,
        timeoutMillis,
        ...(request.param('wait_for_active_shards') !== undefined && { waitForActiveShards: request.param('wait_for_active_shards')! }),
        signal: context.task.signal,
      },
    );
    // ES's recovery from local shards flushes the source first (acquireLastIndexCommit(true)), so every write
    // acknowledged before the block is in the target; the copy reads through a searcher, so refresh every copy.
    await refreshThroughPrimaries(context, services.clusterService.state(), [sourceName]);
    await copyDocuments(sourceName, targetName, context, timeoutMillis);
    if (Object.keys(plan.deferredBlocks).length > 0) await metadata.updateSettings([targetName], plan.deferredBlocks, false);
    return json({ acknowledged: true, shards_acknowledged: created.shardsAcknowledged, index: targetName });
  };
}

/** Every document of the source into the target, with its id, routing and version, then a refresh. */
async function copyDocuments(source: string, target: string, context: Parameters<Route['handler']>[1], timeoutMillis: number): Promise<void> {
  const { services, task } = context;
  const result = await services.taskManager.run(
    { type: 'transport', action: 'indices:admin/resize[copy]', description: `copy [${source}] to [${target}]`, parentTaskId: task.taskId, cancellable: true, headers: task.headers },
    (child) =>
      new BulkByScrollWorker(
        child,
        {
          source: { indices: [source], body: { sort: ['_doc'] }, params: {} },
          batchSize: COPY_BATCH,
          maxDocs: -1,
          abortOnVersionConflict: true,
          requestsPerSecond: Number.POSITIVE_INFINITY,
          refresh: true,
          timeoutMillis,
          waitForActiveShards: undefined,
          scrollKeepAliveMillis: 5 * 60_000,
          conversion: { kind: 'reindex', destIndex: target, opType: 'index', versionType: 'external', routing: { kind: 'keep' }, requireAlias: false },
          script: undefined,
          slice: undefined,
        },
        new NodeBulkByScrollClient(services),
      ).run(),
  );
  const failure = result.bulkFailures[0]?.cause ?? result.searchFailures[0]?.reason;
  if (failure !== undefined) throw errors.illegalState(`copying the documents of [${source}] into [${target}] failed: ${failure.message}`);
}

const PARAMS = ['wait_for_active_shards', 'timeout', 'master_timeout'];

export const resizeRoutes: Route[] = (['shrink', 'split', 'clone'] as const).map(
  (type): Route => ({
    method: ['PUT', 'POST'],
    path: `/{index}/_${type}/{target}`,
    action: `indices:admin/resize`,
    params: PARAMS,
    body: 'optional',
    handler: resizeHandler(type),
  }),
);
