/**
 * `npm run bench -- <track> [options]`: one entry point for every benchmark. Prints a table with the peers
 * beside Gannet and writes the full result as JSON under bench/results/.
 *
 *   ingest  --corpus debian|npm   bulk ingest (Gannet over HTTP, Lucene 8, minisearch, flexsearch), --shards N
 *   search  --corpus debian|npm   query mix, QPS/latency and agreement with Lucene's BM25 top 10, --clients 1,8
 *   aggregations                   terms/histogram/stats/cardinality over HTTP, checked against brute force
 *   ops                            the seven operational commands: throughput, latency idle and under bulk load
 *   reindex --corpus debian|npm    _reindex docs/s vs the raw _bulk rate, and cancel latency (--cancels N, --seed S)
 *   answers --peer opensearch      not a benchmark: where Gannet's answers differ from the peer's (operational
 *                                  commands and the README's examples), as a markdown report
 *   hostile                        ops endpoints' p50/p99 while each request of issue 18's list runs (npm corpus;
 *                                  --seconds S window per case, --cap S, --cases a,b, --node-entry <build>/dist/src/cli/run.js)
 * options: --peer opensearch (a server measured beside Gannet with the same client code; skipped with the reason
 *          where it cannot run), --runs N (default 3), --limit N (first N docs), --no-peers (no in-process peers),
 *          --seconds S, --connections C and --samples N (ops), --out FILE
 */
import { parseArgs } from 'node:util';
import { ingestTrack } from './tracks/ingest.js';
import { searchTrack } from './tracks/search.js';
import { opsTrack } from './tracks/ops.js';
import { aggregationsTrack } from './tracks/aggregations.js';
import { reindexTrack } from './tracks/reindex.js';
import { hostileTrack } from './tracks/hostile.js';
import { renderTable, saveResult, type TrackResult } from './lib/report.js';
import { answersReport } from './answers/answers-track.js';

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      corpus: { type: 'string', default: 'debian' },
      runs: { type: 'string', default: '3' },
      limit: { type: 'string' },
      'no-peers': { type: 'boolean', default: false },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      out: { type: 'string' },
      cancels: { type: 'string', default: '20' },
      seed: { type: 'string', default: '1' },
      peer: { type: 'string', multiple: true, default: [] },
      shards: { type: 'string', default: '1' },
      clients: { type: 'string', default: '1' },
      samples: { type: 'string', default: '60' },
      cap: { type: 'string', default: '60' },
      cases: { type: 'string' },
      'node-entry': { type: 'string' },
    },
  });
  const track = positionals[0];
  const runs = Number(values.runs);
  const serverPeers = values.peer ?? [];
  const trackOptions = {
    corpus: values.corpus!,
    runs,
    limit: values.limit ? Number(values.limit) : Infinity,
    peers: !values['no-peers'],
    serverPeers,
    shards: Number(values.shards),
    clients: values.clients!.split(',').map(Number),
  };
  let result: TrackResult;
  switch (track) {
    case 'answers':
      return answersReport(serverPeers, values.out);
    case 'ingest':
      result = await ingestTrack(trackOptions);
      break;
    case 'search':
      result = await searchTrack(trackOptions);
      break;
    case 'aggregations':
      result = await aggregationsTrack(trackOptions);
      break;
    case 'reindex':
      result = await reindexTrack({ corpus: values.corpus!, limit: trackOptions.limit, cancels: Number(values.cancels), seed: Number(values.seed), serverPeers });
      break;
    case 'ops':
      result = await opsTrack({ runs, seconds: Number(values.seconds), connections: Number(values.connections), samples: Number(values.samples), serverPeers });
      break;
    case 'hostile':
      result = await hostileTrack({
        limit: trackOptions.limit,
        seconds: Number(values.seconds),
        capSeconds: Number(values.cap),
        nodeEntry: values['node-entry'],
        cases: values.cases,
      });
      break;
    default:
      process.stderr.write('usage: npm run bench -- <ingest|search|aggregations|ops|reindex|hostile> [--peer opensearch] [--corpus debian|npm] [--runs N] [--limit N] [--no-peers]\n');
      return 64;
  }
  const file = saveResult(result, values.out);
  process.stdout.write(renderTable(result) + `\n\nresult written to ${file}\n`);
  return 0;
}

// Exit explicitly: keep-alive sockets of the HTTP agent would otherwise hold the process open.
process.exit(await main());
