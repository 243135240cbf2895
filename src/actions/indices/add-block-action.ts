/**
 * `PUT /{index}/_block/{block}` (RestAddIndexBlockAction, `indices:admin/block/add`): sets one of the index blocks
 * (`index.blocks.<block>`) on the resolved indices. As TransportAddIndexBlockAction: wildcards and `_all` are refused
 * while `action.destructive_requires_name` holds; indices resolve as AddIndexBlockRequest's strictExpandOpen (an alias
 * resolves to its indices, wildcards expand to open indices); adding `read` or `write` to an index whose metadata is
 * blocked is that block's cluster_block_exception; indices that already have the block are left alone, and when every
 * index has it the answer is AddIndexBlockResponse.EMPTY (`shards_acknowledged: false`, no indices).
 *
 * Difference kept: ES also waits, through shard operation permits, for writes already past the block check to finish
 * before it answers; here a write checks the blocks when it starts, so one already under way may still land.
 */
import { errors } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN } from '../../cluster/indices-options.js';
import { checkMetadataBlocks } from '../../cluster/metadata/index-updates.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { ackOptions } from '../acked-request.js';
import { failDestructive } from './destructive-operations.js';
import { expressionsOf, resolveIndices } from './resolve-indices.js';

/** IndexMetadata.APIBlock: the block names the API takes, and whether the block itself stops metadata writes. */
const API_BLOCKS: ReadonlyMap<string, { readonly blocksMetadataWrites: boolean }> = new Map([
  ['read_only', { blocksMetadataWrites: true }],
  ['read', { blocksMetadataWrites: false }],
  ['write', { blocksMetadataWrites: false }],
  ['metadata', { blocksMetadataWrites: true }],
  ['read_only_allow_delete', { blocksMetadataWrites: false }],
]);

const addBlockHandler: Route['handler'] = async (request, context) => {
  const name = request.pathParams['block'] ?? '';
  const block = API_BLOCKS.get(name);
  // APIBlock.fromName, while the REST layer builds the request.
  if (block === undefined) throw errors.illegalArgument(`No block found with name ${name}`);
  failDestructive(context.services.settings, expressionsOf(request));
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN).sort();
  // TransportAddIndexBlockAction.checkBlock: a block that is itself a metadata-write block may always be added.
  if (!block.blocksMetadataWrites) for (const index of names) checkMetadataBlocks(state.indices.get(index)!);
  const setting = `index.blocks.${name}`;
  const toBlock = names.filter((index) => state.indices.get(index)?.settings[setting] !== 'true');
  if (toBlock.length === 0) return json({ acknowledged: true, shards_acknowledged: false, indices: [] });
  const { acknowledged } = await indicesOf(context.services).metadata.updateSettings(toBlock, { [setting]: 'true' }, false, ackOptions(request, context));
  return json({
    acknowledged,
    shards_acknowledged: acknowledged,
    indices: toBlock.map((index) => ({ name: index, blocked: true })),
  });
};

export const addBlockRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/{index}/_block/{block}',
    action: 'indices:admin/block/add',
    params: ['timeout', 'master_timeout', ...INDICES_OPTIONS_PARAMS],
    handler: addBlockHandler,
  },
];
