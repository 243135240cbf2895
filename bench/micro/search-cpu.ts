/**
 * CPU per query of single-node search, two builds side by side in the same run: a node of this build and a node
 * of another build (`--baseline <build root>`, e.g. a copy of an earlier `dist/` placed inside the repository so
 * its imports resolve), each holding the same Debian documents, searched with the Debian query set (one client),
 * builds alternating pass by pass so that a change in the host's load falls on both. Per pass it reads the node
 * process's user + system CPU from /proc/<pid>/stat, so the figure is the server's work per query, which a loaded
 * host changes far less than latency.
 *
 * Usage: node dist/bench/micro/search-cpu.js --baseline dist-before [--docs 20000] [--shards 1,3] [--rounds 5]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { corpusSpec, readCorpusLines, readQueries } from '../lib/corpus.js';
import { summarize } from '../lib/stats.js';
import { SearchServer } from '../peers/http-server.js';
import { NodeProcess } from '../../test/helpers/node-process.js';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

/** utime + stime of a process in milliseconds (clock ticks are 100 per second on Linux). */
function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Build {
  readonly name: string;
  readonly entry: string | undefined;
}

async function main(): Promise<void> {
  const baseline = arg('baseline', '');
  if (baseline === '') throw new Error('--baseline <build root> is required');
  const builds: Build[] = [
    { name: 'baseline', entry: join(resolve(baseline), 'src', 'cli', 'run.js') },
    { name: 'this build', entry: undefined },
  ];
  const spec = corpusSpec('debian');
  const lines = await readCorpusLines(spec, Number(arg('docs', '20000')));
  const queries = readQueries(spec);
  const rounds = Number(arg('rounds', '5'));
  for (const shards of arg('shards', '1,3').split(',').map(Number)) {
    const nodes = await Promise.all(builds.map((build) => NodeProcess.start({ settings: { 'node.name': `cpu-${build.name.replace(' ', '-')}` }, ...(build.entry !== undefined && { entry: build.entry }) })));
    try {
      const servers = nodes.map((node, i) => new SearchServer(builds[i]!.name, { port: node.port, pid: node.child.pid, stop: async () => undefined }));
      for (const server of servers) await server.ingest(spec, lines, { shards });
      // Warm both up (JIT, caches) before measuring.
      for (const server of servers) await server.search(spec, queries, { passes: 2, warmupPasses: 1 });
      const perQuery = new Map<string, number[]>(builds.map((build) => [build.name, []]));
      const loads: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => servers.length - 1 - i);
        for (const i of order) {
          const pid = nodes[i]!.child.pid!;
          const before = cpuMillis(pid);
          await servers[i]!.search(spec, queries, { passes: 1, warmupPasses: 0 });
          perQuery.get(builds[i]!.name)!.push((cpuMillis(pid) - before) / queries.length);
        }
        loads.push(loadavg()[0]!);
      }
      const rows = builds.map((build) => {
        const figures = summarize(perQuery.get(build.name)!);
        return { build: build.name, shards, cpu_ms_per_query_median: Number(figures.median.toFixed(3)), spread: Number(figures.spread.toFixed(2)) };
      });
      const ratio = rows[1]!.cpu_ms_per_query_median / rows[0]!.cpu_ms_per_query_median;
      console.log(JSON.stringify({ shards, docs: lines.length, queries: queries.length, rounds, rows, this_over_baseline: Number(ratio.toFixed(3)), load1: loads.map((l) => l.toFixed(1)).join(',') }));
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
  }
}

await main();
