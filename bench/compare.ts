/** `npm run bench:compare -- A.json B.json`: two results of one track side by side, B as a ratio to A. */
import { readFileSync } from 'node:fs';
import type { TrackResult } from './lib/report.js';

const [fileA, fileB] = process.argv.slice(2);
if (!fileA || !fileB) {
  process.stderr.write('usage: npm run bench:compare -- A.json B.json\n');
  process.exit(64);
}
const a = JSON.parse(readFileSync(fileA, 'utf8')) as TrackResult;
const b = JSON.parse(readFileSync(fileB, 'utf8')) as TrackResult;
if (a.track !== b.track) process.stderr.write(`warning: comparing different tracks (${a.track} vs ${b.track})\n`);
process.stdout.write(`${a.track}: A = ${a.commit} (${a.date}), B = ${b.commit} (${b.date})\n`);
for (const engineA of a.results) {
  const engineB = b.results.find((r) => r.engine === engineA.engine && r.case === engineA.case);
  if (!engineB || engineA.unavailable || engineB.unavailable) continue;
  const cells = Object.keys(engineA.metrics)
    .filter((m) => engineA.metrics[m] !== undefined && engineB.metrics[m] !== undefined && engineA.metrics[m] !== 0)
    .map((m) => {
      const ratio = engineB.metrics[m]! / engineA.metrics[m]!;
      const better = a.higherIsBetter.includes(m) ? ratio : 1 / ratio;
      return `${m} ${engineA.metrics[m]!.toPrecision(4)} -> ${engineB.metrics[m]!.toPrecision(4)} (${better >= 1 ? '+' : ''}${((better - 1) * 100).toFixed(1)}%)`;
    });
  process.stdout.write(`  ${engineA.engine}${engineA.case ? ` (${engineA.case})` : ''}: ${cells.join(', ')}\n`);
}
