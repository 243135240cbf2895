/**
 * The file copy of a file-based peer recovery, source side (ES's RecoverySourceHandler.sendFiles over
 * MultiChunkTransfer): every file of the commit in chunks of `chunkBytes` (ES's 512kb), in order, at most
 * `maxConcurrentChunks` of them waiting for the target's answer (`indices.recovery.max_concurrent_file_chunks`),
 * each one going out at its turn under the node's rate limit (`indices.recovery.max_bytes_per_sec`).
 *
 * The limiter never banks idle time (Lucene's SimpleRateLimiter: a chunk that asks after its turn goes now and
 * the next turn counts from then), so whatever the copy does between two turns must not make it ask late, or the
 * difference is lost for good. A copy that asked for a chunk's turn only once the chunk was read and a slot was
 * free lost every read, every file open, every fsync the target did before answering (it syncs each file at its
 * last chunk) beyond a chunk's cost: 231 ms of a 3.8 s copy at 40mb on a loaded host (94% of the limit). So:
 * - the turns of the chunks in the next `maxConcurrentChunks` x `chunkBytes` bytes are asked as soon as this chunk's
 *   turn came, and their bytes read meanwhile: a turn waits on the limiter only, while the chunks before it wait for
 *   their data or a slot. The copy runs no further ahead of what went out than it may leave unanswered (in bytes, so
 *   a run of small files is looked past), and what goes out at once after a stall is bounded by that window;
 * - a chunk asks for a turn only once the bytes since the last turn pass the limiter's minimum (ES's
 *   bytesSinceLastPause against getMinPauseCheckBytes, 5 ms at the rate): a small file's chunk costs next to nothing,
 *   so a turn of its own left no margin at all, and each of a commit's small files lost its open, read and answer.
 * What is left to lose is a stall longer than the window (the process off the CPU, a slow fsync at the target).
 */
import { EsError } from '../../common/errors.js';

export interface CopiedFile {
  readonly name: string;
  readonly length: number;
}

/** A file opened for reading its chunks. */
export interface ChunkSourceFile {
  /** Reads into `buffer` from `position`; resolves with the bytes read. */
  read(buffer: Buffer, position: number): Promise<number>;
  close(): Promise<void>;
}

export interface OutgoingChunk {
  readonly name: string;
  readonly position: number;
  readonly data: Buffer;
  readonly lastChunk: boolean;
  /** Milliseconds this copy waited on the rate limit since the last chunk it sent (source_throttle_time). */
  readonly throttleMillis: number;
}

export interface FileChunkCopy {
  readonly files: readonly CopiedFile[];
  readonly chunkBytes: number;
  readonly maxConcurrentChunks: number;
  readonly limiter: { pause(bytes: number): Promise<number>; minPauseCheckBytes(): number };
  readonly openFile: (name: string) => Promise<ChunkSourceFile>;
  /** Resolves when the target has the chunk (written, and synced when it is a file's last). */
  readonly sendChunk: (chunk: OutgoingChunk) => Promise<unknown>;
  /** Milliseconds on a monotonic clock (performance.now; a manual clock in tests). */
  readonly nowMillis?: () => number;
}

interface PlannedChunk {
  readonly name: string;
  readonly position: number;
  readonly length: number;
  readonly lastChunk: boolean;
  /** Bytes of the copy before this chunk. */
  readonly offset: number;
}

