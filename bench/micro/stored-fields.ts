/**
 * Micro-benchmark: stored fields on a corpus (every record gets an auto-generated `_id`, as `_bulk` without
 * ids does, plus its raw JSON line as `_source`). Not a test; prints a table and a JSON line.
 *
 *   npx tsc -p . --outDir /tmp/build-codec && node /tmp/build-codec/bench/micro/stored-fields.js [debian|npm]
 *
 * For each compression mode and block layout: file bytes vs raw JSON bytes, write throughput, and the costs a
 * search pays: 10 random docs fetched with `_source` (sorted, like a fetch phase), 10 random ids only (what
 * the in-process search benchmark fetches: through the generic `document` read and through `identity`, the
 * id fast path), median and p99 over many fetches, and a sequential read of every document (what merges and
 * scrolls do).
 */
import { StoredFieldsReader } from '../../src/engine/codec/stored/stored-fields-reader.js';
import { StoredFieldsWriter } from '../../src/engine/codec/stored/stored-fields-writer.js';
import type { BlockLayout, StoredCompression } from '../../src/engine/codec/stored/compression.js';
import { timeBasedUuid } from '../../src/indices/uuid-generator.js';
import { median, readCorpusLines, type CorpusName } from './corpus.js';

const SEGMENT_ID = Buffer.alloc(16, 2);
const FETCHES = 3000;
const corpus = (process.argv[2] ?? 'debian') as CorpusName;
const lines = readCorpusLines(Infinity, corpus);
const rawBytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
const ids = lines.map(() => timeBasedUuid());
const ID_ONLY = new Set(['_id']);
const IDENTITY = { id: '_id', routing: '_routing' } as const;

/** Deterministic pseudo-random doc ids, so every configuration fetches the same documents. */
function* randomDocs(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    yield state % lines.length;
  }
}

interface Row {
  readonly config: string;
  readonly fileBytes: number;
  readonly ratioToRawJson: number;
  readonly writeMBPerSec: number;
  readonly fetch10MedianMicros: number;
  readonly fetch10P99Micros: number;
  readonly ids10MedianMicros: number;
  readonly identity10MedianMicros: number;
  readonly sequentialDocsPerSec: number;
}

function fetchLatencies(reader: StoredFieldsReader, fields: ReadonlySet<string> | undefined | 'identity', seed: number): number[] {
  const docs = randomDocs(seed);
  const latencies: number[] = [];
  let checksum = 0;
  for (let fetch = 0; fetch < FETCHES; fetch++) {
    const page = Array.from({ length: 10 }, () => docs.next().value as number).sort((a, b) => a - b);
    const start = process.hrtime.bigint();
    if (fields === 'identity') for (const doc of page) checksum += reader.identity(doc, IDENTITY).id?.length ?? 0;
    else for (const doc of page) checksum += reader.document(doc, fields).length;
    latencies.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  if (checksum === 0) throw new Error('nothing fetched');
  return latencies.sort((a, b) => a - b);
}

function measure(compression: StoredCompression, layout: Partial<BlockLayout>, label: string): Row {
  const start = process.hrtime.bigint();
  const writer = new StoredFieldsWriter(SEGMENT_ID, compression, layout);
  for (let doc = 0; doc < lines.length; doc++) writer.addDocument([{ name: '_id', value: ids[doc]! }, { name: '_source', value: lines[doc]! }]);
  const bytes = writer.finish().bytes;
  const writeSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  // One reader, as a searcher keeps it.
  const reader = new StoredFieldsReader(bytes, 'bench.fdt', SEGMENT_ID, lines.length);
  const full = fetchLatencies(reader, undefined, 42);
  const idOnly = fetchLatencies(reader, ID_ONLY, 43);
  const identity = fetchLatencies(reader, 'identity', 44);
  const sequentialReader = new StoredFieldsReader(bytes, 'bench.fdt', SEGMENT_ID, lines.length);
  const sequentialStart = process.hrtime.bigint();
  for (let doc = 0; doc < lines.length; doc++) sequentialReader.document(doc);
  const sequentialSeconds = Number(process.hrtime.bigint() - sequentialStart) / 1e9;
  return {
    config: `${compression} ${label}`,
    fileBytes: bytes.length,
    ratioToRawJson: bytes.length / rawBytes,
    writeMBPerSec: rawBytes / 1e6 / writeSeconds,
    fetch10MedianMicros: median(full),
    fetch10P99Micros: full[Math.floor(full.length * 0.99)]!,
    ids10MedianMicros: median(idOnly),
    identity10MedianMicros: median(identity),
    sequentialDocsPerSec: lines.length / sequentialSeconds,
  };
}

const configs: [StoredCompression, Partial<BlockLayout>, string][] = [
  ['lz4', {}, 'default layout'],
  ['deflate_fast', {}, 'default layout'],
  ['deflate_best', {}, 'default layout'],
];
for (const extra of process.argv.slice(3)) {
  // e.g. lz4:dictionaryBlockBytes=2048,blockBytes=4096
  const [mode, spec] = extra.split(':') as [StoredCompression, string];
  const layout = Object.fromEntries(spec.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k!, Number.isNaN(Number(v)) ? v : Number(v)]));
  configs.push([mode, layout as Partial<BlockLayout>, spec]);
}
const rows = configs.map(([mode, layout, label]) => measure(mode, layout, label));

console.log(`corpus ${corpus}: ${lines.length} docs, raw JSON ${rawBytes} bytes (_source) + auto _id`);
console.log('  config                                     file bytes   ratio  write MB/s  10 docs: median µs  p99 µs  10 ids: median µs  identity  sequential docs/s');
for (const r of rows) {
  console.log(
    `  ${r.config.padEnd(42)} ${String(r.fileBytes).padStart(10)}  ${r.ratioToRawJson.toFixed(3)}  ${r.writeMBPerSec.toFixed(1).padStart(10)}  ${r.fetch10MedianMicros.toFixed(0).padStart(18)}  ${r.fetch10P99Micros.toFixed(0).padStart(6)}  ${r.ids10MedianMicros.toFixed(0).padStart(17)}  ${r.identity10MedianMicros.toFixed(1).padStart(8)}  ${r.sequentialDocsPerSec.toFixed(0).padStart(17)}`,
  );
}
console.log(JSON.stringify({ corpus, rawBytes, docs: lines.length, rows }));
