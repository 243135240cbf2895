/**
 * Engine ingest micro-benchmark on the Debian corpus: documents are parsed (timed separately), then indexed
 * through Engine.index in batches the way `_bulk` does (concurrent operations, auto-generated ids,
 * `request` durability unless --durability async), then refreshed, flushed and force-merged to one segment. Reports docs/s, bytes on
 * disk against the raw JSON, and the longest event-loop stalls during ingest and during the merge.
 *
 *   node dist/bench/micro/engine-ingest.js [--docs N] [--batch 5000] [--buffer-mb 64] [--work worker|inline] [--durability request|async] [--invert-on-main] [--runs 3]
 *
 * The corpus is read from ../shared/corpus (GANNET_CORPUS overrides); it is never copied into the repo.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { openEngine } from '../../src/engine/index.js';
import { DEFAULT_MAPPING_SETTINGS, mergeMappings, parseDocument, parseMapping, type ParsedDocument, type RootMapping } from '../../src/mapping/index.js';
import { benchEngineConfig } from './bench-engine.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1]! : fallback;
}

function corpusLines(limit: number): Buffer[] {
  const candidates = [process.env['GANNET_CORPUS'], resolve(process.cwd(), '../shared/corpus/debian.ndjson.gz'), '/work/shared/corpus/debian.ndjson.gz'];
  const path = candidates.find((candidate): candidate is string => candidate !== undefined && existsSync(candidate));
  if (path === undefined) throw new Error('corpus not found: set GANNET_CORPUS');
  const all = gunzipSync(readFileSync(path));
  const lines: Buffer[] = [];
  let start = 0;
  while (start < all.length && lines.length < limit) {
    let end = all.indexOf(0x0a, start);
    if (end < 0) end = all.length;
    if (end > start) lines.push(all.subarray(start, end));
    start = end + 1;
  }
  return lines;
}

function directoryBytes(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) {
    const full = join(path, name);
    const stat = statSync(full);
    total += stat.isDirectory() ? directoryBytes(full) : stat.size;
  }
  return total;
}

/** Parses with the bench's mapping (package keyword, description text, the rest dynamic), like the HTTP track. */
class Parser {
  private mapping: RootMapping = parseMapping({ properties: { package: { type: 'keyword' }, description: { type: 'text' } } });

