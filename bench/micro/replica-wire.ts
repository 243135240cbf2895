/**
 * What one replica request of a shard bulk costs on the wire, through the real code: the primary builds the request's
 * operations for the wire and encodes the transport frame; the replica decodes the frame and rebuilds the operations.
 * npm corpus sources, explicit ids, as the replicated bulk bench sends them (issue 13).
 *
 * Usage: node dist/bench/micro/replica-wire.js [--docs 1000] [--rounds 400]
 * Prints CPU per request (process.cpuUsage, one thread: nothing here leaves the main thread) for each step, median of
 * rounds after a warm-up of as many rounds, and the frame's size.
 */
import { encodeFrameChunks, FrameDecoder, FrameKind, type RequestFrame } from '../../src/transport/frame.js';
import * as replicated from '../../src/indices/replication/replicated-operation.js';
import { operationsFromWire, operationsToWire, REPLICA_ACTION, type ReplicaRequest, type ReplicatedOperation } from '../../src/indices/replication/replicated-operation.js';
import { median, readCorpusLines } from './corpus.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const docs = arg('docs', 1000);
const rounds = arg('rounds', 400);
// The sources as the primary holds them: views into one received body, as a bulk's are.
const lines = readCorpusLines(docs, 'npm');
const body = Buffer.concat(lines.map((line) => Buffer.concat([line, Buffer.from('\n')])));
const sources: Uint8Array[] = [];
for (let start = 0, i = 0; i < lines.length; i++) {
  sources.push(body.subarray(start, start + lines[i]!.length));
  start += lines[i]!.length + 1;
}
const operations: ReplicatedOperation[] = sources.map((source, i) => ({ type: 'index', id: `npm-${100_000 + i}`, seqNo: 5_000_000 + i, primaryTerm: 3, version: 1, source, routing: undefined }));

function request(): ReplicaRequest {
  return {
    index: 'npm',
    indexUuid: 'aB3dE5fG7hI9jK1lM3nO5q',
    shard: 0,
    targetAllocationId: 'Zy8xW6vU4tS2rQ0pO8nM6l',
    primaryTerm: 3,
    globalCheckpoint: 4_999_000,
    operations: operationsToWire(operations),
    refresh: 'none',
  };
}

/** The transport's `encodeRequest` for a replica request, where the build has one (an older build sends the request as it is). */
const toWire: (body: unknown) => unknown = (replicated as { replicaRequestToWire?: (body: unknown) => unknown }).replicaRequestToWire ?? ((body) => body);

function frameOf(id: number): Buffer[] {
  return encodeFrameChunks({ kind: FrameKind.Request, id, action: REPLICA_ACTION, parentTaskId: 'Qw3rTy5uIo7pAs9dFg1hJk:123456', sender: 'Qw3rTy5uIo7pAs9dFg1hJk', term: undefined, body: toWire(request()) });
}

function cpuMicros(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

const decoder = new FrameDecoder();
const encodeTimes: number[] = [];
const decodeTimes: number[] = [];
let frameBytes = 0;
for (let round = 0; round < 2 * rounds; round++) {
  let chunks: Buffer[] = [];
  const encodeMicros = cpuMicros(() => {
    chunks = frameOf(round + 1);
  });
  // As the socket delivers it: one buffer (a copy the kernel makes anyway, not timed).
  const received = Buffer.concat(chunks);
  frameBytes = received.length;
  let count = 0;
  const decodeMicros = cpuMicros(() => {
    const [frame] = decoder.push(received);
    count = operationsFromWire(((frame as RequestFrame).body as ReplicaRequest).operations).length;
  });
  if (count !== operations.length) throw new Error(`decoded ${count} operations of ${operations.length}`);
  if (round >= rounds) {
    encodeTimes.push(encodeMicros);
    decodeTimes.push(decodeMicros);
  }
}
const sourceBytes = sources.reduce((sum, source) => sum + source.length, 0);
console.log(`replica request of ${docs} npm documents (${(sourceBytes / 1024).toFixed(0)} KiB of sources), frame ${(frameBytes / 1024).toFixed(0)} KiB`);
console.log(`primary: operations to wire + frame encode  ${(median(encodeTimes) / 1000).toFixed(3)} ms CPU (median of ${rounds})`);
console.log(`replica: frame decode + operations from wire ${(median(decodeTimes) / 1000).toFixed(3)} ms CPU (median of ${rounds})`);
