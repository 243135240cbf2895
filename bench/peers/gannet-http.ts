/**
 * Gannet measured the way users reach it: a real node process, documents sent through HTTP `_bulk`, queries
 * through `_search`. Until an endpoint exists the adapter reports the engine as unavailable with the reason.
 */
import { request as httpRequest, Agent } from 'node:http';
import { NodeProcess } from '../../test/helpers/node-process.js';
import type { CorpusSpec, Query } from '../lib/corpus.js';
import { peakRssBytes } from '../lib/process-memory.js';
import { percentile } from '../lib/stats.js';

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export interface HttpReply {
  status: number;
  body: any;
}

export function call(port: number, method: string, path: string, body?: string | Buffer, contentType = 'application/json'): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent, headers: payload ? { 'content-type': contentType, 'content-length': payload.length } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function expectOk(reply: Promise<HttpReply>, what: string): Promise<any> {
  const { status, body } = await reply;
  if (status >= 300) throw new Error(`${what} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

export interface GannetIngestFigures {
  docsPerSecond: number;
  megabytesPerSecond: number;
  seconds: number;
  refreshSeconds: number;
  flushSeconds: number;
  sizeBytes: number | undefined;
  peakRssBytes: number | undefined;
}

export class GannetHttpPeer {
  private constructor(readonly node: NodeProcess) {}

  static async start(): Promise<GannetHttpPeer> {
    return new GannetHttpPeer(await NodeProcess.start({ settings: { 'node.name': 'bench' } }));
  }

  async stop(): Promise<void> {
    await this.node.stop();
  }

  /** Creates a one-shard index and sends the corpus through `_bulk` in batches; then refresh and flush. */
  async ingest(spec: CorpusSpec, lines: string[], index = 'bench', batchSize = 5000, explicitIds = false): Promise<GannetIngestFigures> {
    const port = this.node.port;
    await expectOk(
      call(port, 'PUT', `/${index}`, JSON.stringify({
        settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' },
        mappings: { properties: { [spec.idField]: { type: 'keyword' }, [spec.textField]: { type: 'text' } } },
      })),
      'create index',
    );
    const action = Buffer.from(`{"index":{"_index":"${index}"}}\n`);
    let bytes = 0;
    const start = process.hrtime.bigint();
    for (let i = 0; i < lines.length; i += batchSize) {
      const parts: Buffer[] = [];
      lines.slice(i, i + batchSize).forEach((line, j) => {
        const doc = Buffer.from(line + '\n');
        bytes += doc.length;
        // Explicit ids (the line number) take the versioned path, as reindexed documents do; generated ids the
        // append-only one.
        parts.push(explicitIds ? Buffer.from(`{"index":{"_index":"${index}","_id":"${i + j}"}}\n`) : action, doc);
      });
      const body = await expectOk(call(port, 'POST', '/_bulk', Buffer.concat(parts), 'application/x-ndjson'), 'bulk');
      if (body.errors) throw new Error(`bulk reported item errors: ${JSON.stringify(body.items.find((i: any) => Object.values(i as object)[0].error)).slice(0, 300)}`);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const refreshStart = process.hrtime.bigint();
    await expectOk(call(port, 'POST', `/${index}/_refresh`), 'refresh');
    const refreshSeconds = Number(process.hrtime.bigint() - refreshStart) / 1e9;
    const flushStart = process.hrtime.bigint();
    await expectOk(call(port, 'POST', `/${index}/_flush`), 'flush');
    const flushSeconds = Number(process.hrtime.bigint() - flushStart) / 1e9;
    const stats = await call(port, 'GET', `/${index}/_stats/store`);
    return {
      docsPerSecond: lines.length / seconds,
      megabytesPerSecond: bytes / 1e6 / seconds,
      seconds,
      refreshSeconds,
      flushSeconds,
      sizeBytes: stats.body?._all?.primaries?.store?.size_in_bytes,
      peakRssBytes: peakRssBytes(this.node.child.pid),
    };
  }

  async forceMerge(index = 'bench'): Promise<void> {
    await expectOk(call(this.node.port, 'POST', `/${index}/_forcemerge?max_num_segments=1`), 'force merge');
  }

  /** Runs the queries one at a time over HTTP; returns throughput, latency and top-10 keys per query. */
  async search(spec: CorpusSpec, queries: Query[], index = 'bench', passes = 5, warmupPasses = 2): Promise<{ qps: number; p50Ms: number; p99Ms: number; top10: Map<string, string[]> }> {
    const port = this.node.port;
    const bodies = queries.map((query) => JSON.stringify({ size: 10, _source: [spec.idField], query: queryDsl(spec.textField, query) }));
    const latencies: number[] = [];
    const top10 = new Map<string, string[]>();
    for (let pass = 0; pass < warmupPasses + passes; pass++) {
      const measured = pass >= warmupPasses;
      const passStart = process.hrtime.bigint();
      for (let i = 0; i < queries.length; i++) {
        const t0 = process.hrtime.bigint();
        const body = await expectOk(call(port, 'POST', `/${index}/_search`, bodies[i]), 'search');
        if (measured) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (pass === warmupPasses + passes - 1) top10.set(queries[i]!.qid, body.hits.hits.map((hit: any) => hit._source[spec.idField]));
      }
      void passStart;
    }
    const totalMs = latencies.reduce((a, b) => a + b, 0);
    return { qps: latencies.length / (totalMs / 1000), p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), top10 };
  }
}

/** The ES DSL for a query of the shared sets (see ../shared/corpus/README.md). */
export function queryDsl(field: string, query: Query): unknown {
  const text = query.terms.join(' ');
  switch (query.type) {
    case 'phrase':
      return { match_phrase: { [field]: text } };
    case 'and':
      return { match: { [field]: { query: text, operator: 'and' } } };
    default:
      return { match: { [field]: text } };
  }
}
