/**
 * CPU of parsing `_bulk` bodies (parseBulkBody, the primary's event loop) over the npm corpus, as the replication
 * bench sends them: 1,000 documents a body, `{"index":{"_index":"bench","_id":"<n>"}}` before each.
 *
 * Usage: node dist/bench/micro/bulk-parse.js [--docs 226974] [--rounds 7]
 */
import { parseBulkBody } from '../../src/actions/documents/bulk-request-parser.js';
import { median, readCorpusLines } from './corpus.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const lines = readCorpusLines(arg('docs', 226_974), 'npm');
const bodies: Buffer[] = [];
for (let start = 0; start < lines.length; start += 1000) {
  const parts: string[] = [];
  for (let i = start; i < Math.min(lines.length, start + 1000); i++) parts.push(`{"index":{"_index":"bench","_id":"${i}"}}\n${lines[i]!.toString('utf8')}\n`);
  bodies.push(Buffer.from(parts.join('')));
}
const defaults = { index: undefined, routing: undefined, fetchSource: undefined, requireAlias: false };
const perRound: number[] = [];
for (let round = 0; round < arg('rounds', 7); round++) {
  const before = process.cpuUsage();
  let items = 0;
  for (const body of bodies) items += parseBulkBody(body, defaults).length;
  const used = process.cpuUsage(before);
  perRound.push((used.user + used.system) / 1000 / (items / 1000));
}
console.log(`parseBulkBody, ${lines.length} npm documents in ${bodies.length} bodies: CPU ms per 1,000 docs by round ${perRound.map((ms) => ms.toFixed(2)).join(' ')}; median ${median(perRound).toFixed(2)}`);
