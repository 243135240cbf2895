/** A Directory on the local file system: one folder, files created exclusively, fsync on sync(). */
import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Directory } from './directory.js';

export class FsDirectory implements Directory {
  private constructor(readonly path: string) {}

  static async open(path: string): Promise<FsDirectory> {
    await mkdir(path, { recursive: true });
    return new FsDirectory(path);
  }

  get description(): string {
    return `FsDirectory(path=${this.path})`;
  }

  resourceName(fileName: string): string {
    return join(this.path, fileName);
  }

  async listAll(): Promise<string[]> {
    return (await readdir(this.path)).sort();
  }

  async fileExists(fileName: string): Promise<boolean> {
    try {
      await stat(join(this.path, fileName));
      return true;
    } catch {
      return false;
    }
  }

  readFile(fileName: string): Promise<Buffer> {
    return readFile(join(this.path, fileName));
  }

  async writeFile(fileName: string, content: Uint8Array): Promise<void> {
    // 'wx': a segment file is never overwritten; reusing a name is a bug we want to see.
    const handle = await open(join(this.path, fileName), 'wx');
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
  }

  async deleteFile(fileName: string): Promise<void> {
    await rm(join(this.path, fileName), { force: true });
  }

  async sync(fileNames: readonly string[]): Promise<void> {
    for (const fileName of fileNames) {
      const handle = await open(join(this.path, fileName), 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    const dir = await open(this.path, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
