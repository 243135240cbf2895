/**
 * Reindex speed and cancel latency, on one node through HTTP, against the raw `_bulk` rate measured in
 * the same run, for Gannet and each server peer (`--peer opensearch`: the same steps, one server after the other):
 *   1. the corpus through `_bulk` into a one-shard source index (the ingest track's code): the raw rate;
 *   2. `_reindex` of that index into a new one-shard index with `wait_for_completion=true`: docs/s and
 *      the ratio to the raw rate (goal: >= 0.6);
 *   3. the same from a 4-shard copy with `slices=auto`;
 *   4. N cancels at random moments (seeded): start a reindex with `wait_for_completion=false`, wait
 *      50-2000 ms, `POST /_tasks/<id>/_cancel?wait_for_completion=true`. Measured: the cancel request's
 *      round trip, which bounds "cancel request -> last write" because the answer comes only once the task
 *      and its children stopped; and that bound checked directly, by polling the destination's
 *      `indexing.index_total` throughout and taking when its final value first showed. Afterwards the
 *      destination's count must not change (refresh, count, wait, refresh, count), and it must equal the
 *      `created` count of the task's stored result. Goal: p99 < 100 ms.
 */
import { corpusSpec, readCorpusLines, type CorpusSpec } from '../lib/corpus.js';
import { percentile, summarize } from '../lib/stats.js';
import { newTrackResult, unavailableReason, type EngineResult, type TrackResult } from '../lib/report.js';
import { call, corpusMappings, expectOk, type SearchServer } from '../peers/http-server.js';
import { watchIndexTotal } from '../lib/write-watcher.js';
import { serverLineup, type ServerEntry } from '../lib/servers.js';

export interface ReindexTrackOptions {
  corpus: string;
  limit: number;
  cancels: number;
  seed: number;
  serverPeers: string[];
}

const SOURCE = 'reindex-src';
const SHARDED_SOURCE = 'reindex-src-4';
const SHARDS_OF_SHARDED_SOURCE = 4;
const SETTLE_MS = 500;

interface CancelRun {
  delayMs: number;
  /** POST _cancel?wait_for_completion=true round trip. */
  cancelMs: number;
  /** When the destination's write counter last changed, relative to the cancel request (<= 0: before it). */
  lastWriteMs: number;
  /** The longest gap between two polls of the write counter around this run: the precision of lastWriteMs. */
  pollGapMs: number;
  countAtResponse: number;
  countChangedAfter: boolean;
  createdInTask: number | undefined;
  canceledReason: string | undefined;
  /** The reindex had already finished when the cancel came (nothing to cancel). */
  finishedFirst: boolean;
}

export async function reindexTrack(options: ReindexTrackOptions): Promise<TrackResult> {
  const spec = corpusSpec(options.corpus);
  const lines = await readCorpusLines(spec, options.limit);
  const result = newTrackResult('reindex', 1, ['docs_per_s', 'ratio_to_bulk'], spec.name);
  const lineup = await serverLineup(options.serverPeers);
  for (const entry of lineup.servers) result.results.push(...(await serverRows(entry, spec, lines, options)));
  result.results.push(...lineup.skipped);
  return result;
}

