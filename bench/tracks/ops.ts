/**
 * The operational endpoints under concurrent load (autocannon against a real node): requests per second and
 * latency percentiles for health, cat nodes/allocation/tasks and the tasks list. These must stay fast when
 * the node is busy, so the track is the baseline the loaded variants will compare against.
 */
import autocannon from 'autocannon';
import { NodeProcess } from '../../test/helpers/node-process.js';
import { newTrackResult, type TrackResult } from '../lib/report.js';
import { summarize } from '../lib/stats.js';

const ENDPOINTS = ['/_cluster/health', '/_cat/nodes?v', '/_cat/allocation?v', '/_tasks', '/_cat/tasks?v'];

export interface OpsOptions {
  runs: number;
  seconds: number;
  connections: number;
}

export async function opsTrack(options: OpsOptions): Promise<TrackResult> {
  const result = newTrackResult('ops', options.runs, ['req_per_s']);
  const node = await NodeProcess.start({ settings: { 'node.name': 'bench' } });
  try {
    for (const path of ENDPOINTS) {
      const rates: number[] = [];
      const p50: number[] = [];
      const p99: number[] = [];
      let errors = 0;
      for (let run = 0; run < options.runs; run++) {
        const outcome = await autocannon({ url: `${node.url}${path}`, connections: options.connections, duration: options.seconds });
        rates.push(outcome.requests.average);
        p50.push(outcome.latency.p50);
        p99.push(outcome.latency.p99);
        errors += outcome.errors + outcome.non2xx;
      }
      result.results.push({
        engine: `gannet ${path}`,
        metrics: { req_per_s: summarize(rates).median, req_per_s_spread: summarize(rates).spread, p50_ms: summarize(p50).median, p99_ms: summarize(p99).median, failed_requests: errors },
      });
    }
  } finally {
    await node.stop();
  }
  return result;
}
