/**
 * Micro-benchmark: stored fields on the Debian corpus (every record's `_id` plus its raw JSON line as
 * `_source`). Not a test; prints a table and a JSON line.
 *
 *   npx tsc -p . --outDir /tmp/build-codec && node /tmp/build-codec/bench/micro/stored-fields.js
 *
 * For each compression mode and chunk size: file bytes vs raw JSON bytes, write throughput (best of 3), and the
 * latency of a search fetch: 10 random doc ids fetched (sorted, like a fetch phase), median and p99 over
 * many fetches.
 */
import { StoredFieldsReader } from '../../src/engine/codec/stored/stored-fields-reader.js';
import { StoredFieldsWriter } from '../../src/engine/codec/stored/stored-fields-writer.js';
import { compress, decompress, type StoredCompression } from '../../src/engine/codec/stored/compression.js';
import { median, readCorpusLines } from './corpus.js';

const SEGMENT_ID = Buffer.alloc(16, 2);
const FETCHES = 2000;
const lines = readCorpusLines();
const rawBytes = lines.reduce((sum, line) => sum + line.length, 0);
const ids = lines.map((_, i) => `deb-${i}`);

/** Deterministic pseudo-random doc ids, so every configuration fetches the same documents. */
function* randomDocs(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    yield state % lines.length;
  }
}

interface Row {
  compression: StoredCompression;
  chunkKB: number;
  fileBytes: number;
  ratioToRawJson: number;
  writeMBPerSec: number;
  fetch10MedianMicros: number;
  fetch10P99Micros: number;
}

function measure(compression: StoredCompression, chunkSize: number): Row {
  let bytes: Buffer = Buffer.alloc(0);
  const writeTimes: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = process.hrtime.bigint();
    const writer = new StoredFieldsWriter(SEGMENT_ID, compression, chunkSize);
    for (let doc = 0; doc < lines.length; doc++) writer.addDocument([{ name: '_id', value: ids[doc]! }, { name: '_source', value: lines[doc]! }]);
    bytes = writer.finish().bytes;
    writeTimes.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  const docs = randomDocs(42);
  const latencies: number[] = [];
  let checksum = 0;
  // One reader, as a searcher keeps it; random pages hit the previous page's chunk ~1 time in 1000.
  const reader = new StoredFieldsReader(bytes, 'bench.fdt', SEGMENT_ID, lines.length);
  for (let fetch = 0; fetch < FETCHES; fetch++) {
    const page = Array.from({ length: 10 }, () => docs.next().value as number).sort((a, b) => a - b);
    const start = process.hrtime.bigint();
    for (const doc of page) checksum += (reader.document(doc)[1]!.value as Uint8Array).length;
    latencies.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  if (checksum === 0) throw new Error('nothing fetched');
  latencies.sort((a, b) => a - b);
  return {
    compression,
    chunkKB: chunkSize / 1024,
    fileBytes: bytes.length,
    ratioToRawJson: bytes.length / rawBytes,
    writeMBPerSec: rawBytes / 1e6 / Math.min(...writeTimes),
    fetch10MedianMicros: median(latencies),
    fetch10P99Micros: latencies[Math.floor(latencies.length * 0.99)]!,
  };
}

const rows: Row[] = [];
for (const compression of ['deflate_fast', 'deflate_best', 'lz4'] as const) {
  for (const chunkKB of [8, 16, 60]) rows.push(measure(compression, chunkKB * 1024));
}

console.log(`corpus: ${lines.length} docs, raw JSON ${rawBytes} bytes (_source) + _id`);
console.log('  mode         chunk  file bytes   ratio  write MB/s  fetch 10 docs: median µs  p99 µs');
for (const r of rows) {
  console.log(
    `  ${r.compression.padEnd(12)} ${String(r.chunkKB).padStart(3)}KB  ${String(r.fileBytes).padStart(10)}  ${r.ratioToRawJson.toFixed(3)}  ${r.writeMBPerSec.toFixed(1).padStart(10)}  ${r.fetch10MedianMicros.toFixed(0).padStart(24)}  ${r.fetch10P99Micros.toFixed(0).padStart(6)}`,
  );
}
// Per-chunk costs, best of 30 runs (robust to other processes on a shared machine): the same 16 KB of
// the corpus, compressed and decompressed in each mode; LZ4 also decoding only the first half, which is
// what fetching a document from the middle of a chunk costs.
const sample = Buffer.concat(lines.slice(0, 4000));
const chunks: Buffer[] = [];
for (let p = 0; p + 16384 <= sample.length && chunks.length < 100; p += 16384) chunks.push(sample.subarray(p, p + 16384));
function bestMicrosPerChunk(fn: (chunk: number) => void): number {
  let best = Infinity;
  for (let run = 0; run < 33; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < chunks.length; i++) fn(i);
    if (run >= 3) best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e3 / chunks.length);
  }
  return best;
}
const perChunk = (['deflate_fast', 'deflate_best', 'lz4'] as const).map((mode) => {
  const compressed = chunks.map((c) => compress(mode, c));
  return {
    mode,
    ratio: compressed.reduce((sum, c) => sum + c.length, 0) / (chunks.length * 16384),
    compressMicros: bestMicrosPerChunk((i) => compress(mode, chunks[i]!)),
    decompressMicros: bestMicrosPerChunk((i) => decompress(mode, compressed[i]!, 16384, 16384)),
    decompressHalfMicros: bestMicrosPerChunk((i) => decompress(mode, compressed[i]!, 16384, 8192)),
  };
});
console.log('per 16 KB chunk, best of 30 runs:');
console.log('  mode          ratio  compress µs  decompress µs  decompress first half µs');
for (const r of perChunk) {
  console.log(`  ${r.mode.padEnd(12)}  ${r.ratio.toFixed(3)}  ${r.compressMicros.toFixed(1).padStart(11)}  ${r.decompressMicros.toFixed(1).padStart(13)}  ${r.decompressHalfMicros.toFixed(1).padStart(24)}`);
}
console.log(JSON.stringify({ rawBytes, docs: lines.length, rows, perChunk }));
