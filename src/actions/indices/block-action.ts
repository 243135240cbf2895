/**
 * `PUT /{index}/_block/{block}` (RestAddIndexBlockAction, TransportAddIndexBlockAction): sets one of ES's API blocks
 * (`index.blocks.read_only`, `read`, `write`, `metadata`, `read_only_allow_delete`) on the resolved indices through
 * the master, then makes sure no write admitted before the block is still on its way: each local copy of a write-type
 * block's index is flushed, and the engine's admission queue is first-in first-out, so the flush runs after every
 * write that passed the block check earlier. A destructive API: wildcards need `action.destructive_requires_name: false`.
 * Answers `{acknowledged, shards_acknowledged, indices: [{name, blocked}]}`.
 */
import { errors } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN } from '../../cluster/indices-options.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { failDestructive } from './destructive-operations.js';
import { expressionsOf, resolveIndices } from './resolve-indices.js';

/** IndexMetadata.APIBlock's names. */
const API_BLOCKS = ['read_only', 'read', 'write', 'metadata', 'read_only_allow_delete'] as const;
/** The blocks that stop writes, whose in-flight writes must be done before the answer. */
const WRITE_BLOCKS = new Set<string>(['read_only', 'write', 'read_only_allow_delete']);

const addBlockHandler: Route['handler'] = async (request, context) => {
  const block = request.pathParams['block'] ?? '';
  if (!(API_BLOCKS as readonly string[]).includes(block)) throw errors.illegalArgument(`No block found with name ${block}`);
  failDestructive(context.services.settings, expressionsOf(request));
  request.paramTimeMillis('timeout', 30_000);
  request.paramTimeMillis('master_timeout', 30_000);
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN).sort();
  const { service, metadata } = indicesOf(context.services);
  if (names.length > 0) await metadata.updateSettings(names, { [`index.blocks.${block}`]: 'true' }, false);
  if (WRITE_BLOCKS.has(block)) {
    const flushes: Promise<void>[] = [];
    for (const name of names) for (const shard of service.indexService(name)?.shards.values() ?? []) flushes.push(shard.flush(false));
    await Promise.all(flushes);
  }
  return json({ acknowledged: true, shards_acknowledged: true, indices: names.map((name) => ({ name, blocked: true })) });
};

export const blockRoutes: Route[] = [
  { method: 'PUT', path: '/{index}/_block/{block}', action: 'indices:admin/block/add', params: ['timeout', 'master_timeout', ...INDICES_OPTIONS_PARAMS], handler: addBlockHandler },
];
