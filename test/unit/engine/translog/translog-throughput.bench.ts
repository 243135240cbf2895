/**
 * Throughput and fsyncs per operation under concurrent `request` durability (not a test; run by hand):
 *   node <build>/test/unit/engine/translog/translog-throughput.bench.js [seconds-per-case]
 * C concurrent writers each loop { add one ~1 KB index op; await sync(location) }, as C concurrent
 * single-document index requests would. Prints ops/s and fsyncs per op (data + checkpoint file + directory).
 */
import { Translog } from '../../../../src/engine/translog/index.js';
import { InstrumentedFs, tempDir } from './helpers.js';

const seconds = Number(process.argv[2] ?? 3);
const source = Buffer.from(JSON.stringify({ title: 'x'.repeat(1000) }));

async function runCase(concurrency: number): Promise<void> {
  const { dir, cleanup } = tempDir('gannet-translog-bench-');
  const fs = new InstrumentedFs();
  const translog = await Translog.open(dir, { createIfMissing: true, fs });
  const before = { ...fs.counters };
  let seqNo = 0;
  let acked = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < deadline) {
        const location = translog.add({ type: 'index', id: `doc-${seqNo}`, seqNo: seqNo++, primaryTerm: 1, version: 1, source });
        await translog.sync(location);
        acked++;
      }
    }),
  );
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  const dataSyncs = fs.counters.fileSyncs - before.fileSyncs;
  const dirSyncs = fs.counters.directorySyncs - before.directorySyncs;
  const rounds = fs.counters.checkpointWrites - before.checkpointWrites;
  await translog.close();
  cleanup();
  console.log(
    `concurrency ${String(concurrency).padStart(4)}: ${(acked / elapsedS).toFixed(0).padStart(7)} acked ops/s, ` +
      `${rounds} group commits (${(acked / rounds).toFixed(1)} ops each), ` +
      `fsyncs/op ${((dataSyncs + dirSyncs) / acked).toFixed(3)} (file ${dataSyncs}, dir ${dirSyncs})`,
  );
}

for (const concurrency of [1, 8, 64, 256]) await runCase(concurrency);

// Appending alone (what `async` durability costs on the request path), then one sync for all of it.
{
  const { dir, cleanup } = tempDir('gannet-translog-bench-');
  const fs = new InstrumentedFs();
  const translog = await Translog.open(dir, { createIfMissing: true, fs, durability: 'async' });
  const count = 100_000;
  const started = process.hrtime.bigint();
  for (let seqNo = 0; seqNo < count; seqNo++) translog.add({ type: 'index', id: `doc-${seqNo}`, seqNo, primaryTerm: 1, version: 1, source });
  const addedS = Number(process.hrtime.bigint() - started) / 1e9;
  await translog.sync();
  const syncedS = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(
    `append only (async): ${(count / addedS).toFixed(0)} adds/s; with the final sync ${(count / syncedS).toFixed(0)} ops/s ` +
      `(${(count * (source.length + 40) / 1024 / 1024 / syncedS).toFixed(0)} MiB/s, ${fs.counters.writes} write calls for ${count} ops)`,
  );
  await translog.close();
  cleanup();
}
