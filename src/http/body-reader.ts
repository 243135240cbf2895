/**
 * Reads a request body within `http.max_content_length`, inflating gzip/deflate bodies (with the same limit
 * on the inflated size, so a small compressed bomb cannot exhaust memory). Each chunk, inflated, is shown to
 * `account` first (the in-flight requests breaker): a throw there stops reading and rejects with that error.
 */
import type { IncomingMessage } from 'node:http';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import { concatShared } from '../common/shared-bytes.js';

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds http.max_content_length [${limit}]`);
  }
}

export class BadContentEncodingError extends Error {}

const INFLATE_CHUNK_BYTES = 256 * 1024;
/**
 * From this size a body is assembled in shared memory, copied in slices (decision 0019): one Buffer.concat of a
 * 95 MB body held the loop ~140 ms, and the parse and indexing workers then read the shared bytes without a copy.
 */
export const SHARED_BODY_BYTES = 1 << 20;

/** The body of a request that has none (zero bytes: nothing can change it). */
export const NO_BODY = Buffer.alloc(0);

/**
 * HTTP/1.1: a request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112 6.3). Most operator
 * commands are such GETs: no stream listeners and no wait for its end (Node discards the empty stream itself once the
 * response is sent).
 */
export function hasNoBody(request: IncomingMessage): boolean {
  const headers = request.headers;
  const declared = headers['content-length'];
  return headers['transfer-encoding'] === undefined && headers['content-encoding'] === undefined && (declared === undefined || declared === '0');
}

export function readBody(request: IncomingMessage, limit: number, account?: (bytes: number) => void): Promise<Buffer> {
  if (hasNoBody(request)) return Promise.resolve(NO_BODY);
  const encoding = (request.headers['content-encoding'] ?? '').toLowerCase().trim();
  let source: NodeJS.ReadableStream = request;
  let decoder: Gunzip | Inflate | undefined;
  // Large output chunks: inflating a 95 MB body in zlib's default 16 KB chunks costs 6,000 callbacks on the loop.
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
  else if (encoding === 'deflate') decoder = createInflate({ chunkSize: INFLATE_CHUNK_BYTES });
  else if (encoding !== '' && encoding !== 'identity') {
    return Promise.reject(new BadContentEncodingError(`unsupported content encoding [${encoding}]`));
  }
  if (decoder) source = request.pipe(decoder);

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      decoder?.destroy();
      reject(err);
    };
    source.on('data', (chunk: Buffer) => {
      if (done) return;
      received += chunk.length;
      if (received > limit) {
        fail(new BodyTooLargeError(limit));
        return;
      }
      try {
        account?.(chunk.length);
      } catch (err) {
        fail(err as Error);
        return;
      }
      chunks.push(chunk);
    });
    source.on('end', () => {
      if (done) return;
      done = true;
      if (chunks.length === 1) resolve(chunks[0]!);
      else if (received < SHARED_BODY_BYTES) resolve(Buffer.concat(chunks, received));
      else concatShared(chunks, received).then(resolve, reject);
    });
    source.on('error', (err: Error) => fail(decoder ? new BadContentEncodingError(`failed to decompress request body: ${err.message}`) : err));
    request.on('aborted', () => fail(new Error('client aborted the request')));
  });
}
