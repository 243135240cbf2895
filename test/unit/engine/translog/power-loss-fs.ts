/**
 * A file system that simulates losing power (in the spirit of Jepsen's LazyFS, in-process): it remembers what
 * fsync made durable and, on `crash`, rewrites the directory to what a disk could hold afterwards.
 *
 * Model (per file = inode): data written since the inode's last fdatasync is volatile; a directory entry
 * created, renamed or removed since the last directory fsync is volatile. After a crash a name exists iff it
 * was durable, holding its inode's durable bytes followed, at random, by nothing, a prefix of the volatile
 * bytes, or zeros (a file extended but not yet filled in). The crash happens at a chosen mutating call
 * (before it runs), and every later call fails, as if the process had died with the machine.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { nodeTranslogFs, type OpenMode, type TranslogFileHandle, type TranslogFs } from '../../../../src/engine/translog/index.js';

export class PowerLost extends Error {
  constructor() {
    super('EIO: simulated power loss');
  }
}

export class PowerLossFs implements TranslogFs {
  private nextInode = 1;
  private readonly volatileNames = new Map<string, number>();
  private durableNames = new Map<string, number>();
  private readonly durableBytes = new Map<number, Buffer>();
  private mutatingCalls = 0;
  crashed = false;

  /**
   * @param dir the one directory the translog lives in, which must start empty
   * @param crashAtCall crash just before this mutating call (1-based); Infinity for never
   * @param random a seeded source of randomness for the torn tails
   */
  constructor(
    private readonly dir: string,
    private readonly crashAtCall: number,
    private readonly random: () => number,
  ) {
    for (const name of readdirSync(dir)) {
      // Adopt whatever is already there as fully durable (a directory recovered from an earlier crash).
      const inode = this.nextInode++;
      this.volatileNames.set(name, inode);
      this.durableNames.set(name, inode);
      this.durableBytes.set(inode, readFileSync(`${dir}/${name}`));
    }
  }

  get calls(): number {
    return this.mutatingCalls;
  }

  private beforeMutation(): void {
    if (this.crashed) throw new PowerLost();
    this.mutatingCalls++;
    if (this.mutatingCalls >= this.crashAtCall) {
      this.crash();
      throw new PowerLost();
    }
  }

  private checkAlive(): void {
    if (this.crashed) throw new PowerLost();
  }

  /** Pulls the plug: rewrites the directory to a state the disk could be in after power returns. */
  crash(): void {
    if (this.crashed) return;
    this.crashed = true;
    const current = new Map<string, Buffer>();
    for (const [name, inode] of this.volatileNames) current.set(String(inode), readFileSync(`${this.dir}/${name}`));
    for (const name of readdirSync(this.dir)) rmSync(`${this.dir}/${name}`);
    for (const [name, inode] of this.durableNames) {
      const durable = this.durableBytes.get(inode) ?? Buffer.alloc(0);
      const now = current.get(String(inode));
      let bytes = durable;
      if (now && now.length > durable.length && now.subarray(0, durable.length).equals(durable)) {
        const choice = this.random();
        const extra = Math.floor(this.random() * (now.length - durable.length + 1));
        if (choice < 0.4) bytes = now.subarray(0, durable.length + extra);
        else if (choice < 0.6) bytes = Buffer.concat([durable, Buffer.alloc(extra)]);
      }
      writeFileSync(`${this.dir}/${name}`, bytes);
    }
  }

  private inodeOf(path: string): number | undefined {
    return this.volatileNames.get(basename(path));
  }

  async open(path: string, mode: OpenMode): Promise<TranslogFileHandle> {
    if (mode === 'read') {
      this.checkAlive();
      return nodeTranslogFs.open(path, mode);
    }
    this.beforeMutation();
    const name = basename(path);
    if (mode === 'create-exclusive' || !this.volatileNames.has(name)) {
      const handle = await nodeTranslogFs.open(path, mode);
      this.volatileNames.set(name, this.nextInode++);
      return this.wrap(handle, this.inodeOf(path)!);
    }
    return this.wrap(await nodeTranslogFs.open(path, mode), this.inodeOf(path)!);
  }

  private wrap(handle: TranslogFileHandle, inode: number): TranslogFileHandle {
    const fs = this;
    return {
      async write(data, position) {
        fs.beforeMutation();
        return handle.write(data, position);
      },
      async read(target, length, position) {
        fs.checkAlive();
        return handle.read(target, length, position);
      },
      async datasync() {
        fs.beforeMutation();
        await handle.datasync();
        const name = [...fs.volatileNames].find(([, id]) => id === inode)?.[0];
        if (name !== undefined) fs.durableBytes.set(inode, readFileSync(`${fs.dir}/${name}`));
      },
      close: () => handle.close(),
    };
  }

  async readFile(path: string): Promise<Buffer> {
    this.checkAlive();
    return nodeTranslogFs.readFile(path);
  }

  async rename(from: string, to: string): Promise<void> {
    this.beforeMutation();
    await nodeTranslogFs.rename(from, to);
    const inode = this.volatileNames.get(basename(from));
    this.volatileNames.delete(basename(from));
    if (inode !== undefined) this.volatileNames.set(basename(to), inode);
  }

  async unlink(path: string): Promise<void> {
    this.beforeMutation();
    await nodeTranslogFs.unlink(path);
    this.volatileNames.delete(basename(path));
  }

  async list(dir: string): Promise<string[]> {
    this.checkAlive();
    return nodeTranslogFs.list(dir);
  }

  async mkdirs(dir: string): Promise<void> {
    this.checkAlive();
    return nodeTranslogFs.mkdirs(dir);
  }

  async fsyncDirectory(dir: string): Promise<void> {
    this.beforeMutation();
    await nodeTranslogFs.fsyncDirectory(dir);
    this.durableNames = new Map(this.volatileNames);
  }

  async stat(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
    this.checkAlive();
    return nodeTranslogFs.stat(path);
  }
}
