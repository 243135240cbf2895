/** The `answers` command of bench/run.ts: starts Gannet and the requested peer, compares, prints and saves the report. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverLineup } from '../lib/servers.js';
import type { SearchServer } from '../peers/http-server.js';
import { compareAnswers } from './compare-answers.js';

export async function answersReport(serverPeers: string[], outFile?: string): Promise<number> {
  if (serverPeers.length !== 1) {
    process.stderr.write('usage: npm run bench -- answers --peer opensearch\n');
    return 64;
  }
  const lineup = await serverLineup(serverPeers);
  if (lineup.servers.length < 2) {
    process.stdout.write(`answers: ${lineup.skipped.map((row) => `${row.engine} ${row.unavailable}`).join('; ')}\n`);
    return 0;
  }
  const servers: SearchServer[] = [];
  try {
    for (const entry of lineup.servers) servers.push(await entry.start());
    const { report, exchanges } = await compareAnswers(servers[0]!, servers[1]!);
    const file = outFile ?? join(process.cwd(), 'bench', 'results', `answers-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
    mkdirSync(join(process.cwd(), 'bench', 'results'), { recursive: true });
    writeFileSync(file, report + '\n');
    const raw = file.replace(/\.md$/, '') + '.json';
    writeFileSync(raw, JSON.stringify(exchanges, null, 2) + '\n');
    process.stdout.write(`${report}\n\nreport written to ${file}, both servers' answers to ${raw}\n`);
    return 0;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
