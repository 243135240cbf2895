/**
 * What this node holds on disk for one shard (ES's TransportNodesListShardStoreMetadata, the data-node side of
 * `internal:cluster/nodes/indices/shard/store[n]`): the master asks every data node before it places a replica
 * whose copy was lost, so a node that still has the shard's files (a node that came back, a node an earlier copy
 * lived on) gets the replica and recovers it by operations instead of a copy being rebuilt elsewhere from files
 * (cluster/routing/replica-store-match.ts, docs/decisions/0027).
 *
 * Read from the shard directory whether the copy is open here or not (a returning node knows nothing of the index
 * yet). A copy open here as the primary adds what only it knows: its history uuid, its global checkpoint and the
 * peer-recovery retention leases it keeps for other nodes, which say which of them can recover by operations.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INDEX_FOLDER, readCommitStoreInfo } from '../engine/index.js';
import { directorySizeBytes } from '../monitor/index.js';
import type { IndicesService } from './indices-service.js';
import type { RetentionLease } from './replication/retention-leases.js';

export const LIST_SHARD_STORE_ACTION = 'internal:cluster/nodes/indices/shard/store[n]';

export interface ListShardStoreRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

/** One file of the store: its name, length and footer checksum (equal files of two copies are the same bytes). */
export interface StoreFile {
  readonly name: string;
  readonly length: number;
  readonly checksum: string;
}

export interface ShardStoreListing {
  /** The store holds a readable commit (ES's StoreFilesMetadata is not empty). */
  readonly found: boolean;
  readonly historyUUID?: string;
  /** The last commit's local checkpoint and max seqNo. */
  readonly localCheckpoint?: number;
  readonly maxSeqNo?: number;
  readonly sizeInBytes: number;
  readonly files: readonly StoreFile[];
  /** Set when the copy is open here as the primary. */
  readonly primary?: {
    readonly historyUUID: string;
    readonly globalCheckpoint: number;
    readonly maxSeqNo: number;
    readonly leases: readonly RetentionLease[];
  };
  /** Why the store could not be read (ES's store_exception). */
  readonly storeException?: string;
}

const FOOTER_CHECKSUM_BYTES = 8;

export async function listShardStore(indices: IndicesService, request: ListShardStoreRequest): Promise<ShardStoreListing> {
  const path = indices.shardPath(request.indexUuid, request.shard);
  const openCopy = indices.shard(request.index, request.shard);
  const primary =
    openCopy !== undefined && openCopy.indexUuid === request.indexUuid && openCopy.isPrimaryMode && openCopy.state === 'started'
      ? { historyUUID: openCopy.replicationEngine.historyUUID, globalCheckpoint: openCopy.tracker.knownGlobalCheckpoint, maxSeqNo: openCopy.replicationEngine.maxSeqNo, leases: openCopy.leases.list() }
      : undefined;
  let commit;
  try {
    commit = await readCommitStoreInfo(path);
  } catch (err) {
    return { found: false, sizeInBytes: 0, files: [], storeException: err instanceof Error ? err.message : String(err), ...(primary !== undefined && { primary }) };
  }
  if (commit === undefined) return { found: false, sizeInBytes: 0, files: [], ...(primary !== undefined && { primary }) };
  const [files, sizeInBytes] = await Promise.all([storeFiles(join(path, INDEX_FOLDER)), directorySizeBytes(path)]);
  return {
    found: true,
    historyUUID: commit.userData.historyUUID,
    localCheckpoint: commit.userData.localCheckpoint,
    maxSeqNo: commit.userData.maxSeqNo,
    sizeInBytes,
    files,
    ...(primary !== undefined && { primary }),
  };
}

/** Every file of the index folder with its footer checksum; a file that goes meanwhile (a merge, a commit) is left out. */
async function storeFiles(indexPath: string): Promise<StoreFile[]> {
  let names: string[];
  try {
    names = await readdir(indexPath);
  } catch {
    return [];
  }
  const files = await Promise.all(names.sort().map((name) => storeFile(indexPath, name)));
  return files.filter((file): file is StoreFile => file !== undefined);
}

async function storeFile(indexPath: string, name: string): Promise<StoreFile | undefined> {
  const path = join(indexPath, name);
  try {
    const { size } = await stat(path);
    if (size < FOOTER_CHECKSUM_BYTES) return { name, length: size, checksum: '' };
    const handle = await open(path, 'r');
    try {
      const footer = Buffer.alloc(FOOTER_CHECKSUM_BYTES);
      await handle.read(footer, 0, FOOTER_CHECKSUM_BYTES, size - FOOTER_CHECKSUM_BYTES);
      return { name, length: size, checksum: footer.toString('hex') };
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
