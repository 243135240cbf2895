/**
 * `_shrink`, `_split` and `_clone` on the master (ES's MetadataCreateIndexService.validateShrinkIndex /
 * validateSplitIndex / validateCloneIndex and prepareResizeIndexSettings): checks the source and the target shard
 * count with ES's messages, and works out the target's settings. The target takes every setting of the source
 * except the private ones, with the requested settings on top (`null` clears one, as ES's docs do for the copied
 * `index.blocks.write` and allocation filters), keeps the source's routing shards so each document's shard follows
 * ES's resize arithmetic, and records its source (`index.resize.source.name/uuid`). Mappings are the source's;
 * templates do not apply.
 *
 * The write-type blocks the target would carry (`index.blocks.write`, `read_only`, `read_only_allow_delete`) are
 * returned apart: the indices layer copies the documents in first, then sets them.
 */
import { errors, indexErrors } from '../../common/errors.js';
import { normalizeSettings, readIndexSettings, PRIVATE_SETTINGS, type FlatSettings } from '../../indices/index.js';
import type { ClusterState, IndexMetadata } from '../cluster-state.js';

export type ResizeType = 'shrink' | 'split' | 'clone';

export interface ResizePlan {
  readonly source: IndexMetadata;
  readonly targetShards: number;
  /** Settings for the create request (validated as a user's). */
  readonly settings: Record<string, string | null>;
  /** Private settings the target carries (`index.resize.source.*`, the routing shards). */
  readonly internalSettings: Readonly<FlatSettings>;
  /** Blocks set once the documents are in. */
  readonly deferredBlocks: Readonly<FlatSettings>;
}

const WRITE_BLOCKS = ['index.blocks.write', 'index.blocks.read_only', 'index.blocks.read_only_allow_delete'];

/** Settings that belong to the source alone (ES marks them private or NotCopyableOnResize). */
const NOT_COPIED = new Set([...PRIVATE_SETTINGS, 'index.number_of_shards', 'index.number_of_routing_shards']);

/** IndexMetadata.getRoutingFactor's checks. */
function routingFactor(sourceShards: number, targetShards: number): number {
  if (sourceShards < targetShards) {
    const factor = Math.trunc(targetShards / sourceShards);
    if (factor * sourceShards !== targetShards || factor <= 1) {
      throw errors.illegalArgument(`the number of source shards [${sourceShards}] must be a factor of [${targetShards}]`);
    }
    return factor;
  }
  if (sourceShards > targetShards) {
    const factor = Math.trunc(sourceShards / targetShards);
    if (factor * targetShards !== sourceShards || factor <= 1) {
      throw errors.illegalArgument(`the number of source shards [${sourceShards}] must be a multiple of [${targetShards}]`);
    }
    return factor;
  }
  return 1;
}

function isWriteBlocked(metadata: IndexMetadata): boolean {
  return WRITE_BLOCKS.some((key) => metadata.settings[key] === 'true');
}

export function planResize(
  state: ClusterState,
  type: ResizeType,
  sourceName: string,
  targetName: string,
  request: { settings?: unknown; mappings?: unknown },
): ResizePlan {
  const existing = state.indices.get(targetName);
  if (existing !== undefined) throw indexErrors.alreadyExists(targetName, existing.uuid);
  const source = state.indices.get(sourceName);
  if (source === undefined) throw errors.indexNotFound(sourceName);
  if (!isWriteBlocked(source)) {
    throw errors.illegalState(`index ${sourceName} must be read-only to resize index. use "index.blocks.write=true"`);
  }
  if (request.mappings !== undefined && request.mappings !== null && Object.keys(request.mappings as object).length > 0) {
    throw errors.illegalArgument('mappings are not allowed when resizing indices, all mappings are copied from the source index');
  }
  const requested = normalizeSettings(request.settings);
  const requestedShards = requested['index.number_of_shards'];
  const sourceShards = source.numberOfShards;
  let targetShards: number;
  if (requestedShards !== undefined && requestedShards !== null) targetShards = Number(requestedShards);
  else if (type === 'shrink') targetShards = 1;
  else if (type === 'clone') targetShards = sourceShards;
  else throw errors.requestValidation(['index.number_of_shards is required for split operations']);
  if (!Number.isInteger(targetShards) || targetShards < 1) readIndexSettings({ 'index.number_of_shards': String(requestedShards) });
  const sourceRoutingShards = readIndexSettings(source.settings).routingNumShards;
  if (type === 'shrink') {
    if (sourceShards === 1) throw errors.illegalArgument("can't shrink an index with only one shard");
    if (targetShards >= sourceShards) {
      throw errors.illegalArgument(`the number of target shards [${targetShards}] must be less that the number of source shards [${sourceShards}]`);
    }
    routingFactor(sourceShards, targetShards);
  } else if (type === 'split') {
    if (targetShards < sourceShards) {
      throw errors.illegalArgument(`the number of target shards [${targetShards}] must be greater than the number of source shards [${sourceShards}]`);
    }
    routingFactor(sourceShards, targetShards);
    if (sourceShards > 1 && sourceRoutingShards % targetShards !== 0) {
      throw errors.illegalState(`the number of routing shards [${sourceRoutingShards}] must be a multiple of the target shards [${targetShards}]`);
    }
  } else if (targetShards !== sourceShards) {
    throw errors.illegalArgument(`the number of target shards (${targetShards}) must be the same as the source shards (${sourceShards})`);
  }

  const settings: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(source.settings)) {
    if (!NOT_COPIED.has(key) && !key.startsWith('index.resize.source.')) settings[key] = value;
  }
  for (const [key, value] of Object.entries(requested)) {
    if (value === null) delete settings[key];
    else settings[key] = value;
  }
  settings['index.number_of_shards'] = String(targetShards);
  const deferredBlocks: FlatSettings = {};
  for (const key of WRITE_BLOCKS) {
    const value = settings[key];
    if (value !== undefined && value !== null) deferredBlocks[key] = value;
    delete settings[key];
  }
  // A one-shard source has no routing arithmetic to keep: the target gets the routing shards of its own size.
  const internalSettings: FlatSettings = {
    'index.resize.source.name': source.name,
    'index.resize.source.uuid': source.uuid,
  };
  if (sourceShards > 1 || source.settings['index.number_of_routing_shards'] !== undefined) internalSettings['index.number_of_routing_shards'] = String(sourceRoutingShards);
  return { source, targetShards, settings, internalSettings, deferredBlocks };
}
