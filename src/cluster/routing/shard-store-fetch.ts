/**
 * The master's asynchronous fetch of shard store listings (ES's AsyncShardFetch behind the GatewayAllocator, with
 * `internal:cluster/nodes/indices/shard/store[n]`): the allocation round is synchronous, so when it needs to know
 * which data nodes hold a replica's data it asks here; the first ask sends the request to every data node and
 * answers "still fetching" (the replica waits: `awaiting_info` in explain, `fetching_shard_data` as its allocation
 * status); when the last node answered, a new round runs and finds the listings cached.
 *
 * The cache is per shard and per node incarnation (node id + ephemeral id): a node that left is forgotten and a
 * node that joins is asked on the next round that needs it. What goes stale is dropped:
 * - the primary's listing when any node joins (its retention leases say who can recover by operations, and they
 *   change as copies come and go: ES's ensureAsyncFetchStorePrimaryRecency);
 * - a shard's whole cache when one of its copies started or went away (ES clears it on started and failed shards);
 * - shards that no longer have a replica to place or a replica recovery to judge, after each round;
 * - everything when this node's term as master changes.
 * A node that fails to answer (or times out) counts as holding nothing until it joins again.
 */
import type { ListShardStoreRequest, ShardStoreListing } from '../../indices/index.js';
import type { ClusterState, ShardRouting } from '../cluster-state.js';
import { isDataNode, type DiscoveryNode } from '../discovery-node.js';

/** What the allocation round asks (routing-allocation.ts carries it). */
export interface ShardStoreSource {
  /**
   * Every data node's listing for the copy's shard (undefined for a node that failed to answer), or undefined while
   * some node has not answered yet; asking starts the fetch from nodes not asked yet.
   */
  fetch(copy: ShardRouting, state: ClusterState): ReadonlyMap<string, ShardStoreListing | undefined> | undefined;
}

interface NodeFetch {
  readonly ephemeralId: string;
  done: boolean;
  listing: ShardStoreListing | undefined;
}

interface ShardFetch {
  readonly nodes: Map<string, NodeFetch>;
}

export interface ShardStoreFetchOptions {
  readonly list: (node: DiscoveryNode, request: ListShardStoreRequest) => Promise<ShardStoreListing>;
  /** Runs a new allocation round (called once the last pending answer of a fetch arrived; coalesced). */
  readonly reroute: () => void;
  readonly log: (message: string, err?: unknown) => void;
  /** Told the number of listing requests under way whenever it changes (health's `number_of_in_flight_fetch`). */
  readonly inFlight?: (count: number) => void;
}

function shardKey(indexUuid: string, shard: number): string {
  return `${indexUuid}/${shard}`;
}

/** A replica the store listings can help place or whose recovery they can judge (ES skips new indices: no data). */
export function wantsStoreListing(copy: ShardRouting): boolean {
  if (copy.primary || copy.unassignedInfo?.reason === 'INDEX_CREATED') return false;
  return copy.state === 'UNASSIGNED' || (copy.state === 'INITIALIZING' && copy.recoverySource === 'PEER');
}

export class ShardStoreFetcher implements ShardStoreSource {
  private readonly shards = new Map<string, ShardFetch>();
  private term: number | undefined;
  private rerouteQueued = false;
  private inFlight = 0;

  constructor(private readonly options: ShardStoreFetchOptions) {}

  fetch(copy: ShardRouting, state: ClusterState): ReadonlyMap<string, ShardStoreListing | undefined> | undefined {
    const metadata = state.indices.get(copy.index);
    if (metadata === undefined) return new Map();
    const key = shardKey(metadata.uuid, copy.shard);
    let entry = this.shards.get(key);
    if (entry === undefined) this.shards.set(key, (entry = { nodes: new Map() }));
    let pending = false;
    const listings = new Map<string, ShardStoreListing | undefined>();
    for (const node of state.nodes.values()) {
      if (!isDataNode(node)) continue;
      let fetched = entry.nodes.get(node.id);
      if (fetched === undefined || fetched.ephemeralId !== node.ephemeralId) {
        fetched = { ephemeralId: node.ephemeralId, done: false, listing: undefined };
        entry.nodes.set(node.id, fetched);
        this.start(entry, node, fetched, { index: copy.index, indexUuid: metadata.uuid, shard: copy.shard });
      }
      if (!fetched.done) pending = true;
      listings.set(node.id, fetched.listing);
    }
    return pending ? undefined : listings;
  }

