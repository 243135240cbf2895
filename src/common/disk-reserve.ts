/**
 * A little space the node keeps for itself on its data path, for the writes that must work on a full disk. The
 * cluster metadata is rewritten on every index deletion; at 100% use that write fails with ENOSPC and the one
 * request that frees space (deleting an index) would fail with it. So a reserve file is held; a write that fails
 * for lack of space gives the reserve up and runs once more, and the reserve is taken again when there is room.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Enough for the metadata of some hundreds of indices (the file written is the whole metadata). */
export const DISK_RESERVE_BYTES = 1 << 20;

export class DiskReserve {
  constructor(
    private readonly path: string,
    private readonly bytes = DISK_RESERVE_BYTES,
  ) {}

  /** Takes the reserve if it is not held and the disk has room for it; never throws. */
  ensure(): void {
    if (existsSync(this.path)) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const fd = openSync(this.path, 'w');
      try {
        // Written out (not a sparse file): the blocks must really be taken, to be really given back.
        const chunk = Buffer.alloc(64 * 1024, 0x2e);
        for (let written = 0; written < this.bytes; written += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, this.bytes - written));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      // No room yet: a partial reserve is not kept (it would look held).
      rmSync(this.path, { force: true });
    }
  }

  get held(): boolean {
    return existsSync(this.path);
  }

  /** Runs `write`; when it fails for lack of space and the reserve is held, frees the reserve and runs it again. */
  withReserve<T>(write: () => T): T {
    try {
      return write();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC' || !existsSync(this.path)) throw err;
      rmSync(this.path, { force: true });
      return write();
    }
  }
}
