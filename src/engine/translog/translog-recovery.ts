/**
 * Opening a translog directory: create a new translog, or recover an existing one after a clean shutdown or
 * a crash. Recovery trusts exactly what the checkpoints say is durable:
 *
 *   - `translog.ckp` names the generation being written when the process stopped and how far it is durable;
 *     each older generation still needed (from minTranslogGeneration) has its own `translog-<gen>.ckp`.
 *   - Bytes past a checkpoint's offset are a torn tail and are ignored; the files are never appended to
 *     again, because opening always starts a fresh generation (as Elasticsearch does).
 *   - Leftovers of an interrupted step are cleaned up only when they provably hold nothing acknowledged:
 *     `*.tmp` files (the rename never happened), generations older than minTranslogGeneration (an
 *     interrupted trim), and a next generation too short to hold an operation (an interrupted roll, whose
 *     checkpoint was never switched to it). Anything else that does not fit is reported as corruption, never deleted.
 */
import { join } from 'node:path';
import { checkpointsEqual, type Checkpoint } from './checkpoint.js';
import {
  CHECKPOINT_FILE,
  generationCheckpointName,
  generationFileName,
  parseGenerationFileName,
  readCheckpointFile,
  writeCheckpointFile,
} from './checkpoint-file.js';
import { GenerationWriter } from './generation-writer.js';
import { readHeader } from './generation-reader.js';
import { decodeHeader, MAX_HEADER_BYTES } from './translog-header.js';
import { UNASSIGNED_SEQ_NO } from './operation.js';
import { translogErrors } from './translog-errors.js';
import type { TranslogFs } from './translog-fs.js';
import { randomBase64Uuid } from '../../common/uuid.js';
import { EsError } from '../../common/errors.js';

/** A finished generation: read-only, its extent fixed by its checkpoint. */
export interface ReaderGeneration {
  readonly generation: number;
  readonly path: string;
  readonly checkpoint: Checkpoint;
  readonly formatVersion: number;
  readonly headerLength: number;
  readonly primaryTerm: number;
  readonly lastModifiedMs: number;
}

export interface RecoveredTranslog {
  readonly translogUUID: string;
  readonly readers: ReaderGeneration[];
  readonly writer: GenerationWriter;
  readonly minGeneration: number;
  readonly globalCheckpoint: number;
}

export interface RecoveryOptions {
  readonly translogUUID?: string;
  readonly createIfMissing?: boolean;
  readonly primaryTerm?: number;
}

/** Runs an I/O call, turning a raw system error into a translog_exception that names the path. */
export async function attempt<T>(what: string, path: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof EsError) throw err;
    throw translogErrors.ioFailure(what, path, err);
  }
}

