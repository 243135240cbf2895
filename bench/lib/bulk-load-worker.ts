/** The worker side of bulk-load.ts: reads the corpus, then sends `_bulk` requests until the parent says stop. */
import { parentPort, workerData } from 'node:worker_threads';
import { corpusSpec, readCorpusLines } from './corpus.js';
import { call } from '../peers/http-server.js';

const { port, corpus, index, clients, batchSize } = workerData as { port: number; corpus: string; index: string; clients: number; batchSize: number };
const lines = await readCorpusLines(corpusSpec(corpus));
const action = `{"index":{"_index":"${index}"}}\n`;
const batches: Buffer[] = [];
for (let i = 0; i < lines.length; i += batchSize) batches.push(Buffer.from(lines.slice(i, i + batchSize).map((line) => action + line + '\n').join('')));

let running = true;
let docs = 0;
let failures = 0;
let next = 0;
const start = performance.now();
async function client(): Promise<void> {
  while (running) {
    const batch = next++ % batches.length;
    const reply = await call(port, 'POST', '/_bulk', batches[batch]!, 'application/x-ndjson');
    if (reply.status === 200 && reply.body.errors === false) docs += reply.body.items.length;
    else failures++;
  }
}
const loops = Array.from({ length: clients }, client);
parentPort!.on('message', async (message) => {
  if (message !== 'stop') return;
  running = false;
  await Promise.all(loops);
  parentPort!.postMessage({ event: 'stopped', docs, seconds: (performance.now() - start) / 1000, failures });
});
parentPort!.postMessage({ event: 'started' });
