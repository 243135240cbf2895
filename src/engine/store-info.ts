/**
 * What a shard directory holds, read without opening an engine: the last commit's user data and the global
 * checkpoint the translog last persisted. A recovering copy reads it to ask its primary for an operations-based
 * recovery (ES's Store.MetadataSnapshot plus the translog's global checkpoint).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readLatestCommitPoint } from './commit/commit-store.js';
import type { CommitUserData } from './commit/commit-point.js';
import { CHECKPOINT_FILE, readCheckpointFile } from './translog/checkpoint-file.js';
import { nodeTranslogFs } from './translog/translog-fs.js';
import { UNASSIGNED_SEQ_NO } from './translog/operation.js';
import { INDEX_FOLDER, TRANSLOG_FOLDER } from './engine-open.js';

export interface CommitStoreInfo {
  readonly userData: CommitUserData;
  /** The global checkpoint in the translog's checkpoint file; UNASSIGNED_SEQ_NO when unknown. */
  readonly globalCheckpoint: number;
  /** The commit's segment count (0 for an empty shard). */
  readonly segmentCount: number;
}

/** The store's commit and persisted global checkpoint; undefined when there is no readable commit. */
export async function readCommitStoreInfo(shardPath: string): Promise<CommitStoreInfo | undefined> {
  const indexPath = join(shardPath, INDEX_FOLDER);
  let files: string[];
  try {
    files = await readdir(indexPath);
  } catch {
    return undefined;
  }
  try {
    const latest = await readLatestCommitPoint(indexPath, files);
    if (latest === null) return undefined;
    const checkpoint = await readCheckpointFile(nodeTranslogFs, join(shardPath, TRANSLOG_FOLDER, CHECKPOINT_FILE)).catch(() => undefined);
    return { userData: latest.commit.userData, globalCheckpoint: checkpoint?.globalCheckpoint ?? UNASSIGNED_SEQ_NO, segmentCount: latest.commit.segments.length };
  } catch {
    // A damaged store is one to copy afresh.
    return undefined;
  }
}
