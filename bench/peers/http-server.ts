/**
 * A search server measured the way users reach it: a real server process on loopback, documents sent through
 * HTTP `_bulk`, queries through `_search`. The same client code drives every server (Gannet, OpenSearch), so a
 * ratio between two servers measures the servers, not the clients.
 */
import { request as httpRequest, Agent } from 'node:http';
import type { CorpusSpec, Query } from '../lib/corpus.js';
import { peakRssBytes } from '../lib/process-memory.js';
import { cpuPer1000Since, processCpuMillis, threadCpuMillis, threadCpuText, type ProcessCpu } from '../lib/process-cpu.js';
import { percentile } from '../lib/stats.js';

/** Up to 8 concurrent requests per server port (the search track's 8 clients); kept alive between requests. */
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

export async function expectOk(reply: Promise<HttpReply>, what: string): Promise<any> {
  const { status, body } = await reply;
  if (status >= 300) throw new Error(`${what} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

/** The process behind a server: where it listens, its pid (for peak RSS) and how to stop it. */
export interface ServerProcess {
  readonly port: number;
  readonly pid: number | undefined;
  /** Every process serving (a cluster's nodes), for CPU figures; `[pid]` when absent. */
  readonly pids?: readonly number[];
  stop(): Promise<void>;
}

export interface IngestOptions {
  index?: string;
  batchSize?: number;
  /** Explicit ids (the line number) take the versioned write path, as reindexed documents do. */
  explicitIds?: boolean;
  shards?: number;
}

export interface IngestFigures {
  docsPerSecond: number;
  megabytesPerSecond: number;
  seconds: number;
  refreshSeconds: number;
  flushSeconds: number;
  sizeBytes: number | undefined;
  peakRssBytes: number | undefined;
  /** CPU per 1,000 documents of each server process (`process.pids`) during the `_bulk` requests only. */
  cpuPer1000: ProcessCpu[];
}

export interface SearchOptions {
  index?: string;
  passes?: number;
  warmupPasses?: number;
  /** Concurrent clients, each sending its next query as soon as the last one answered. */
  clients?: number;
}

export interface SearchFigures {
  qps: number;
  p50Ms: number;
  p99Ms: number;
  /** qid -> the top-10 ids of the last pass. */
  top10: Map<string, string[]>;
}

/** The mapping every server gets for a corpus: the id as a keyword, the text as `text` (standard analyzer). */
export function corpusMappings(spec: CorpusSpec): unknown {
  return { properties: { [spec.idField]: { type: 'keyword' }, [spec.textField]: { type: 'text' } } };
}

export class SearchServer {
  constructor(
    /** "gannet" or e.g. "opensearch 2.19.6": the engine column of a result. */
    readonly name: string,
    readonly process: ServerProcess,
  ) {}

  get port(): number {
    return this.process.port;
  }

  /** The server's processes (a cluster's nodes), for CPU figures. */
  get pids(): readonly number[] {
    return this.process.pids ?? (this.process.pid === undefined ? [] : [this.process.pid]);
  }

  /** The server process's peak resident memory so far (VmHWM). */
  peakRssBytes(): number | undefined {
    return this.process.pid === undefined ? undefined : peakRssBytes(this.process.pid);
  }

  async stop(): Promise<void> {
    await this.process.stop();
  }

  /**
   * The same first requests for every server before anything is timed: the corpus's first 5,000 documents
   * through `_bulk` into a throwaway index, refreshed, searched and deleted, so that a measurement starts on
   * compiled code (the JVM's JIT and V8's alike), as a server that has been up for a while runs.
   */
  async warmUp(spec: CorpusSpec, lines: string[], shards = 1, docs = 5000): Promise<void> {
    // Cycled when the corpus slice is shorter than the warm-up (the same documents again: compiled code is the point).
    const warmLines = Array.from({ length: docs }, (_, i) => lines[i % lines.length]!);
    await this.ingest(spec, warmLines, { index: 'warm-up', batchSize: 1000, shards });
    await expectOk(call(this.port, 'POST', '/warm-up/_search', JSON.stringify({ query: { match: { [spec.textField]: 'the' } } })), 'warm-up search');
    await expectOk(call(this.port, 'DELETE', '/warm-up'), 'delete the warm-up index');
  }

  /** Creates an index (no replicas, no periodic refresh), sends the corpus through `_bulk` in batches; then refresh and flush. */
  async ingest(spec: CorpusSpec, lines: string[], options: IngestOptions = {}): Promise<IngestFigures> {
    const { index = 'bench', batchSize = 5000, explicitIds = false, shards = 1 } = options;
    const port = this.port;
    await expectOk(
      call(port, 'PUT', `/${index}`, JSON.stringify({ settings: { number_of_shards: shards, number_of_replicas: 0, refresh_interval: '-1' }, mappings: corpusMappings(spec) })),
      'create index',
    );
    const action = Buffer.from(`{"index":{"_index":"${index}"}}\n`);
    let bytes = 0;
    const pids = this.pids;
    const cpuBefore = pids.map(processCpuMillis);
    // BENCH_THREADS=1: each thread's share too (which of a process's threads pays).
    const threadsBefore = process.env['BENCH_THREADS'] === undefined ? undefined : pids.map(threadCpuMillis);
    const start = process.hrtime.bigint();
    for (let i = 0; i < lines.length; i += batchSize) {
      const parts: Buffer[] = [];
      lines.slice(i, i + batchSize).forEach((line, j) => {
        const doc = Buffer.from(line + '\n');
        bytes += doc.length;
        // Generated ids take the append-only path (no id lookup), explicit ones the versioned path.
        parts.push(explicitIds ? Buffer.from(`{"index":{"_index":"${index}","_id":"${i + j}"}}\n`) : action, doc);
      });
      const body = await expectOk(call(port, 'POST', '/_bulk', Buffer.concat(parts), 'application/x-ndjson'), 'bulk');
      if (body.errors) throw new Error(`bulk reported item errors: ${JSON.stringify(body.items.find((i: any) => Object.values(i as object)[0].error)).slice(0, 300)}`);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const cpuPer1000 = cpuPer1000Since(pids, cpuBefore, lines.length);
    threadsBefore?.forEach((before, i) => console.log(`  ${index}, process ${i}: threads' CPU ms per 1,000 docs: ${threadCpuText(pids[i]!, before, lines.length)}`));
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
      peakRssBytes: this.peakRssBytes(),
      cpuPer1000,
    };
  }

  async forceMerge(index = 'bench'): Promise<void> {
    await expectOk(call(this.port, 'POST', `/${index}/_forcemerge?max_num_segments=1`), 'force merge');
  }

  /**
   * Runs the query set `warmupPasses + passes` times with `clients` concurrent clients over HTTP. QPS is the
   * measured passes' queries over their wall time; latencies are per request as the client saw them.
   */
  async search(spec: CorpusSpec, queries: Query[], options: SearchOptions = {}): Promise<SearchFigures> {
    const { index = 'bench', passes = 5, warmupPasses = 2, clients = 1 } = options;
    const port = this.port;
    const bodies = queries.map((query) => JSON.stringify({ size: 10, _source: [spec.idField], query: queryDsl(spec.textField, query) }));
    const latencies: number[] = [];
    const top10 = new Map<string, string[]>();
    let measuredNanos = 0n;
    for (let pass = 0; pass < warmupPasses + passes; pass++) {
      const measured = pass >= warmupPasses;
      const last = pass === warmupPasses + passes - 1;
      let next = 0;
      const client = async () => {
        while (next < queries.length) {
          const i = next++;
          const t0 = process.hrtime.bigint();
          const body = await expectOk(call(port, 'POST', `/${index}/_search`, bodies[i]), 'search');
          if (measured) latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (last) top10.set(queries[i]!.qid, body.hits.hits.map((hit: any) => hit._source[spec.idField]));
        }
      };
      const passStart = process.hrtime.bigint();
      await Promise.all(Array.from({ length: clients }, client));
      if (measured) measuredNanos += process.hrtime.bigint() - passStart;
    }
    return { qps: latencies.length / (Number(measuredNanos) / 1e9), p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), top10 };
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
