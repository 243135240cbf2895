/**
 * Large byte arrays that worker threads read without a copy (decision 0019). A request body of tens of
 * megabytes is parsed in a worker and indexed in another: posting an ordinary buffer to each copies it on the
 * event loop (~0.1-0.9 s for 95 MB on a loaded host), and transferring it would take it away from the translog,
 * which still needs it. Bytes in a SharedArrayBuffer cross to a worker as they are. Nobody writes into them
 * once built: they are a request's bytes, read-only from then on.
 *
 * Building one copies the bytes once, in pieces of the shared turn budget (`TimeSlicer`), so the copy of a
 * 95 MB body never holds the loop for more than a slice.
 */
import { TimeSlicer } from './time-slicer.js';

/** Bytes copied between two looks at the clock (~0.1-1 ms of memcpy). */
const COPY_PIECE_BYTES = 1 << 20;

export function isShared(bytes: Uint8Array): boolean {
  return bytes.buffer instanceof SharedArrayBuffer;
}

/** `chunks` (of `total` bytes together) as one Buffer over a SharedArrayBuffer, copied in slices. */
export async function concatShared(chunks: readonly Uint8Array[], total: number): Promise<Buffer> {
  const target = Buffer.from(new SharedArrayBuffer(total));
  const slicer = new TimeSlicer();
  let at = 0;
  for (const chunk of chunks) {
    for (let from = 0; from < chunk.length; from += COPY_PIECE_BYTES) {
      const piece = chunk.subarray(from, Math.min(chunk.length, from + COPY_PIECE_BYTES));
      target.set(piece, at);
      at += piece.length;
      await slicer.pause();
    }
  }
  return target;
}

/** `bytes` itself when it is already shared, else a shared copy made in slices. */
export async function toShared(bytes: Uint8Array): Promise<Uint8Array> {
  if (isShared(bytes)) return bytes;
  return concatShared([bytes], bytes.length);
}
