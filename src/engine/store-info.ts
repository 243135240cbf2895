/**
 * What a shard directory holds, read without opening an engine: the commits kept on disk and the global
 * checkpoint the translog last persisted. A recovering copy reads it to find its *safe commit* (ES's
 * Store.findSafeIndexCommit: the newest commit holding no operation above that checkpoint, so nothing in it can
 * be history other copies lack) and to ask its primary for an operations-based recovery from there.
 */
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDirectory } from './commit/commit-store.js';
import { commitFileName, decodeCommitPoint, parseCommitFileName, type CommitUserData } from './commit/commit-point.js';
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
  /** The commit's generation (`segments_<N>`). */
  readonly generation: number;
}

/** The store's last commit and persisted global checkpoint; undefined when there is no readable commit. */
export async function readCommitStoreInfo(shardPath: string): Promise<CommitStoreInfo | undefined> {
  const commits = await readCommits(shardPath);
  if (commits === undefined || commits.length === 0) return undefined;
  return { ...commits[commits.length - 1]!, globalCheckpoint: await persistedGlobalCheckpoint(shardPath) };
}

/**
 * The store's safe commit, made its last commit: commit points newer than it are deleted (ES trims unsafe
 * commits before a local recovery), so opening the store opens it. Undefined when the store holds no safe commit
 * (nothing readable, no global checkpoint persisted at all, or every commit holds operations above it): such a copy is
 * rebuilt by copying files. What the deleted commits held above the global checkpoint is exactly what this copy
 * must not keep: the copy is being recovered from its primary, which sends everything above the checkpoint.
 */
export async function trimToSafeCommit(shardPath: string): Promise<CommitStoreInfo | undefined> {
  const commits = await readCommits(shardPath);
  if (commits === undefined || commits.length === 0) return undefined;
  const globalCheckpoint = await persistedGlobalCheckpoint(shardPath);
  // Only UNASSIGNED (-2) means "no checkpoint known". -1 (NO_OPS_PERFORMED) is one: every in-sync copy had no
  // operation, so a commit of none (max_seq_no -1) is safe. A primary killed before its first global checkpoint
  // sync holds exactly that (its writes' fsyncs persisted the -1 it knew until a copy answered): refusing it made
  // such a former primary copy every file back from the promoted replica instead of recovering by operations
  // from seqNo 0. ES's Store.findSafeIndexCommit compares max_seq_no <= global checkpoint with no such guard.
  if (globalCheckpoint === UNASSIGNED_SEQ_NO) return undefined;
  const last = commits[commits.length - 1]!;
  let safeIndex = -1;
  for (let i = commits.length - 1; i >= 0; i--) {
    // A commit tied to another translog cannot be replayed from (the last commit names the translog on disk).
    if (commits[i]!.userData.translogUUID !== last.userData.translogUUID) break;
    if (commits[i]!.userData.maxSeqNo <= globalCheckpoint) {
      safeIndex = i;
      break;
    }
  }
  if (safeIndex < 0) return undefined;
  if (safeIndex < commits.length - 1) {
    const indexPath = join(shardPath, INDEX_FOLDER);
    // Newest first, so a crash part-way leaves a newest commit that is still one of the kept ones or the safe one.
    for (const commit of commits.slice(safeIndex + 1).reverse()) await unlink(join(indexPath, commitFileName(commit.generation)));
    await fsyncDirectory(indexPath);
  }
  return { ...commits[safeIndex]!, globalCheckpoint };
}

async function persistedGlobalCheckpoint(shardPath: string): Promise<number> {
  const checkpoint = await readCheckpointFile(nodeTranslogFs, join(shardPath, TRANSLOG_FOLDER, CHECKPOINT_FILE)).catch(() => undefined);
  return checkpoint?.globalCheckpoint ?? UNASSIGNED_SEQ_NO;
}

/** Every readable commit point, oldest first; undefined when the directory cannot be read or a commit is damaged. */
async function readCommits(shardPath: string): Promise<Array<Omit<CommitStoreInfo, 'globalCheckpoint'>> | undefined> {
  const indexPath = join(shardPath, INDEX_FOLDER);
  let files: string[];
  try {
    files = await readdir(indexPath);
  } catch {
    return undefined;
  }
  const generations = files.map(parseCommitFileName).filter((generation): generation is number => generation !== undefined);
  generations.sort((a, b) => a - b);
  try {
    const commits: Array<Omit<CommitStoreInfo, 'globalCheckpoint'>> = [];
    for (const generation of generations) {
      const resource = join(indexPath, commitFileName(generation));
      const commit = decodeCommitPoint(await readFile(resource), resource, generation);
      commits.push({ userData: commit.userData, segmentCount: commit.segments.length, generation });
    }
    return commits;
  } catch {
    // A damaged store is one to copy afresh.
    return undefined;
  }
}
