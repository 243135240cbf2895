/**
 * A replica's own work per operation, without the transport: npm documents applied to an engine the way a
 * replica applies its primary's operations (replica-apply.ts: parse against the copy's mapping, then
 * Engine.applyReplicated with the primary's ids, seqNos, versions and terms and a max seqNo of updates and deletes of
 * -1, as a primary's bulk of new ids sends them, one translog fsync per request),
 * in requests of `--batch` operations. The mapping is learnt first (as the master's updates would bring it), so
 * nothing waits for a cluster state. Reports the CPU of the event loop (the main thread, from /proc: Linux) and of
 * the whole process per 1,000 documents, over the applying only and then over the final refresh.
 *
 *   node dist/bench/micro/replica-apply.js [--docs 226974] [--batch 1000] [--runs 3]
 *
 * Run old and new builds alternately (copy this file's compiled form next to the old build's bench/micro): the
 * figures are CPU, which a shared host moves less than wall time, but still moves.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type ReplicatedEngineOperation } from '../../src/engine/index.js';
import { DEFAULT_MAPPING_SETTINGS, mergeMappings, parseDocument, parseMapping, type ParsedDocument, type RootMapping } from '../../src/mapping/index.js';
import { benchEngineConfig } from './bench-engine.js';
import { readCorpusLines } from './corpus.js';

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const TICK_MS = 10;

/** CPU milliseconds (user + system) of one thread of this process, or of all of them. */
function threadCpuMillis(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

function processCpuMillis(): number {
  let total = 0;
  for (const tid of readdirSync('/proc/self/task')) total += threadCpuMillis(Number(tid));
  return total;
}

/** The mapping the primary's dynamic updates would have built for these documents. */
function learnMapping(lines: readonly Buffer[]): RootMapping {
  let mapping = parseMapping({});
  for (const line of lines) {
    const parsed = parseDocument({ source: line, mapping });
    if (parsed.mappingUpdate !== undefined) mapping = mergeMappings(mapping, parsed.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
  }
  return mapping;
}

async function run(lines: readonly Buffer[], mapping: RootMapping, batch: number): Promise<{ loop: number; all: number; refreshLoop: number; refreshAll: number }> {
  const path = mkdtempSync(join(tmpdir(), 'gannet-bench-replica-apply-'));
  const parse = (source: Uint8Array, id: string, routing: string | undefined): ParsedDocument => parseDocument({ source, id, routing, mapping });
  const engine = await openEngine(
    benchEngineConfig(path, ({ id, source, routing }) => parse(source, id, routing), { backgroundWork: 'worker', indexingWorkers: 1 }),
  );
  try {
    const loopStart = threadCpuMillis(process.pid);
    const allStart = processCpuMillis();
    for (let start = 0; start < lines.length; start += batch) {
      // As replica-apply.ts's applyOperations: every operation parsed, then applied as one request.
      const end = Math.min(lines.length, start + batch);
      const prepared: Array<ReplicatedEngineOperation | undefined> = new Array(end - start);
      for (let i = start; i < end; i++) {
        const id = String(i);
        prepared[i - start] = { type: 'index', id, document: parse(lines[i]!, id, undefined), seqNo: i, primaryTerm: 1, version: 1 };
      }
      // As a primary's bulk of ids it never held sends them: no update or delete yet (max seqNo of updates -1).
      const results = await engine.applyReplicated(prepared, 'replica', -1);
      for (const result of results) if (result instanceof Error) throw result;
    }
    const loop = threadCpuMillis(process.pid) - loopStart;
    const all = processCpuMillis() - allStart;
    await engine.refresh('api');
    const refreshLoop = threadCpuMillis(process.pid) - loopStart - loop;
    const refreshAll = processCpuMillis() - allStart - all;
    const perThousand = (millis: number): number => Math.round((millis * 10_000) / lines.length) / 10;
    return { loop: perThousand(loop), all: perThousand(all), refreshLoop: perThousand(refreshLoop), refreshAll: perThousand(refreshAll) };
  } finally {
    await engine.close();
    rmSync(path, { recursive: true, force: true });
  }
}

const docs = argument('docs', 226_974);
const batch = argument('batch', 1000);
const runs = argument('runs', 3);
const lines = readCorpusLines(docs, 'npm');
const mapping = learnMapping(lines);
console.log(`npm corpus: ${lines.length} documents, requests of ${batch}; CPU ms per 1,000 docs (event loop / whole process)`);
for (let r = 0; r < runs; r++) {
  const figures = await run(lines, mapping, batch);
  console.log(`  run ${r + 1}: applying ${figures.loop} / ${figures.all}; final refresh ${figures.refreshLoop} / ${figures.refreshAll}`);
}