  /** Called with each round's input states before the round runs: drops what they made stale. */
  beginRound(previous: ClusterState, next: ClusterState): void {
    if (next.term !== this.term) {
      this.term = next.term;
      this.shards.clear();
      return;
    }
    if (this.shards.size === 0) return;
    const joined = [...next.nodes.values()].some((node) => previous.nodes.get(node.id)?.ephemeralId !== node.ephemeralId);
    for (const [index, shards] of next.routing) {
      const metadata = next.indices.get(index);
      if (metadata === undefined) continue;
      shards.forEach((copies, shard) => {
        const key = shardKey(metadata.uuid, shard);
        const entry = this.shards.get(key);
        if (entry === undefined) return;
        if (copyStartedOrGone(previous.routing.get(index)?.[shard] ?? [], copies)) {
          this.shards.delete(key);
          return;
        }
        for (const [nodeId, fetched] of entry.nodes) if (next.nodes.get(nodeId)?.ephemeralId !== fetched.ephemeralId) entry.nodes.delete(nodeId);
        const primaryNode = copies.find((copy) => copy.primary)?.nodeId;
        if (joined && primaryNode !== undefined) entry.nodes.delete(primaryNode);
      });
    }
  }

  /** After a round: only shards that still have a replica to place or a replica recovery to judge keep their cache. */
  retainOnly(state: ClusterState): void {
    if (this.shards.size === 0) return;
    const wanted = new Set<string>();
    for (const [index, shards] of state.routing) {
      const metadata = state.indices.get(index);
      if (metadata === undefined) continue;
      shards.forEach((copies, shard) => {
        if (copies.some(wantsStoreListing)) wanted.add(shardKey(metadata.uuid, shard));
      });
    }
    for (const key of [...this.shards.keys()]) if (!wanted.has(key)) this.shards.delete(key);
  }

  private start(entry: ShardFetch, node: DiscoveryNode, fetched: NodeFetch, request: ListShardStoreRequest): void {
    this.options.inFlight?.(++this.inFlight);
    this.options
      .list(node, request)
      .then(
        (listing) => {
          fetched.listing = listing;
        },
        (err: unknown) => {
          this.options.log(`failed to list the store of [${request.index}][${request.shard}] on node [${node.name}]; counting it as holding nothing`, err);
        },
      )
      .finally(() => {
        this.options.inFlight?.(--this.inFlight);
        fetched.done = true;
        // An answer nobody waits for any more (the node left, the cache was dropped) starts no round.
        if (entry.nodes.get(node.id) !== fetched || [...entry.nodes.values()].some((other) => !other.done)) return;
        this.queueReroute();
      });
  }

  private queueReroute(): void {
    if (this.rerouteQueued) return;
    this.rerouteQueued = true;
    setImmediate(() => {
      this.rerouteQueued = false;
      this.options.reroute();
    });
  }
}

/** A copy of the shard became STARTED, or an allocation id went away (a failed or cancelled copy). */
function copyStartedOrGone(before: readonly ShardRouting[], after: readonly ShardRouting[]): boolean {
  const afterById = new Map(after.filter((copy) => copy.allocationId !== undefined).map((copy) => [copy.allocationId!, copy]));
  for (const copy of before) {
    if (copy.allocationId === undefined) continue;
    const now = afterById.get(copy.allocationId);
    if (now === undefined) return true;
    if (now.state === 'STARTED' && copy.state !== 'STARTED') return true;
  }
  return false;
}