/** Sends every chunk; resolves with the bytes sent and the milliseconds spent waiting on the rate limit. */
export async function sendFileChunks(copy: FileChunkCopy): Promise<{ bytes: number; throttleMillis: number }> {
  const nowMillis = copy.nowMillis ?? (() => performance.now());
  // A PUT is validated to 1-8; a node's own setting is not checked at start, and 0 would wait for a slot forever.
  const maxInFlight = Math.max(1, Math.floor(copy.maxConcurrentChunks) || 1);
  const plan = planChunks(copy.files, copy.chunkBytes);
  const reader = new ChunkReader(copy.openFile);
  // Turns asked and chunks read ahead of the chunk going out: as many bytes as may wait for the target's answer.
  const turns: Array<Promise<number> | undefined> = [];
  const reads: Array<Promise<Buffer> | undefined> = [];
  let lastRead: Promise<unknown> = Promise.resolve();
  // Bytes sent since the last pause (ES's bytesSinceLastPause): a chunk asks for a turn only once they pass the
  // limiter's minimum, and its turn pays for all of them.
  let unpaid = 0;
  const turnOf = (k: number): Promise<number> => {
    unpaid += plan[k]!.length;
    if (unpaid <= copy.limiter.minPauseCheckBytes()) return NO_TURN;
    const bytes = unpaid;
    unpaid = 0;
    return quiet(copy.limiter.pause(bytes));
  };
  // Asks the turns of (and reads) the chunks that start less than `window` bytes past the start of chunk `from`.
  const window = maxInFlight * copy.chunkBytes;
  const askAhead = (from: number): void => {
    const limit = from < plan.length ? plan[from]!.offset + window : Infinity;
    let upTo = turns.length;
    while (upTo < plan.length && plan[upTo]!.offset < limit) upTo++;
    for (let k = turns.length; k < upTo; k++) turns.push(turnOf(k));
    for (let k = reads.length; k < upTo; k++) {
      // One read at a time, in order (one file open at a time); a failed read fails every later one.
      const read = lastRead.then(() => reader.read(plan[k]!));
      reads.push(quiet(read));
      lastRead = read;
    }
  };
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  let bytes = 0;
  let throttled = 0;
  let throttleReported = 0;
  try {
    askAhead(0);
    for (let k = 0; k < plan.length; k++) {
      const chunk = plan[k]!;
      const asked = nowMillis();
      const chosen = await turns[k]!;
      turns[k] = undefined;
      // What this copy waited on the limiter, not a turn that came while it waited for a read or a slot.
      if (chosen > 0) throttled += Math.min(chosen, nowMillis() - asked);
      // The next turns count from this one: asked now, they run while this chunk waits for its bytes or a slot.
      askAhead(k + 1);
      const data = await reads[k]!;
      reads[k] = undefined;
      while (inFlight.size >= maxInFlight && failure === undefined) await Promise.race(inFlight);
      if (failure !== undefined) throw failure;
      // Whole milliseconds as the target sums them, without losing the fractions along the way.
      const throttleMillis = Math.floor(throttled) - throttleReported;
      throttleReported += throttleMillis;
      const sending = copy
        .sendChunk({ name: chunk.name, position: chunk.position, data, lastChunk: chunk.lastChunk, throttleMillis })
        .then(
          () => undefined,
          (err: unknown) => {
            failure ??= err;
          },
        );
      inFlight.add(sending);
      void sending.finally(() => inFlight.delete(sending));
      bytes += chunk.length;
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
    return { bytes, throttleMillis: Math.floor(throttled) };
  } finally {
    await Promise.all(inFlight);
    // Turns asked ahead are dropped (their failures were made quiet; the node's close ends their timers). A read
    // under way ends first, so the file it reads is closed after it.
    await lastRead.catch(() => undefined);
    await reader.close();
  }
}

/** Every chunk of every file, in order; an empty file is one empty chunk (the target creates it). */
function planChunks(files: readonly CopiedFile[], chunkBytes: number): PlannedChunk[] {
  const chunks: PlannedChunk[] = [];
  let offset = 0;
  for (const file of files) {
    let position = 0;
    do {
      const length = Math.min(chunkBytes, file.length - position);
      chunks.push({ name: file.name, position, length, lastChunk: position + length >= file.length, offset });
      position += length;
      offset += length;
    } while (position < file.length);
  }
  return chunks;
}

/** Reads planned chunks in order, one file open at a time: a file is opened at its first chunk, closed after its last. */
class ChunkReader {
  private open: { readonly name: string; readonly file: ChunkSourceFile } | undefined;

  constructor(private readonly openFile: (name: string) => Promise<ChunkSourceFile>) {}

  async read(chunk: PlannedChunk): Promise<Buffer> {
    if (this.open?.name !== chunk.name) {
      await this.close();
      this.open = { name: chunk.name, file: await this.openFile(chunk.name) };
    }
    const data = Buffer.allocUnsafe(chunk.length);
    const read = chunk.length === 0 ? 0 : await this.open.file.read(data, chunk.position);
    if (read !== chunk.length) {
      throw new EsError('illegal_state_exception', `[${chunk.name}] is shorter than the commit says (${chunk.position + read} of at least ${chunk.position + chunk.length} bytes)`);
    }
    if (chunk.lastChunk) await this.close();
    return data;
  }

  async close(): Promise<void> {
    const open = this.open;
    this.open = undefined;
    await open?.file.close();
  }
}

const NO_TURN: Promise<number> = Promise.resolve(0);

/** The same promise, with a handler attached: it is awaited later, or dropped when the copy fails first. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