async function serverRows(entry: ServerEntry, spec: CorpusSpec, lines: string[], options: ReindexTrackOptions): Promise<EngineResult[]> {
  const rows: EngineResult[] = [];
  const row = (what: string, metrics: EngineResult['metrics'], notes?: string[]) => rows.push({ engine: entry.name, case: what, metrics, ...(notes ? { notes } : {}) });
  let server: SearchServer | undefined;
  try {
    server = await entry.start();
    const port = server.port;
    await server.warmUp(spec, lines);
    const ingest = await server.ingest(spec, lines, { index: SOURCE });
    row('_bulk into 1 shard (raw rate)', { docs: lines.length, docs_per_s: ingest.docsPerSecond, seconds: ingest.seconds });
    const raw = ingest.docsPerSecond;
    // For context: the same documents with explicit ids, the versioned write path reindexed documents take (the
    // raw rate above uses generated ids, which skip the id lookup: ES's append-only path).
    const withIds = await server.ingest(spec, lines, { index: 'bulk-explicit-ids', explicitIds: true });
    row('_bulk into 1 shard, explicit ids (context)', { docs: lines.length, docs_per_s: withIds.docsPerSecond, seconds: withIds.seconds, ratio_to_bulk: withIds.docsPerSecond / raw });
    await call(port, 'DELETE', '/bulk-explicit-ids');

    const plain = await timedReindex(port, spec, SOURCE, 'reindex-dst', lines.length);
    row('_reindex 1 shard -> 1 shard', reindexMetrics(plain, raw));

    try {
      await createIndex(port, spec, SHARDED_SOURCE, SHARDS_OF_SHARDED_SOURCE);
      await expectOk(call(port, 'POST', '/_reindex?wait_for_completion=true&refresh=true', JSON.stringify({ source: { index: SOURCE }, dest: { index: SHARDED_SOURCE } })), 'reindex into the sharded source');
      const sliced = await timedReindex(port, spec, SHARDED_SOURCE, 'reindex-dst-sliced', lines.length, 'auto');
      row(`_reindex ${SHARDS_OF_SHARDED_SOURCE} shards -> 1 shard, slices=auto`, reindexMetrics(sliced, raw));
      await call(port, 'DELETE', `/${SHARDED_SOURCE},reindex-dst-sliced`);
    } catch (err) {
      rows.push({ engine: entry.name, case: '_reindex slices=auto', metrics: {}, unavailable: unavailableReason(err, `${entry.name} _reindex slices=auto`) });
    }
    await call(port, 'DELETE', '/reindex-dst');

    const cancels = await cancelRuns(port, spec, options);
    row('cancel during _reindex', { runs: cancels.runs, cancelled_mid_way: cancels.cancelled, ...cancels.metrics, peak_rss_mb: (server.peakRssBytes() ?? 0) / 1e6 }, cancels.notes);
  } catch (err) {
    rows.push({ engine: entry.name, case: '_reindex', metrics: {}, unavailable: unavailableReason(err, `${entry.name} reindex track`) });
  } finally {
    await server?.stop();
  }
  return rows;
}

interface TimedReindex {
  seconds: number;
  docs: number;
  batches: number | undefined;
}

async function timedReindex(port: number, spec: CorpusSpec, source: string, dest: string, expectedDocs: number, slices?: string): Promise<TimedReindex> {
  await createIndex(port, spec, dest, 1);
  const start = performance.now();
  const query = slices === undefined ? '' : `&slices=${slices}`;
  const body = await expectOk(call(port, 'POST', `/_reindex?wait_for_completion=true${query}`, JSON.stringify({ source: { index: source }, dest: { index: dest } })), `reindex ${source} -> ${dest}`);
  const seconds = (performance.now() - start) / 1000;
  if (body.created !== expectedDocs) throw new Error(`reindex ${source} -> ${dest} created ${body.created} documents, expected ${expectedDocs}: ${JSON.stringify(body).slice(0, 300)}`);
  await expectOk(call(port, 'POST', `/${dest}/_refresh`), 'refresh');
  const count = await expectOk(call(port, 'GET', `/${dest}/_count`), 'count');
  if (count.count !== expectedDocs) throw new Error(`${dest} holds ${count.count} documents after the reindex, expected ${expectedDocs}`);
  return { seconds, docs: body.created, batches: body.batches };
}

function reindexMetrics(run: TimedReindex, rawDocsPerSecond: number): EngineResult['metrics'] {
  const docsPerSecond = run.docs / run.seconds;
  return { docs: run.docs, docs_per_s: docsPerSecond, seconds: run.seconds, ratio_to_bulk: docsPerSecond / rawDocsPerSecond, batches: run.batches };
}

interface CancelFigures {
  runs: number;
  cancelled: number;
  metrics: EngineResult['metrics'];
  notes: string[];
}

