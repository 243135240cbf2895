/**
 * Reading and atomically writing commit points in the index directory. A commit is written as
 * `pending_segments_<N>`, fsynced, renamed to `segments_<N>` and the directory fsynced: after a crash the
 * newest `segments_<N>` is complete, and a leftover pending file is just garbage.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { errors, describeError } from '../../common/errors.js';
import { commitFileName, decodeCommitPoint, encodeCommitPoint, parseCommitFileName, type CommitPoint } from './commit-point.js';

export const PENDING_COMMIT_PREFIX = 'pending_';

export async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `commit` durably; returns its file name and size. */
export async function writeCommitPoint(indexPath: string, commit: CommitPoint): Promise<{ name: string; bytes: number }> {
  const name = commitFileName(commit.generation);
  const pending = PENDING_COMMIT_PREFIX + name;
  const bytes = encodeCommitPoint(commit);
  const handle = await open(join(indexPath, pending), 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(join(indexPath, pending), join(indexPath, name));
  await fsyncDirectory(indexPath);
  return { name, bytes: bytes.length };
}

/** The newest commit point among `files`, or null when there is none. A damaged one is corruption. */
export async function readLatestCommitPoint(indexPath: string, files: readonly string[]): Promise<{ commit: CommitPoint; name: string; bytes: number } | null> {
  let newest = -1;
  for (const file of files) {
    const generation = parseCommitFileName(file);
    if (generation !== undefined && generation > newest) newest = generation;
  }
  if (newest < 0) return null;
  const name = commitFileName(newest);
  const resource = join(indexPath, name);
  let bytes: Buffer;
  try {
    bytes = await readFile(resource);
  } catch (err) {
    throw errors.corruptIndex(`failed to read the commit point: ${describeError(err)}`, resource);
  }
  return { commit: decodeCommitPoint(bytes, resource, newest), name, bytes: bytes.length };
}
