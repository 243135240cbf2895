/**
 * What one refresh costs as a function of the documents it writes. An engine as a node opens it (one indexing
 * worker, the built-in analyzers, `request` durability) takes `--docs` npm documents per refresh with the bench's
 * explicit ids, in shard-bulk batches of 128; once its indexing worker has inverted them all (so the refresh
 * waits for no backlog), one refresh is timed, `--refreshes` times in a row (each writes a new segment, so later
 * refreshes show what more segments cost). Per refresh it prints:
 * - CPU of the event loop's thread, of the indexing worker (the thread at background priority) and of the other
 *   threads (V8's, libuv's) while the refresh ran, from /proc (10 ms ticks: use many refreshes for small ones);
 * - wall time of its steps on the event loop: the worker's write (wall, and its own figure), loading the
 *   written segment (`openWritten`: reading and checking its files, the id filter), resolving the ids the buffer
 *   touched against older segments, `applyFlush` (live docs), `publish`, the rest;
 * - the CPU the writes themselves cost per 1,000 documents (event loop + all threads), which shows what more
 *   segments cost the writes that follow (each id is looked up in every segment).
 *
 *   node dist/bench/micro/refresh-cost.js [--docs 25000] [--refreshes 4] [--ids explicit|auto]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type IndexOperation } from '../../src/engine/index.js';
import { DEFAULT_MAPPING_SETTINGS, EMPTY_ROOT, mergeMappings, parseDocument, type ParsedDocument, type RootMapping } from '../../src/mapping/index.js';
import { benchEngineConfig } from './bench-engine.js';
import { readCorpusLines } from './corpus.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1]! : fallback;
}

/** CPU ms and nice value of every thread of this process. */
function threads(): Map<string, { ms: number; nice: number }> {
  const out = new Map<string, { ms: number; nice: number }>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(tid, { ms: (Number(fields[11]) + Number(fields[12])) * 10, nice: Number(fields[16]) });
    } catch {
      // ended
    }
  }
  return out;
}

interface ThreadSplit {
  main: number;
  worker: number;
  other: number;
}

function since(before: Map<string, { ms: number; nice: number }>): ThreadSplit {
  const now = threads();
  const split: ThreadSplit = { main: 0, worker: 0, other: 0 };
  for (const [tid, { ms, nice }] of now) {
    const delta = ms - (before.get(tid)?.ms ?? 0);
    if (tid === String(process.pid)) split.main += delta;
    else if (nice > 0) split.worker += delta;
    else split.other += delta;
  }
  return split;
}

/** Wraps `object[method]` so each call adds its wall time to `into[key]`. */
function timeMethod(object: Record<string, unknown>, method: string, into: Record<string, number>, key: string): void {
  const original = object[method] as (...args: unknown[]) => unknown;
  object[method] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const result = original.apply(this, args);
    if (result instanceof Promise) return result.finally(() => (into[key] = (into[key] ?? 0) + performance.now() - started));
    into[key] = (into[key] ?? 0) + performance.now() - started;
    return result;
  };
}

const perRefresh = Number(argument('docs', '25000'));
const refreshes = Number(argument('refreshes', '4'));
const autoIds = argument('ids', 'explicit') === 'auto';
const lines = readCorpusLines(perRefresh * refreshes, 'npm');
let mapping: RootMapping = EMPTY_ROOT;
const parse = (source: Uint8Array, id?: string): ParsedDocument => {
  const document = parseDocument({ source, id, mapping });
  if (document.mappingUpdate !== undefined) mapping = mergeMappings(mapping, document.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
  return document;
};
const path = mkdtempSync(join(tmpdir(), 'gannet-bench-refresh-'));
const engine = await openEngine(
  benchEngineConfig(path, ({ id, source }) => parse(source, id), { indexingBufferBytes: 1024 * 1024 * 1024, indexingWorkers: 1 }),
);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const internals = engine as any;
const steps: Record<string, number> = {};
timeMethod(internals.jobs, 'writeBuffer', steps, 'workerWrite');
timeMethod(internals.segments, 'openWritten', steps, 'openWritten');
timeMethod(internals.segments, 'applyFlush', steps, 'applyFlush');
timeMethod(internals.segments, 'publish', steps, 'publish');
timeMethod(internals, 'installBuffer', steps, 'installBuffer');

console.log(`${refreshes} refreshes of ${perRefresh} npm documents each (${autoIds ? 'auto' : 'explicit'} ids); wall ms of the steps, CPU ms of the threads`);
try {
  for (let r = 0; r < refreshes; r++) {
    const documents = lines.slice(r * perRefresh, (r + 1) * perRefresh).map((line, i) => parse(line, String(r * perRefresh + i)));
    const writeBefore = threads();
    const writeStarted = performance.now();
    for (let start = 0; start < documents.length; start += 128) {
      const operations: IndexOperation[] = documents.slice(start, start + 128).map((document, i) => ({
        id: String(r * perRefresh + start + i),
        document,
        opType: 'index',
        versionType: 'internal',
        origin: 'primary',
        primaryTerm: 1,
        ...(autoIds && { autoGeneratedIdTimestamp: 1 }),
      }));
      await engine.indexBatch(operations);
    }
    const writeLoop = since(writeBefore);
    await internals.jobs.whenInversionLagBelow(0);
    const writeAll = since(writeBefore);
    const writeWall = performance.now() - writeStarted;
    for (const key of Object.keys(steps)) steps[key] = 0;
    // Timed only here: the writes call it for every id too.
    const lookupId = internals.segments.lookupId;
    timeMethod(internals.segments, 'lookupId', steps, 'lookupId');
    const before = threads();
    const started = performance.now();
    await engine.refresh('bench');
    const wall = performance.now() - started;
    internals.segments.lookupId = lookupId;
    const cpu = since(before);
    const timings = engine.lastBufferWrite;
    const lookups = steps['lookupId'] ?? 0;
    const onLoop = (steps['installBuffer'] ?? 0) - (steps['workerWrite'] ?? 0) - (steps['openWritten'] ?? 0) - (steps['applyFlush'] ?? 0);
    console.log(
      `#${r + 1} (${engine.stats().segments.length} segments after): refresh wall ${wall.toFixed(0)} ms; CPU main ${cpu.main} worker ${cpu.worker} other ${cpu.other} ms` +
        ` | worker write ${steps['workerWrite']!.toFixed(0)} ms (worker says ${timings?.writeMillis ?? '?'} ms), openWritten ${steps['openWritten']!.toFixed(1)}, id lookups ${lookups.toFixed(1)}` +
        ` (rest of install ${(onLoop - lookups).toFixed(1)}), applyFlush ${steps['applyFlush']!.toFixed(1)}, publish ${steps['publish']!.toFixed(1)}, rest ${(wall - steps['installBuffer']! - steps['publish']!).toFixed(1)}` +
        ` | writes before it: CPU per 1,000 docs main ${((writeLoop.main * 1000) / perRefresh).toFixed(1)}, worker ${((writeAll.worker * 1000) / perRefresh).toFixed(1)}, other ${((writeAll.other * 1000) / perRefresh).toFixed(1)} (${writeWall.toFixed(0)} ms wall)`,
    );
  }
} finally {
  await engine.close({ flush: false });
  rmSync(path, { recursive: true, force: true });
}
