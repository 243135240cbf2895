/**
 * A steady `_bulk` load on a server, from a worker thread so that building and parsing bulk requests never
 * delays the measured requests of the main thread: `clients` loops, each sending the corpus in 1,000-document
 * batches into one index, round and round, until stopped. Reports how many documents the server took.
 */
import { Worker } from 'node:worker_threads';

export interface BulkLoad {
  stop(): Promise<{ docs: number; seconds: number; failures: number }>;
}

export interface BulkLoadOptions {
  port: number;
  corpus: string;
  index: string;
  clients?: number;
  batchSize?: number;
}

export async function startBulkLoad(options: BulkLoadOptions): Promise<BulkLoad> {
  const worker = new Worker(new URL('./bulk-load-worker.js', import.meta.url), { workerData: { clients: 2, batchSize: 1000, ...options } });
  const started = new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { event: string }) => (message.event === 'started' ? resolve() : reject(new Error(`bulk load worker: ${JSON.stringify(message)}`))));
    worker.once('error', reject);
  });
  await started;
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (message: { event: string; docs: number; seconds: number; failures: number }) => {
          void worker.terminate();
          resolve({ docs: message.docs, seconds: message.seconds, failures: message.failures });
        });
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}