/** Creates a generation's file holding just its header, durably, and attaches the handle to the writer. */
export async function createGenerationFile(fs: TranslogFs, dir: string, writer: GenerationWriter): Promise<void> {
  const handle = await attempt('create translog file', writer.path, () => fs.open(writer.path, 'create-exclusive'));
  try {
    await attempt('write translog header', writer.path, () => handle.write(writer.headerBytes, 0));
    await attempt('fsync', writer.path, () => handle.datasync());
    await attempt('fsync directory', dir, () => fs.fsyncDirectory(dir));
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  writer.handle = handle;
}

/**
 * True when a generation file cannot hold an operation: it is no longer than a header can be and does not
 * start with a valid header followed by more bytes. A crash while a generation is being created leaves
 * exactly such a file (a torn header, or zeros where the header was not yet written back).
 */
async function holdsNoOperations(fs: TranslogFs, path: string): Promise<boolean> {
  const stat = await attempt('stat', path, () => fs.stat(path));
  if (!stat) return true;
  if (stat.size > MAX_HEADER_BYTES) return false;
  const handle = await attempt('open', path, () => fs.open(path, 'read'));
  try {
    const bytes = Buffer.alloc(stat.size);
    await attempt('read', path, () => handle.read(bytes, bytes.length, 0));
    try {
      return decodeHeader(bytes).length >= stat.size;
    } catch {
      return true; // no valid header, so nothing after one either
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function unlinkIfExists(fs: TranslogFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw translogErrors.ioFailure('delete', path, err);
  }
}

/** Points translog.ckp at a just-created generation; on failure the generation's handle is released. */
async function commitFirstCheckpoint(fs: TranslogFs, dir: string, writer: GenerationWriter): Promise<void> {
  try {
    await attempt('write checkpoint', join(dir, CHECKPOINT_FILE), () => writeCheckpointFile(fs, dir, CHECKPOINT_FILE, writer.durable));
  } catch (err) {
    await writer.handle?.close().catch(() => undefined);
    throw err;
  }
}

async function createTranslog(fs: TranslogFs, dir: string, options: RecoveryOptions, nowMs: number): Promise<RecoveredTranslog> {
  const translogUUID = options.translogUUID ?? randomBase64Uuid();
  const writer = new GenerationWriter(
    join(dir, generationFileName(1)),
    { translogUUID, primaryTerm: options.primaryTerm ?? 1, generation: 1 },
    UNASSIGNED_SEQ_NO,
    1,
    nowMs,
  );
  // The generation file first, then the checkpoint that makes it the translog: a crash in between leaves a
  // header-only file and no checkpoint, which the next open recognises as an abandoned creation.
  await createGenerationFile(fs, dir, writer);
  await commitFirstCheckpoint(fs, dir, writer);
  return { translogUUID, readers: [], writer, minGeneration: 1, globalCheckpoint: UNASSIGNED_SEQ_NO };
}

export async function openTranslogDirectory(fs: TranslogFs, dir: string, options: RecoveryOptions, nowMs: number): Promise<RecoveredTranslog> {
  if (options.createIfMissing) await attempt('create directory', dir, () => fs.mkdirs(dir));
  let names: string[];
  try {
    names = await fs.list(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw translogErrors.notFound(dir);
    throw translogErrors.ioFailure('list', dir, err);
  }

  let deleted = false;
  const generations = new Map<number, { tlog: boolean; ckp: boolean }>();
  for (const name of names) {
    if (name.endsWith('.tmp')) {
      await unlinkIfExists(fs, join(dir, name));
      deleted = true;
      continue;
    }
    const parsed = parseGenerationFileName(name);
    if (!parsed) continue;
    const entry = generations.get(parsed.generation) ?? { tlog: false, ckp: false };
    entry[parsed.kind] = true;
    generations.set(parsed.generation, entry);
  }

  const checkpointPath = join(dir, CHECKPOINT_FILE);
  const checkpoint = await readCheckpointFile(fs, checkpointPath);
  if (!checkpoint) {
    const present = [...generations.keys()].sort((a, b) => a - b);
    const abandonedCreation =
      present.length === 1 && present[0] === 1 && !generations.get(1)!.ckp && (await holdsNoOperations(fs, join(dir, generationFileName(1))));
    if (present.length > 0 && !abandonedCreation) {
      throw translogErrors.badCheckpoint(checkpointPath, `file is missing but generation files exist for generations [${present.join(', ')}]`);
    }
    if (!options.createIfMissing) throw translogErrors.notFound(dir);
    if (abandonedCreation) await unlinkIfExists(fs, join(dir, generationFileName(1)));
    return createTranslog(fs, dir, options, nowMs);
  }

  const currentGeneration = checkpoint.generation;
  const minGeneration = checkpoint.minTranslogGeneration;
  for (const [generation, entry] of generations) {
    if (generation < minGeneration) {
      await unlinkIfExists(fs, join(dir, generationFileName(generation)));
      await unlinkIfExists(fs, join(dir, generationCheckpointName(generation)));
      deleted = true;
    } else if (generation > currentGeneration) {
      const path = join(dir, generationFileName(generation));
      const interruptedRoll = generation === currentGeneration + 1 && !entry.ckp && (!entry.tlog || (await holdsNoOperations(fs, path)));
      if (!interruptedRoll) {
        throw translogErrors.badFile(path, `generation [${generation}] is newer than the generation [${currentGeneration}] that [${checkpointPath}] names`);
      }
      await unlinkIfExists(fs, path);
      deleted = true;
    }
  }
  if (deleted) await attempt('fsync directory', dir, () => fs.fsyncDirectory(dir));

  const currentCopyPath = join(dir, generationCheckpointName(currentGeneration));
  const currentCopy = await readCheckpointFile(fs, currentCopyPath);
  if (currentCopy && !checkpointsEqual(currentCopy, checkpoint)) {
    throw translogErrors.badCheckpoint(currentCopyPath, `disagrees with [${checkpointPath}] about the same generation [${currentGeneration}]`);
  }

  const readers: ReaderGeneration[] = [];
  let translogUUID = options.translogUUID;
  for (let generation = minGeneration; generation <= currentGeneration; generation++) {
    const path = join(dir, generationFileName(generation));
    const ckpPath = generation === currentGeneration ? checkpointPath : join(dir, generationCheckpointName(generation));
    const genCheckpoint = generation === currentGeneration ? checkpoint : await readCheckpointFile(fs, ckpPath);
    if (!genCheckpoint) throw translogErrors.badCheckpoint(ckpPath, `file is missing, but generation [${generation}] is still needed`);
    if (genCheckpoint.generation !== generation) {
      throw translogErrors.badCheckpoint(ckpPath, `names generation [${genCheckpoint.generation}] instead of [${generation}]`);
    }
    const stat = await attempt('stat', path, () => fs.stat(path));
    if (!stat) throw translogErrors.badFile(path, `generation file is missing, but generation [${generation}] is still needed`);
    const handle = await attempt('open', path, () => fs.open(path, 'read'));
    let header;
    try {
      header = await readHeader(handle, path);
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (header.header.generation !== generation) {
      throw translogErrors.badFile(path, `header names generation [${header.header.generation}] instead of [${generation}]`);
    }
    if (translogUUID === undefined) translogUUID = header.header.translogUUID;
    else if (header.header.translogUUID !== translogUUID) throw translogErrors.uuidMismatch(path, translogUUID, header.header.translogUUID);
    if (genCheckpoint.offset < header.length) {
      throw translogErrors.badCheckpoint(ckpPath, `offset [${genCheckpoint.offset}] lies inside the ${header.length}-byte header of [${path}]`);
    }
    if (stat.size < genCheckpoint.offset) throw translogErrors.truncated(path, stat.size, genCheckpoint.offset);
    readers.push({
      generation,
      path,
      checkpoint: genCheckpoint,
      formatVersion: header.header.formatVersion,
      headerLength: header.length,
      primaryTerm: header.header.primaryTerm,
      lastModifiedMs: stat.mtimeMs,
    });
  }

  // Freeze the generation that was being written (its tail past the checkpoint may be torn) and start a new
  // one: same order as a roll, so a crash here is recovered by the rules above.
  if (!currentCopy) {
    await attempt('write checkpoint', currentCopyPath, () => writeCheckpointFile(fs, dir, generationCheckpointName(currentGeneration), checkpoint));
  }
  const primaryTerm = options.primaryTerm ?? Math.max(...readers.map((r) => r.primaryTerm));
  const writer = new GenerationWriter(
    join(dir, generationFileName(currentGeneration + 1)),
    { translogUUID: translogUUID!, primaryTerm, generation: currentGeneration + 1 },
    checkpoint.globalCheckpoint,
    minGeneration,
    nowMs,
  );
  await createGenerationFile(fs, dir, writer);
  await commitFirstCheckpoint(fs, dir, writer);
  return { translogUUID: translogUUID!, readers, writer, minGeneration, globalCheckpoint: checkpoint.globalCheckpoint };
}
