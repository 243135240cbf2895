/** File-system figures for the data path: total, free and available bytes (ES's FsInfo). */
import { statfs } from 'node:fs/promises';

export interface FsStats {
  path: string;
  totalBytes: number;
  /** Free blocks, including those reserved for root. */
  freeBytes: number;
  /** What the node may use (ES's "available": usable space for an unprivileged process). */
  availableBytes: number;
}

export async function probeFileSystem(path: string): Promise<FsStats> {
  const stats = await statfs(path);
  return {
    path,
    totalBytes: stats.blocks * stats.bsize,
    freeBytes: stats.bfree * stats.bsize,
    availableBytes: stats.bavail * stats.bsize,
  };
}
