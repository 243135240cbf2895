/** Reading and durably writing checkpoint files, with failures reported against the file's path. */
import { join } from 'node:path';
import { FormatError } from './binary.js';
import { decodeCheckpoint, encodeCheckpoint, type Checkpoint } from './checkpoint.js';
import { translogErrors } from './translog-errors.js';
import { writeFileDurably, type TranslogFs } from './translog-fs.js';

export const CHECKPOINT_FILE = 'translog.ckp';

export function generationFileName(generation: number): string {
  return `translog-${generation}.tlog`;
}

export function generationCheckpointName(generation: number): string {
  return `translog-${generation}.ckp`;
}

const GENERATION_FILE = /^translog-(\d+)\.(tlog|ckp)$/;

/** Parses `translog-<gen>.tlog` / `translog-<gen>.ckp`; undefined for any other name. */
export function parseGenerationFileName(name: string): { generation: number; kind: 'tlog' | 'ckp' } | undefined {
  const match = GENERATION_FILE.exec(name);
  if (!match) return undefined;
  return { generation: Number(match[1]), kind: match[2] as 'tlog' | 'ckp' };
}

/** Reads a checkpoint; undefined when the file does not exist, a TranslogCorruptedError when it is bad. */
export async function readCheckpointFile(fs: TranslogFs, path: string): Promise<Checkpoint | undefined> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw translogErrors.ioFailure('read checkpoint', path, err);
  }
  try {
    return decodeCheckpoint(bytes);
  } catch (err) {
    if (err instanceof FormatError) throw translogErrors.badCheckpoint(path, `is unreadable: ${err.message}`);
    throw err;
  }
}

export async function writeCheckpointFile(fs: TranslogFs, dir: string, name: string, checkpoint: Checkpoint): Promise<void> {
  await writeFileDurably(fs, dir, join(dir, name), encodeCheckpoint(checkpoint));
}
