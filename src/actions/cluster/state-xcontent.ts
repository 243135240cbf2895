/**
 * Parts of `GET _cluster/state` printed as ES 8 prints them (ClusterState.toXContentChunked in the API context):
 * blocks (ClusterBlock), nodes (DiscoveryNode), index metadata (IndexMetadata), the routing table and routing
 * nodes (ShardRouting with its recovery source, allocation id and UnassignedInfo). Only what Gannet really holds is
 * printed: no snapshots customs, no per-node transport versions or features (templates: actions/templates/template-xcontent.ts).
 */
import type { ClusterState, DiscoveryNode, IndexMetadata, ShardRouting } from '../../cluster/index.js';
import { transportAddress } from '../../cluster/index.js';
import { versionCreatedId } from '../../cluster/metadata/create-index.js';
import { defaultRoutingNumShards } from '../../indices/index.js';
import { settingsXContent } from '../indices/settings-xcontent.js';

type Json = Record<string, unknown>;

/** ES's index blocks that Gannet enforces from `index.blocks.*` settings (IndexMetadata's block constants). */
const INDEX_BLOCKS = [
  { setting: 'index.blocks.read_only', id: 5, description: 'index read-only (api)', retryable: false, levels: ['write', 'metadata_write'] },
  { setting: 'index.blocks.read', id: 7, description: 'index read (api)', retryable: false, levels: ['read'] },
  { setting: 'index.blocks.write', id: 8, description: 'index write (api)', retryable: false, levels: ['write'] },
  { setting: 'index.blocks.metadata', id: 9, description: 'index metadata (api)', retryable: false, levels: ['metadata_read', 'metadata_write'] },
  {
    setting: 'index.blocks.read_only_allow_delete',
    id: 12,
    description: 'disk usage exceeded flood-stage watermark, index has read-only-allow-delete block',
    retryable: true,
    levels: ['write', 'metadata_write'],
  },
] as const;

/**
 * How ES prints the global blocks Gannet has, by id: state not recovered (GatewayService: every level, never
 * persisted) and no master (NoMasterBlockService's default NO_MASTER_BLOCK_WRITES: writes only). Both retryable.
 */
const GLOBAL_BLOCK_SHAPES: Readonly<Record<number, Json>> = {
  1: { retryable: true, disable_state_persistence: true, levels: ['read', 'write', 'metadata_read', 'metadata_write'] },
  2: { retryable: true, levels: ['write', 'metadata_write'] },
};

export function blocksXContent(state: ClusterState, indexNames: readonly string[]): Json {
  const out: Json = {};
  if (state.globalBlocks.length > 0) {
    const global: Json = {};
    for (const block of state.globalBlocks) {
      global[String(block.id)] = { description: block.description, ...(GLOBAL_BLOCK_SHAPES[block.id] ?? GLOBAL_BLOCK_SHAPES[1]) };
    }
    out.global = global;
  }
  const indices: Json = {};
  for (const name of indexNames) {
    const metadata = state.indices.get(name);
    if (metadata === undefined) continue;
    const blocks: Json = {};
    for (const block of INDEX_BLOCKS) {
      if (metadata.settings[block.setting] !== 'true') continue;
      blocks[String(block.id)] = { description: block.description, retryable: block.retryable, levels: [...block.levels] };
    }
    if (Object.keys(blocks).length > 0) indices[name] = blocks;
  }
  if (Object.keys(indices).length > 0) out.indices = indices;
  return out;
}

/** The oldest index version an 8.x node reads (7.0.0's id). */
const MIN_INDEX_VERSION = 7_000_099;

export function nodeXContent(node: DiscoveryNode): Json {
  return {
    name: node.name,
    ephemeral_id: node.ephemeralId,
    transport_address: transportAddress(node),
    external_id: node.name,
    attributes: { ...node.attributes },
    roles: [...node.roles].sort(),
    version: node.version,
    min_index_version: MIN_INDEX_VERSION,
    max_index_version: Number(versionCreatedId(node.version)),
  };
}

export function indexMetadataXContent(metadata: IndexMetadata, flatSettings: boolean): Json {
  const routingShards = Number(metadata.settings['index.number_of_routing_shards'] ?? defaultRoutingNumShards(metadata.numberOfShards));
  const primaryTerms: Json = {};
  const inSync: Json = {};
  for (let shard = 0; shard < metadata.numberOfShards; shard++) {
    primaryTerms[String(shard)] = metadata.primaryTerms[shard] ?? 1;
    inSync[String(shard)] = [...(metadata.inSyncAllocationIds[shard] ?? [])];
  }
  return {
    routing_num_shards: routingShards,
    state: metadata.state,
    settings: settingsXContent(metadata.settings, flatSettings),
    // The API context names the mapping by its type, `_doc`, and prints nothing for an index without one.
    mappings: Object.keys(metadata.mappings).length === 0 ? {} : { _doc: metadata.mappings },
    aliases: Object.keys(metadata.aliases).sort(),
    primary_terms: primaryTerms,
    in_sync_allocations: inSync,
    rollover_info: {},
    system: false,
  };
}

const ALLOCATION_STATUS: Record<string, string> = {
  NO_ATTEMPT: 'no_attempt',
  DECIDERS_NO: 'deciders_no',
  NO_VALID_SHARD_COPY: 'no_valid_shard_copy',
  DECIDERS_THROTTLED: 'deciders_throttled',
  DELAYED_ALLOCATION: 'delayed_allocation',
  FETCHING_SHARD_DATA: 'fetching_shard_data',
};

export function shardRoutingXContent(copy: ShardRouting): Json {
  const out: Json = {
    state: copy.state,
    primary: copy.primary,
    node: copy.nodeId ?? null,
    relocating_node: copy.relocatingNodeId ?? null,
    shard: copy.shard,
    index: copy.index,
  };
  // An active copy has no recovery source in ES.
  if (copy.recoverySource !== undefined && (copy.state === 'INITIALIZING' || copy.state === 'UNASSIGNED')) {
    out.recovery_source = copy.recoverySource === 'EXISTING_STORE' ? { type: 'EXISTING_STORE', bootstrap_new_history_uuid: false } : { type: copy.recoverySource };
  }
  if (copy.allocationId !== undefined) out.allocation_id = { id: copy.allocationId };
  const info = copy.unassignedInfo;
  if (info !== undefined) {
    const unassigned: Json = { reason: info.reason, at: new Date(info.atMillis).toISOString() };
    if (info.failedAllocations > 0) unassigned.failed_attempts = info.failedAllocations;
    unassigned.delayed = info.delayed;
    if (info.details !== undefined) unassigned.details = info.details;
    unassigned.allocation_status = ALLOCATION_STATUS[info.lastAllocationStatus] ?? 'no_attempt';
    out.unassigned_info = unassigned;
  }
  return out;
}
