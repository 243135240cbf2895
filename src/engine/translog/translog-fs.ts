/**
 * The file-system calls the translog makes, behind an interface so tests can count fsyncs and inject
 * faults (EIO on a write or an fsync, a crash between two steps) exactly where they want, the way
 * Tantivy's failpoints and ES's MockDirectoryWrapper do. Every call is asynchronous so fsyncs run on
 * libuv's thread pool while the event loop keeps accepting operations: that is what lets concurrent
 * requests share one fsync.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';

export interface TranslogFileHandle {
  /** Writes every byte of `data` at `position` (looping over short writes). */
  write(data: Uint8Array, position: number): Promise<void>;
  /** Reads up to `length` bytes at `position` into `target` from index 0; returns how many were read. */
  read(target: Buffer, length: number, position: number): Promise<number>;
  /** fdatasync: the data and the metadata needed to read it back (the file size) reach stable storage. */
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `overwrite`: an existing file opened for writing in place (no create, no truncate): the sync round's checkpoint
 * (translog.ts, overwriteCheckpoint).
 */
export type OpenMode = 'create-exclusive' | 'truncate' | 'overwrite' | 'read';

export interface TranslogFs {
  open(path: string, mode: OpenMode): Promise<TranslogFileHandle>;
  readFile(path: string): Promise<Buffer>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  list(dir: string): Promise<string[]>;
  mkdirs(dir: string): Promise<void>;
  /** Makes renames, creations and deletions inside `dir` durable. */
  fsyncDirectory(dir: string): Promise<void>;
  /** Size and modification time, or undefined when the file does not exist. */
  stat(path: string): Promise<{ size: number; mtimeMs: number } | undefined>;
}

class NodeFileHandle implements TranslogFileHandle {
  constructor(private readonly handle: FileHandle) {}

  async write(data: Uint8Array, position: number): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.handle.write(data, done, data.length - done, position + done);
      done += bytesWritten;
    }
  }

  async read(target: Buffer, length: number, position: number): Promise<number> {
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.handle.read(target, done, length - done, position + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return done;
  }

  datasync(): Promise<void> {
    return this.handle.datasync();
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

const OPEN_FLAGS: Record<OpenMode, number> = {
  'create-exclusive': constants.O_CREAT | constants.O_EXCL | constants.O_RDWR,
  truncate: constants.O_CREAT | constants.O_TRUNC | constants.O_WRONLY,
  overwrite: constants.O_WRONLY,
  read: constants.O_RDONLY,
};

export const nodeTranslogFs: TranslogFs = {
  async open(path, mode) {
    return new NodeFileHandle(await open(path, OPEN_FLAGS[mode], 0o644));
  },
  readFile: (path) => readFile(path),
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  list: (dir) => readdir(dir),
  async mkdirs(dir) {
    await mkdir(dir, { recursive: true });
  },
  async fsyncDirectory(dir) {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  async stat(path) {
    try {
      const s = await stat(path);
      return { size: s.size, mtimeMs: s.mtimeMs };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  },
};

/**
 * Replaces `path` so a crash at any instant leaves the old or the new content, never a mix: write a temp
 * file, fsync it, rename it over the target, fsync the directory (the async twin of common/atomic-file.ts,
 * so the event loop is not blocked on three fsyncs per group commit).
 */
export async function writeFileDurably(fs: TranslogFs, dir: string, path: string, content: Uint8Array): Promise<void> {
  const temp = `${path}.tmp`;
  const handle = await fs.open(temp, 'truncate');
  try {
    await handle.write(content, 0);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, path);
  await fs.fsyncDirectory(dir);
}
