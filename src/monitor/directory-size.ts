/**
 * Bytes held by the files under a directory, as ES's store size counts them (the sum of file lengths, not
 * blocks allocated). A missing directory holds nothing; files that disappear while we walk (a merge
 * deleting segments) are skipped rather than failing the whole figure.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function directorySizeBytes(path: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (err) {
    if (isGone(err)) return 0;
    throw err;
  }
  let total = 0;
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) {
      total += await directorySizeBytes(child);
    } else if (entry.isFile()) {
      try {
        total += (await lstat(child)).size;
      } catch (err) {
        if (!isGone(err)) throw err;
      }
    }
  }
  return total;
}

function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
