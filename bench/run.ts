/**
 * `npm run bench -- <track> [options]`: one entry point for every benchmark. Prints a table with the peers
 * beside Gannet and writes the full result as JSON under bench/results/.
 *
 *   ingest  --corpus debian|npm   bulk ingest (Gannet over HTTP, Lucene 8, minisearch, flexsearch)
 *   search  --corpus debian|npm   query mix, QPS/latency and agreement with Lucene's BM25 top 10
 *   aggregations                   terms/histogram/stats/cardinality over HTTP, checked against brute force
 *   ops                            operational endpoints under concurrent load
 *   reindex --corpus debian|npm    _reindex docs/s vs the raw _bulk rate, and cancel latency (--cancels N, --seed S)
 * options: --runs N (default 3), --limit N (first N docs), --no-peers, --seconds S and --connections C (ops),
 *          --out FILE
 */
import { parseArgs } from 'node:util';
import { ingestTrack } from './tracks/ingest.js';
import { searchTrack } from './tracks/search.js';
import { opsTrack } from './tracks/ops.js';
import { aggregationsTrack } from './tracks/aggregations.js';
import { reindexTrack } from './tracks/reindex.js';
import { renderTable, saveResult, type TrackResult } from './lib/report.js';

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
    },
  });
  const track = positionals[0];
  const runs = Number(values.runs);
  const trackOptions = { corpus: values.corpus!, runs, limit: values.limit ? Number(values.limit) : Infinity, peers: !values['no-peers'] };
  let result: TrackResult;
  switch (track) {
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
      result = await reindexTrack({ corpus: values.corpus!, limit: trackOptions.limit, cancels: Number(values.cancels), seed: Number(values.seed) });
      break;
    case 'ops':
      result = await opsTrack({ runs, seconds: Number(values.seconds), connections: Number(values.connections) });
      break;
    default:
      process.stderr.write('usage: npm run bench -- <ingest|search|aggregations|ops|reindex> [--corpus debian|npm] [--runs N] [--limit N] [--no-peers]\n');
      return 64;
  }
  const file = saveResult(result, values.out);
  process.stdout.write(renderTable(result) + `\n\nresult written to ${file}\n`);
  return 0;
}

// Exit explicitly: keep-alive sockets of the HTTP agent would otherwise hold the process open.
process.exit(await main());
