/**
 * Deletes the files of shard copies this node no longer holds (ES's IndicesStore): a replica removed when the
 * replica count went down, a copy that relocated away, a copy allocated elsewhere while this node was away. The
 * cluster-state applier closes such a copy but leaves its store, which would otherwise stay on disk for good.
 *
 * A copy's store goes once an applied state shows the shard fully active elsewhere: every copy of it STARTED
 * (none unassigned, initializing or relocating) and none of them on this node, and the files are not in use here
 * (open, opening, closing or being recovered into). Until then the store may still be what a primary is
 * allocated from, or what an operations-based recovery starts from, so it stays. The check and the delete run in
 * the same turn as the state is applied, so no copy of that shard can start opening here in between. ES also asks
 * the nodes holding the active copies whether they have applied that state; here the state itself says the
 * copies were reported started by their nodes, which is what makes the local files unnecessary.
 *
 * The directory of an index this node holds nothing of any more goes with its last shard. An index deleted while
 * this node was away (stopped, or cut off) is in the state's index graveyard: its directory goes as soon as this
 * node applies a state naming it there. An index deleted while this node was here (in a state it applied) is the
 * cluster-state applier's to delete, after it closed the copies: left alone here, so its files are not removed
 * under a closing copy and the log does not say the node was away. A directory of an index the state neither holds nor names as deleted is
 * left alone (ES's dangling index: the state may have been lost, not the index).
 */
import { existsSync, readdirSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { IndicesService, PeerRecoveryTargetService } from '../indices/index.js';
import type { ClusterService } from './cluster-service.js';
import { assignedCopiesWithTargets, type ClusterState } from './cluster-state.js';

export class ShardStoreCleanup {
  private unsubscribe: (() => void) | undefined;
  private stopped = false;
  /** The uuids of the indices in the states this node applied (while they are alive or in the graveyard). */
  private readonly seenIndices = new Set<string>();

  constructor(
    private readonly clusterService: ClusterService,
    private readonly indicesService: IndicesService,
    private readonly localNodeId: string,
    private readonly logger: Logger,
    private readonly peerRecovery?: PeerRecoveryTargetService,
  ) {}

  start(): void {
    this.unsubscribe = this.clusterService.onChange((state) => this.clean(state));
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
  }

  private cleanLatest(): void {
    if (this.stopped) return;
    this.clean(this.clusterService.state());
  }

  /** Deletes the stores of shards active elsewhere and of indices deleted while this node was away (see the file comment). */
  clean(state: ClusterState): string[] {
    const live = new Set([...state.indices.values()].map((metadata) => metadata.uuid));
    for (const uuid of live) this.seenIndices.add(uuid);
    const deleted: string[] = [];
    this.forgetGone(live, state);
    const onDisk = new Set(this.indicesService.indexDirectoriesOnDisk());
    if (onDisk.size === 0) return deleted;
    for (const metadata of state.indices.values()) {
      if (!onDisk.has(metadata.uuid)) continue;
      const shards = state.routing.get(metadata.name) ?? [];
      shards.forEach((copies, shard) => {
        if (copies.length === 0 || !copies.every((copy) => copy.state === 'STARTED')) return;
        if (assignedCopiesWithTargets(copies).some((copy) => copy.nodeId === this.localNodeId)) return;
        const path = this.indicesService.shardPath(metadata.uuid, shard);
        if (!existsSync(path) || this.peerRecovery?.isRecoveringShard(metadata.name, shard) === true) return;
        if (this.indicesService.shardFilesInUse(metadata.uuid, shard)) {
          // Usually the copy this very state removed, still closing: judged again once it is closed.
          const closing = this.indicesService.closingShard(metadata.uuid, shard);
          if (closing !== undefined) void closing.catch(() => undefined).then(() => this.cleanLatest());
          return;
        }
        try {
          rmSync(path, { recursive: true, force: true });
        } catch (err) {
          this.logger.warn({ err, index: metadata.name, shard }, `[${metadata.name}][${shard}] failed to delete the files of a copy that is active on other nodes; trying again at the next state`);
          return;
        }
        deleted.push(`${metadata.name}/${shard}`);
        this.logger.info({ event: 'shard_store_deleted', index: metadata.name, shard }, `[${metadata.name}][${shard}] deleted the files of this node's former copy: the shard is active on other nodes`);
      });
      removeIfEmpty(join(this.indicesService.indicesPath, metadata.uuid));
    }
    const graveyard = state.indexGraveyard ?? [];
    for (const tombstone of graveyard) {
      // An index this node saw alive was deleted while it was here: the applier closes its copies and deletes it.
      if (!onDisk.has(tombstone.uuid) || live.has(tombstone.uuid) || this.seenIndices.has(tombstone.uuid) || this.indicesService.indexFilesInUse(tombstone.uuid)) continue;
      try {
        this.indicesService.deleteIndexFiles(tombstone.uuid);
      } catch (err) {
        this.logger.warn({ err, index: tombstone.name }, `[${tombstone.name}/${tombstone.uuid}] failed to delete the files of a deleted index; trying again at the next state`);
        continue;
      }
      deleted.push(tombstone.name);
      this.logger.info({ event: 'index_store_deleted', index: tombstone.name }, `[${tombstone.name}/${tombstone.uuid}] deleted the files of an index deleted while this node was away`);
    }
    return deleted;
  }

  /** Forgets the indices neither alive nor in the graveyard any more (the graveyard keeps the last few hundred). */
  private forgetGone(live: ReadonlySet<string>, state: ClusterState): void {
    if (this.seenIndices.size === live.size) return;
    const buried = new Set((state.indexGraveyard ?? []).map((tombstone) => tombstone.uuid));
    for (const uuid of this.seenIndices) if (!live.has(uuid) && !buried.has(uuid)) this.seenIndices.delete(uuid);
  }
}

function removeIfEmpty(directory: string): void {
  try {
    if (readdirSync(directory).length === 0) rmdirSync(directory);
  } catch {
    // Gone already, or something was added meanwhile: nothing to do.
  }
}