async function cancelRuns(port: number, spec: CorpusSpec, options: ReindexTrackOptions): Promise<CancelFigures> {
  const random = mulberry32(options.seed);
  const runs: CancelRun[] = [];
  for (let i = 0; i < options.cancels; i++) {
    const dest = `reindex-cancel-${i}`;
    await createIndex(port, spec, dest, 1);
    const delayMs = Math.round(50 + random() * 1950);
    const watch = watchIndexTotal(port, dest);
    const started = await expectOk(call(port, 'POST', '/_reindex?wait_for_completion=false', JSON.stringify({ source: { index: SOURCE }, dest: { index: dest } })), 'start reindex');
    const taskId: string = started.task;
    await sleep(delayMs);
    const cancelAt = performance.now();
    const cancel = await call(port, 'POST', `/_tasks/${taskId}/_cancel?wait_for_completion=true`);
    const cancelMs = performance.now() - cancelAt;
    // Keep watching a while: a write that lands after the answer would show up here.
    await sleep(SETTLE_MS);
    const watched = await watch.stop();
    const cancelledTasks = Object.values((cancel.body?.nodes ?? {}) as Record<string, { tasks?: Record<string, unknown> }>).flatMap((node) => Object.keys(node.tasks ?? {}));
    await expectOk(call(port, 'POST', `/${dest}/_refresh`), 'refresh');
    const first = (await expectOk(call(port, 'GET', `/${dest}/_count`), 'count')).count as number;
    await sleep(SETTLE_MS);
    await expectOk(call(port, 'POST', `/${dest}/_refresh`), 'refresh');
    const second = (await expectOk(call(port, 'GET', `/${dest}/_count`), 'count')).count as number;
    const stored = await call(port, 'GET', `/_tasks/${taskId}?wait_for_completion=true&timeout=30s`);
    runs.push({
      delayMs,
      cancelMs,
      lastWriteMs: watched.firstSeenAt - cancelAt,
      pollGapMs: watched.maxPollGapMs,
      countAtResponse: first,
      countChangedAfter: first !== second,
      createdInTask: stored.body?.response?.created ?? stored.body?.task?.status?.created,
      canceledReason: stored.body?.response?.canceled ?? stored.body?.task?.status?.canceled,
      finishedFirst: cancelledTasks.length === 0,
    });
    await call(port, 'DELETE', `/${dest}`);
  }
  const cancelled = runs.filter((run) => !run.finishedFirst);
  const cancelTimes = cancelled.map((run) => run.cancelMs);
  const lastWrites = cancelled.map((run) => Math.max(0, run.lastWriteMs));
  const notes = runs.map(
    (run, i) =>
      `run ${i}: wait ${run.delayMs} ms, cancel ${run.cancelMs.toFixed(1)} ms, last write ${run.lastWriteMs.toFixed(1)} ms (poll gap <= ${run.pollGapMs.toFixed(1)} ms), ` +
      `count ${run.countAtResponse}${run.countChangedAfter ? ' CHANGED AFTER THE CANCEL' : ''}, task created ${run.createdInTask ?? '?'}, canceled ${run.canceledReason ?? '-'}${run.finishedFirst ? ', finished before the cancel' : ''}`,
  );
  return {
    runs: runs.length,
    cancelled: cancelled.length,
    metrics: {
      cancel_p50_ms: percentile(cancelTimes, 50),
      cancel_p99_ms: percentile(cancelTimes, 99),
      cancel_max_ms: summarize(cancelTimes).max,
      last_write_p50_ms: percentile(lastWrites, 50),
      last_write_p99_ms: percentile(lastWrites, 99),
      last_write_max_ms: summarize(lastWrites).max,
      max_poll_gap_ms: Math.max(...runs.map((run) => run.pollGapMs)),
      count_changed_after: runs.filter((run) => run.countChangedAfter).length,
      created_differs_from_count: runs.filter((run) => run.createdInTask !== undefined && run.createdInTask !== run.countAtResponse).length,
      not_reported_canceled: cancelled.filter((run) => run.canceledReason === undefined).length,
    },
    notes,
  };
}

async function createIndex(port: number, spec: CorpusSpec, index: string, shards: number): Promise<void> {
  // The source's settings and mapping (ingest track), so the copy does the same indexing work as the raw bulk.
  await expectOk(
    call(port, 'PUT', `/${index}`, JSON.stringify({
      settings: { number_of_shards: shards, number_of_replicas: 0, refresh_interval: '-1' },
      mappings: corpusMappings(spec),
    })),
    `create ${index}`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded generator, so the random cancel moments are the same on every run with the same seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