  parse(source: Uint8Array, id?: string, routing?: string): ParsedDocument {
    const document = parseDocument({ source, id, routing, mapping: this.mapping });
    if (document.mappingUpdate !== undefined) this.mapping = mergeMappings(this.mapping, document.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
    return document;
  }
}

interface RunResult {
  /** Documents per CPU-second of the whole process (all threads) over ingest + refresh: robust on a shared machine. */
  docsPerCpuSecond: number;
  /** Documents per second until all of them are searchable: ingest plus the final refresh. */
  searchableDocsPerSecond: number;
  /** Time the event loop was busy during ingest (the rest it waited: fsyncs, a full buffer being written). */
  busySeconds: number;
  docsPerSecond: number;
  ingestSeconds: number;
  parseSeconds: number;
  refreshSeconds: number;
  flushSeconds: number;
  diskBytes: number;
  segments: number;
  mergeSeconds: number;
  mergedBytes: number;
  ingestMaxStallMs: number;
  mergeMaxStallMs: number;
  mergeP99StallMs: number;
}

async function run(lines: Buffer[], batch: number, bufferBytes: number, work: 'worker' | 'inline', durability: 'request' | 'async', invertHere: boolean): Promise<RunResult> {
  const path = mkdtempSync(join(tmpdir(), 'gannet-bench-engine-'));
  const parser = new Parser();
  const engine = await openEngine(
    benchEngineConfig(path, ({ id, source, routing }) => parser.parse(source, id, routing), {
      durability,
      indexingBufferBytes: bufferBytes,
      backgroundWork: work,
      // Without analysis settings documents are inverted on the calling thread, not in indexing workers.
      analysisSettings: invertHere ? undefined : {},
    }),
  );
  try {
    let parseSeconds = 0;
    let ingestSeconds = 0;
    let ingestMaxStallMs = 0;
    let cpuMicros = 0;
    let utilization = performance.eventLoopUtilization();
    let busyMs = 0;
    let autoId = 0;
    for (let start = 0; start < lines.length; start += batch) {
      const parseStart = process.hrtime.bigint();
      const documents = lines.slice(start, start + batch).map((line) => parser.parse(line));
      parseSeconds += Number(process.hrtime.bigint() - parseStart) / 1e9;
      const ingestStart = process.hrtime.bigint();
      const cpuStart = process.cpuUsage();
      utilization = performance.eventLoopUtilization();
      // A fresh histogram per batch: re-enabling one would count the (synchronous) parse as a stall.
      const ingestDelay = monitorEventLoopDelay({ resolution: 1 });
      ingestDelay.enable();
      await Promise.all(
        documents.map((document) =>
          engine.index({
            id: `doc-${autoId++}`,
            document,
            opType: 'create',
            versionType: 'internal',
            origin: 'primary',
            primaryTerm: 1,
            autoGeneratedIdTimestamp: Date.now(),
          }),
        ),
      );
      ingestDelay.disable();
      ingestMaxStallMs = Math.max(ingestMaxStallMs, ingestDelay.max / 1e6);
      busyMs += performance.eventLoopUtilization(utilization).active;
      ingestSeconds += Number(process.hrtime.bigint() - ingestStart) / 1e9;
      const cpu = process.cpuUsage(cpuStart);
      cpuMicros += cpu.user + cpu.system;
    }
    const refreshStart = process.hrtime.bigint();
    const refreshCpuStart = process.cpuUsage();
    await engine.refresh('bench');
    const refreshSeconds = Number(process.hrtime.bigint() - refreshStart) / 1e9;
    const refreshCpu = process.cpuUsage(refreshCpuStart);
    cpuMicros += refreshCpu.user + refreshCpu.system;
    const flushStart = process.hrtime.bigint();
    await engine.flush();
    const flushSeconds = Number(process.hrtime.bigint() - flushStart) / 1e9;
    await engine.waitForMerges();
    const diskBytes = directoryBytes(join(path, 'index'));
    const segments = engine.stats().segments.length;

    const mergeDelay = monitorEventLoopDelay({ resolution: 1 });
    mergeDelay.enable();
    const mergeStart = process.hrtime.bigint();
    await engine.forceMerge({ maxNumSegments: 1 });
    const mergeSeconds = Number(process.hrtime.bigint() - mergeStart) / 1e9;
    mergeDelay.disable();
    const count = engine.stats();
    if (count.segments.length !== 1) throw new Error(`force merge left ${count.segments.length} segments`);
    // The published searcher still holds the merged-away segments until the next refresh.
    await engine.refresh('bench');
    await new Promise((resolve) => setTimeout(resolve, 100));
    return {
      docsPerCpuSecond: lines.length / (cpuMicros / 1e6),
      searchableDocsPerSecond: lines.length / (ingestSeconds + refreshSeconds),
      busySeconds: busyMs / 1000,
      docsPerSecond: lines.length / ingestSeconds,
      ingestSeconds,
      parseSeconds,
      refreshSeconds,
      flushSeconds,
      diskBytes,
      segments,
      mergeSeconds,
      mergedBytes: directoryBytes(join(path, 'index')),
      ingestMaxStallMs,
      mergeMaxStallMs: mergeDelay.max / 1e6,
      mergeP99StallMs: mergeDelay.percentile(99) / 1e6,
    };
  } finally {
    await engine.close();
    rmSync(path, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const limit = Number(argument('docs', 'Infinity'));
  const batch = Number(argument('batch', '5000'));
  const bufferBytes = Number(argument('buffer-mb', '64')) * 1024 * 1024;
  const work = argument('work', 'worker') as 'worker' | 'inline';
  const durability = argument('durability', 'request') as 'request' | 'async';
  const invertHere = process.argv.includes('--invert-on-main');
  const runs = Number(argument('runs', '3'));
  const lines = corpusLines(limit);
  const rawBytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
  console.log(`corpus: ${lines.length} docs, ${(rawBytes / 1e6).toFixed(1)} MB raw JSON; batch ${batch}, buffer ${bufferBytes / 1048576} MB, ${work}${invertHere ? ', inverting on the main thread' : ''}`);
  const results: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const result = await run(lines, batch, bufferBytes, work, durability, invertHere);
    results.push(result);
    console.log(
      `run ${i + 1}: ${result.docsPerSecond.toFixed(0)} docs/s acknowledged, ${result.searchableDocsPerSecond.toFixed(0)} docs/s searchable, ${result.docsPerCpuSecond.toFixed(0)} docs per CPU-second (ingest ${result.ingestSeconds.toFixed(2)} s, event loop busy ${result.busySeconds.toFixed(2)} s, parse ${result.parseSeconds.toFixed(2)} s excluded), ` +
        `refresh ${result.refreshSeconds.toFixed(2)} s, flush ${result.flushSeconds.toFixed(2)} s, ${result.segments} segments, ` +
        `${(result.diskBytes / 1e6).toFixed(1)} MB on disk (${((100 * result.diskBytes) / rawBytes).toFixed(0)}% of raw); ` +
        `force merge ${result.mergeSeconds.toFixed(2)} s -> ${(result.mergedBytes / 1e6).toFixed(1)} MB; ` +
        `max event-loop stall: ingest ${result.ingestMaxStallMs.toFixed(1)} ms, merge ${result.mergeMaxStallMs.toFixed(1)} ms (p99 ${result.mergeP99StallMs.toFixed(1)} ms)`,
    );
  }
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(
    `median over ${runs} runs: ${median(results.map((r) => r.docsPerSecond)).toFixed(0)} docs/s acknowledged, ` +
      `${median(results.map((r) => r.searchableDocsPerSecond)).toFixed(0)} docs/s searchable, ` +
      `${median(results.map((r) => r.docsPerCpuSecond)).toFixed(0)} docs per CPU-second`,
  );
}

await main();
