/**
 * Test helpers for the translog: a file system that counts fsyncs and can fail chosen calls, operation
 * generators for fast-check, and temp directories.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { nodeTranslogFs, Translog, type OpenMode, type TranslogFileHandle, type TranslogFs } from '../../../../src/engine/translog/index.js';
import type { TranslogOperation } from '../../../../src/engine/translog/index.js';

export interface FsCounters {
  /** fdatasync calls on generation and temp checkpoint files. */
  fileSyncs: number;
  directorySyncs: number;
  writes: number;
  renames: number;
  /** Writes of translog.ckp (in place) or of its temp file: one per sync round, whichever way it is written. */
  checkpointWrites: number;
}

export type FaultPoint = 'write' | 'datasync' | 'fsyncDirectory' | 'rename' | 'open';

export interface InstrumentedFsOptions {
  /** Count fsyncs but do not perform them: for recovery tests where durability is not what is tested. */
  skipSyncs?: boolean;
  /** Record every mutating call in `events` ("write translog-1.tlog", "datasync translog.ckp.tmp", ...). */
  logEvents?: boolean;
}

/** Wraps the real file system, counting calls; `failNext(point)` makes the next such call throw EIO. */
export class InstrumentedFs implements TranslogFs {
  readonly counters: FsCounters = { fileSyncs: 0, directorySyncs: 0, writes: 0, renames: 0, checkpointWrites: 0 };
  readonly events: string[] = [];
  private readonly faults = new Map<FaultPoint, number>();

  constructor(
    private readonly inner: TranslogFs = nodeTranslogFs,
    private readonly options: InstrumentedFsOptions = {},
  ) {}

  private log(event: string): void {
    if (this.options.logEvents) this.events.push(event);
  }

  get fsyncs(): number {
    return this.counters.fileSyncs + this.counters.directorySyncs;
  }

  /** The `skip`+1-th next call at `point` fails with EIO. */
  failNext(point: FaultPoint, skip = 0): void {
    this.faults.set(point, skip);
  }

  private maybeFail(point: FaultPoint): void {
    const skip = this.faults.get(point);
    if (skip === undefined) return;
    if (skip > 0) {
      this.faults.set(point, skip - 1);
      return;
    }
    this.faults.delete(point);
    const err = new Error(`EIO: i/o error, ${point} (injected)`) as NodeJS.ErrnoException;
    err.code = 'EIO';
    throw err;
  }

  async open(path: string, mode: OpenMode): Promise<TranslogFileHandle> {
    this.maybeFail('open');
    const handle = await this.inner.open(path, mode);
    const fs = this;
    const name = basename(path);
    return {
      async write(data, position) {
        fs.counters.writes++;
        if (name === 'translog.ckp' || name === 'translog.ckp.tmp') fs.counters.checkpointWrites++;
        fs.maybeFail('write');
        fs.log(`write ${name}`);
        return handle.write(data, position);
      },
      read: (target, length, position) => handle.read(target, length, position),
      async datasync() {
        fs.counters.fileSyncs++;
        fs.maybeFail('datasync');
        if (!fs.options.skipSyncs) await handle.datasync();
        fs.log(`datasync ${name}`);
      },
      close: () => handle.close(),
    };
  }

  readFile(path: string): Promise<Buffer> {
    return this.inner.readFile(path);
  }

  async rename(from: string, to: string): Promise<void> {
    this.counters.renames++;
    this.maybeFail('rename');
    await this.inner.rename(from, to);
    this.log(`rename ${basename(from)} ${basename(to)}`);
  }

  unlink(path: string): Promise<void> {
    return this.inner.unlink(path);
  }

  list(dir: string): Promise<string[]> {
    return this.inner.list(dir);
  }

  mkdirs(dir: string): Promise<void> {
    return this.inner.mkdirs(dir);
  }

  async fsyncDirectory(dir: string): Promise<void> {
    this.counters.directorySyncs++;
    this.maybeFail('fsyncDirectory');
    if (!this.options.skipSyncs) await this.inner.fsyncDirectory(dir);
    this.log('fsync-dir');
  }

  stat(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
    return this.inner.stat(path);
  }
}

/**
 * A fresh directory. `inMemory` puts it on /dev/shm when there is one: for tests that damage and re-read a
 * translog hundreds of times with fastFs(), where the disk adds only time (tmpfs ignores fsync anyway).
 */
export function tempDir(prefix = 'gannet-translog-', inMemory = false): { dir: string; cleanup: () => void } {
  const root = inMemory && existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(root, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function indexOp(seqNo: number, id = `doc-${seqNo}`, source: string | Uint8Array = `{"n":${seqNo}}`): TranslogOperation {
  return { type: 'index', id, seqNo, primaryTerm: 1, version: 1, source: typeof source === 'string' ? Buffer.from(source) : source };
}

const longValue = fc.oneof(fc.constantFrom(0, 1, Number.MAX_SAFE_INTEGER, 2 ** 32, 2 ** 32 - 1, 2 ** 31), fc.maxSafeNat());
const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constant(''));
const sourceBytes = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 300_000 }).map((n) => new Uint8Array(n).fill(n % 251)) },
);

/** Arbitrary operations: unicode ids, empty and large sources, seqNo/term/version up to MAX_SAFE_INTEGER. */
export const operationArbitrary: fc.Arbitrary<TranslogOperation> = fc.oneof(
  fc.record({
    type: fc.constant('index' as const),
    id: text,
    seqNo: longValue,
    primaryTerm: longValue,
    version: fc.oneof(longValue, fc.integer({ min: -3, max: -1 })),
    source: sourceBytes.map((bytes) => Buffer.from(bytes)),
    routing: fc.option(text, { nil: undefined }),
  }).map(({ routing, ...rest }) => (routing === undefined ? rest : { ...rest, routing })),
  // Spread: fast-check builds records without a prototype, which deepStrictEqual tells apart.
  fc.record({ type: fc.constant('delete' as const), id: text, seqNo: longValue, primaryTerm: longValue, version: longValue }).map((op) => ({ ...op })),
  fc.record({ type: fc.constant('noop' as const), seqNo: longValue, primaryTerm: longValue, reason: text }).map((op) => ({ ...op })),
);

/** A file system that counts but skips fsyncs: recovery logic tests run fast without changing what they test. */
export function fastFs(): InstrumentedFs {
  return new InstrumentedFs(nodeTranslogFs, { skipSyncs: true });
}

/** Opens an existing translog and reads every operation, closing it again; throws what recovery throws. */
export async function recoverAll(
  dir: string,
  options: { translogUUID?: string; fs?: TranslogFs } = {},
): Promise<TranslogOperation[]> {
  const translog = await Translog.open(dir, { fs: options.fs ?? fastFs(), translogUUID: options.translogUUID });
  try {
    return await translog.snapshot().toArray();
  } finally {
    await translog.close();
  }
}

/** The files of a directory, held in memory so a test can restore it quickly between damage attempts. */
export function captureDirectory(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

export function restoreDirectory(dir: string, files: ReadonlyMap<string, Buffer>): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(join(dir, name));
  for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes);
}
