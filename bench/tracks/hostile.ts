/**
 * The hostile track (issue 18): how the operator's commands (`_cluster/health`, `_cat/tasks`, `_tasks`) answer
 * while each request of the issue's measured list runs against a node holding the npm corpus, and how long a
 * cancel of the culprit takes. Probes go out every 100 ms whether or not the previous one answered
 * (test/helpers/ops-probe.ts), so a frozen node shows as many slow probes.
 *
 * Each case runs for a window (`--seconds`, default 5): the culprit is sent, and sent again when it answers,
 * until the window ends; a culprit still running then is cancelled through `_tasks/_cancel` (the cancel's
 * latency is reported) and awaited up to `--cap` seconds (default 60). A node that still does not answer
 * health after that is killed and restarted on its data, and the case says so.
 *
 * `--node-entry <dir>/dist/src/cli/run.js` measures another build (the "before" column of BENCHMARKS.md).
 */
import { NodeProcess, rawRequest, type HttpResult } from '../../test/helpers/node-process.js';
import { OpsProbe, type ProbeSummary } from '../../test/helpers/ops-probe.js';
import { HOSTILE_CASES, errorType, type HostileCase } from '../../test/helpers/hostile-requests.js';
import { corpusSpec, readCorpusLines } from '../lib/corpus.js';
import { newTrackResult, type TrackResult } from '../lib/report.js';

export interface HostileOptions {
  limit: number;
  seconds: number;
  capSeconds: number;
  nodeEntry: string | undefined;
  cases: string | undefined;
}

const INDEX = 'npm';

export async function hostileTrack(options: HostileOptions): Promise<TrackResult> {
  const result = newTrackResult('hostile', 1, [], 'npm');
  let node = await startNode(options, undefined);
  try {
    const lines = await ingest(node, options.limit);
    const idle = await measureIdle(node);
    result.results.push({ engine: 'idle', metrics: probeMetrics(idle) });
    process.stderr.write(`idle: p50 ${idle.p50Millis.toFixed(1)} p99 ${idle.p99Millis.toFixed(1)}\n`);
    for (const load of LOADS.filter((l) => options.cases === undefined || options.cases.split(',').some((part) => l.name.includes(part)))) {
      const outcome = await runLoad(node, load, lines, options);
      result.results.push({ engine: load.name, metrics: outcome.metrics, notes: outcome.notes });
      process.stderr.write(`${load.name}: ${JSON.stringify(outcome.metrics)} ${outcome.notes.join('; ')}\n`);
    }
    const selected = HOSTILE_CASES.filter((c) => options.cases === undefined || options.cases.split(',').some((part) => c.name.includes(part)));
    for (const hostile of selected) {
      const outcome = await runCase(node, hostile, options);
      result.results.push({ engine: hostile.name, metrics: outcome.metrics, notes: outcome.notes });
      process.stderr.write(`${hostile.name}: ${JSON.stringify(outcome.metrics)} ${outcome.notes.join('; ')}\n`);
      if (outcome.restart) node = await restart(node, options);
    }
  } finally {
    await node.stop();
  }
  return result;
}

async function startNode(options: HostileOptions, dataPath: string | undefined): Promise<NodeProcess> {
  return NodeProcess.start({
    settings: { 'node.name': 'hostile' },
    ...(dataPath !== undefined && { dataPath }),
    keepData: true,
    ...(options.nodeEntry !== undefined && { entry: options.nodeEntry }),
  });
}

async function restart(node: NodeProcess, options: HostileOptions): Promise<NodeProcess> {
  await node.kill9();
  const restarted = await startNode(options, node.dataPath);
  await waitForHealth(restarted, 600_000);
  return restarted;
}

