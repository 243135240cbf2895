/**
 * Which node's store suits a replica best (ES's ReplicaShardAllocator.findMatchingNodes), from what every data node
 * listed for the shard (indices/shard-store-listing.ts, fetched by shard-store-fetch.ts) and what the primary's
 * node said about the primary:
 *
 * - a node whose store belongs to the primary's history and for which the primary keeps a peer-recovery retention
 *   lease can recover by operations, from the lease's seqNo; when that lease already covers everything the primary
 *   has made durable everywhere (it retains from above the primary's global checkpoint) the recovery is a no-op
 *   (ES compares the replica's lease with the primary's own; Gannet's primary keeps none for itself, and its global
 *   checkpoint + 1 is what that lease would say);
 * - otherwise a store counts by its matching bytes: files with the same name, length and footer checksum as the
 *   primary's (a file copied from the primary once and not merged away since).
 * The best is a no-op first, then the highest retaining seqNo, then the most matching bytes (ES's comparator);
 * a node whose deciders say NO is not a candidate, but still shows its store in explain.
 */
import type { ShardStoreListing } from '../../indices/index.js';
import type { ShardRouting } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';
import { canAllocate, type Decisions } from './deciders/index.js';
import type { RoutingAllocation } from './routing-allocation.js';

export interface StoreMatch {
  readonly node: DiscoveryNode;
  readonly decisions: Decisions;
  readonly matchingBytes: number;
  /** The seqNo the primary's lease for this node retains from (-1: no lease, or another history). */
  readonly retainingSeqNo: number;
  /** The copy would recover with nothing to replay. */
  readonly noop: boolean;
}

export interface StoreMatches {
  /** Every node with a non-empty store, NO decisions included (explain shows their store). */
  readonly withData: readonly StoreMatch[];
  /** The candidate a replica should go to: a store it can reuse, on a node the deciders do not refuse. */
  readonly best: StoreMatch | undefined;
  /** Some node the deciders do not refuse holds data for the shard, matching or not (ES's hasAnyData). */
  readonly anyData: boolean;
}

/** The primary's listing, when its node answered and the copy is open there as the primary. */
export function primaryStoreOf(listings: ReadonlyMap<string, ShardStoreListing | undefined>, primaryNodeId: string): ShardStoreListing | undefined {
  const listing = listings.get(primaryNodeId);
  return listing?.primary === undefined ? undefined : listing;
}

function retainingSeqNo(primary: ShardStoreListing, nodeId: string, store: ShardStoreListing): number {
  if (!store.found || store.historyUUID !== primary.primary!.historyUUID) return -1;
  return primary.primary!.leases.find((lease) => lease.id === `peer_recovery/${nodeId}`)?.retainingSeqNo ?? -1;
}

function matchingBytes(primary: ShardStoreListing, store: ShardStoreListing): number {
  const primaryFiles = new Map(primary.files.map((file) => [file.name, file]));
  let bytes = 0;
  for (const file of store.files) {
    const same = primaryFiles.get(file.name);
    if (same !== undefined && same.length === file.length && same.checksum === file.checksum && file.checksum !== '') bytes += file.length;
  }
  return bytes;
}

function compare(a: StoreMatch, b: StoreMatch): number {
  return Number(a.noop) - Number(b.noop) || a.retainingSeqNo - b.retainingSeqNo || a.matchingBytes - b.matchingBytes;
}

export function anyMatch(match: StoreMatch): boolean {
  return match.noop || match.retainingSeqNo >= 0 || match.matchingBytes > 0;
}

/** Whether the node's store lets a copy there recover by operations (ES's canPerformOperationBasedRecovery). */
export function canRecoverByOperations(listings: ReadonlyMap<string, ShardStoreListing | undefined>, primary: ShardStoreListing, nodeId: string): boolean {
  const store = listings.get(nodeId);
  return store !== undefined && store.found && retainingSeqNo(primary, nodeId, store) >= 0;
}

export function matchStores(copy: ShardRouting, allocation: RoutingAllocation, listings: ReadonlyMap<string, ShardStoreListing | undefined>, primary: ShardStoreListing): StoreMatches {
  const withData: StoreMatch[] = [];
  for (const node of allocation.dataNodes) {
    const store = listings.get(node.id);
    if (store === undefined || !store.found) continue;
    const retaining = retainingSeqNo(primary, node.id, store);
    withData.push({
      node,
      decisions: canAllocate(copy, node, allocation),
      matchingBytes: matchingBytes(primary, store),
      retainingSeqNo: retaining,
      noop: retaining >= 0 && retaining > primary.primary!.globalCheckpoint,
    });
  }
  const candidates = withData.filter((match) => match.decisions.type !== 'NO');
  let best: StoreMatch | undefined;
  for (const match of candidates) if (anyMatch(match) && (best === undefined || compare(match, best) > 0)) best = match;
  return { withData, best, anyData: candidates.length > 0 };
}