async function ingest(node: NodeProcess, limit: number): Promise<string[]> {
  const created = await node.request('PUT', `/${INDEX}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  if (created.status !== 200) throw new Error(`create index: ${created.text}`);
  const lines = await readCorpusLines(corpusSpec('npm'), limit);
  for (let i = 0; i < lines.length; i += 5000) {
    const body = lines.slice(i, i + 5000).map((line) => `{"index":{}}\n${line}\n`).join('');
    const bulk = await node.request('POST', `/${INDEX}/_bulk`, { raw: body, headers: { 'content-type': 'application/x-ndjson' } });
    if (bulk.status !== 200 || bulk.body.errors) throw new Error(`bulk: ${bulk.text.slice(0, 300)}`);
  }
  await node.request('POST', `/${INDEX}/_refresh`);
  process.stderr.write(`ingested ${lines.length} npm documents\n`);
  return lines;
}

/** Ordinary heavy load (issue 18): four clients flat out, the operator's commands probed meanwhile. */
interface Load {
  readonly name: string;
  /** One request of one client; `i` counts that client's requests. */
  send(node: NodeProcess, lines: readonly string[], client: number, i: number): Promise<HttpResult>;
}

const LOAD_CLIENTS = 4;

const LOADS: readonly Load[] = [
  {
    name: 'load: 4 clients bulk indexing',
    send: (node, lines, client, i) => {
      const start = ((client * 7919 + i * 1000) % Math.max(1, lines.length - 1000)) | 0;
      const body = lines.slice(start, start + 1000).map((line) => `{"index":{}}\n${line}\n`).join('');
      return node.request('POST', `/${INDEX}-load/_bulk`, { raw: body, headers: { 'content-type': 'application/x-ndjson' } });
    },
  },
  {
    name: 'load: 4 clients searching and aggregating',
    send: (node, _lines, client, i) => {
      const terms = ['react', 'plugin', 'node', 'css', 'api', 'test', 'cli', 'util', 'server', 'data'];
      const query = `${terms[(client + i) % terms.length]} ${terms[(client * 3 + i * 7) % terms.length]}`;
      return node.request('POST', `/${INDEX}/_search`, {
        body: {
          query: { match: { summary: query } },
          aggs: { names: { terms: { field: 'name.keyword', size: 50 } }, downloads: { histogram: { field: 'downloads', interval: 1_000_000 } }, versions: { terms: { field: 'version.keyword', size: 20 } } },
        },
      });
    },
  },
];

async function runLoad(node: NodeProcess, load: Load, lines: readonly string[], options: HostileOptions): Promise<CaseOutcome> {
  // Ten probes a second of each command, as the issue measured.
  const probe = OpsProbe.start({ port: node.port, intervalMillis: 33 });
  const windowEnds = performance.now() + options.seconds * 1000;
  const statuses = new Map<number, number>();
  let sends = 0;
  await Promise.all(
    Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
      for (let i = 0; performance.now() < windowEnds; i++) {
        sends++;
        const answer = await load.send(node, lines, client, i).catch(() => ({ status: 0 }) as HttpResult);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }),
  );
  const summary = probe.stop();
  return {
    metrics: { ...probeMetrics(summary), sends, req_per_s: sends / options.seconds },
    notes: [`answers: ${[...statuses].map(([status, n]) => `${n}x ${status}`).join(', ')}`],
    restart: false,
  };
}

async function measureIdle(node: NodeProcess): Promise<ProbeSummary> {
  const probe = OpsProbe.start({ port: node.port });
  await sleep(3000);
  return probe.stop();
}

interface CaseOutcome {
  metrics: Record<string, number | undefined>;
  notes: string[];
  restart: boolean;
}

async function runCase(node: NodeProcess, hostile: HostileCase, options: HostileOptions): Promise<CaseOutcome> {
  const notes: string[] = [];
  const probe = OpsProbe.start({ port: node.port });
  const windowEnds = performance.now() + options.seconds * 1000;
  const answers: HttpResult[] = [];
  const durations: number[] = [];
  let sends = 0;
  let cancelMillis: number | undefined;
  let running: Promise<void> = Promise.resolve();
  let settled = true;
  const sendOnce = (): void => {
    settled = false;
    sends++;
    const started = performance.now();
    running = hostile.send(node.port, INDEX).then(
      (results) => {
        durations.push(performance.now() - started);
        answers.push(...results);
        settled = true;
      },
      (err: Error) => {
        durations.push(performance.now() - started);
        notes.push(`request failed: ${err.message}`);
        settled = true;
      },
    );
  };
  sendOnce();
  while (performance.now() < windowEnds) {
    await Promise.race([running, sleep(Math.max(1, windowEnds - performance.now()))]);
    if (settled && performance.now() < windowEnds) sendOnce();
  }
  if (!settled && hostile.cancelActions !== undefined) {
    const cancelStarted = performance.now();
    const cancel = await Promise.race([
      rawRequest(node.port, 'POST', `/_tasks/_cancel?actions=${encodeURIComponent(hostile.cancelActions)}`),
      sleep(options.capSeconds * 1000).then(() => undefined),
    ]);
    cancelMillis = cancel === undefined ? undefined : performance.now() - cancelStarted;
    if (cancel === undefined) notes.push(`cancel unanswered after ${options.capSeconds}s`);
  }
  const finished = await Promise.race([running.then(() => true), sleep(options.capSeconds * 1000).then(() => false)]);
  const summary = probe.stop();
  let restart = false;
  if (!finished) {
    notes.push(`culprit still running ${options.capSeconds}s after the window`);
    restart = !(await waitForHealth(node, options.capSeconds * 1000));
    if (restart) notes.push('node unresponsive: killed and restarted');
  }
  const statuses = new Map<string, number>();
  for (const answer of answers) {
    const label = `${answer.status}${errorType(answer) ? ' ' + errorType(answer) : ''}`;
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
  }
  notes.push(`answers: ${[...statuses].map(([label, n]) => `${n}x ${label}`).join(', ') || 'none'}`);
  const first = answers.find((answer) => answer.status >= 400);
  if (first !== undefined) notes.push(`first error: ${String(first.body?.error?.root_cause?.[0]?.reason ?? first.text).slice(0, 200)}`);
  return {
    metrics: {
      ...probeMetrics(summary),
      sends,
      culprit_ms: durations.length > 0 ? Math.max(...durations) : undefined,
      cancel_ms: cancelMillis,
    },
    notes,
    restart,
  };
}

function probeMetrics(summary: ProbeSummary): Record<string, number> {
  return { probes: summary.count, p50_ms: summary.p50Millis, p99_ms: summary.p99Millis, max_ms: summary.maxMillis, unanswered: summary.unanswered };
}

async function waitForHealth(node: NodeProcess, millis: number): Promise<boolean> {
  const deadline = performance.now() + millis;
  while (performance.now() < deadline) {
    const answered = await Promise.race([node.request('GET', '/_cluster/health').then(() => true, () => false), sleep(2000).then(() => false)]);
    if (answered) return true;
  }
  return false;
}

function sleep(millis: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, millis));
}
