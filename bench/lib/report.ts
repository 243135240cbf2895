/**
 * Results of a benchmark invocation: every engine's figures side by side, Gannet as a ratio to each peer,
 * written as JSON (bench/results/) and printed as a table.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';

export interface EngineResult {
  engine: string;
  /**
   * What was measured when a track measures several things per engine (an endpoint, a shard count, a number of
   * clients): rows with the same case are compared with each other, Gannet's row against each peer's.
   */
  case?: string;
  /** Metric name -> value; higher-is-better metrics are listed in the track's `higherIsBetter`. */
  metrics: Record<string, number | undefined>;
  /** Why the engine produced no figures (not built yet, failed). */
  unavailable?: string;
  notes?: string[];
}

export interface TrackResult {
  track: string;
  corpus?: string;
  commit: string;
  command: string;
  date: string;
  machine: { cpus: number; model: string; node: string };
  runs: number;
  higherIsBetter: string[];
  results: EngineResult[];
}

/**
 * The commit the running build was compiled from, as scripts/stamp-build.mjs recorded it in the build's
 * build-info.json ("<commit>+dirty" when src/ or bench/ had uncommitted changes). Not the repository's HEAD:
 * a build in /tmp/build-X may be of another commit than the tree is at now. Without the file the commit is
 * not known, and the label says so.
 */
/**
 * The table's reason for a failed server or step: the error's first line. The whole message (for a server that
 * would not start, its last log lines) goes to stderr, so that the cause is on record beside the table.
 */
export function unavailableReason(err: unknown, context: string): string {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`${context} failed: ${message}\n`);
  return message.split('\n')[0] ?? '';
}

export function buildCommit(): string {
  // This file runs as <build>/bench/lib/report.js.
  const buildRoot = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
  try {
    const info = JSON.parse(readFileSync(join(buildRoot, 'build-info.json'), 'utf8')) as { commit?: unknown; dirty?: unknown };
    if (typeof info.commit !== 'string' || info.commit === '') throw new Error('no commit');
    return info.dirty === true ? `${info.commit}+dirty` : info.commit;
  } catch {
    return `unknown (build dir ${buildRoot})`;
  }
}

export function newTrackResult(track: string, runs: number, higherIsBetter: string[], corpus?: string): TrackResult {
  return {
    track,
    corpus,
    commit: buildCommit(),
    command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    runs,
    higherIsBetter,
    results: [],
  };
}

export function saveResult(result: TrackResult, outFile?: string): string {
  const dir = join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = outFile ?? join(dir, `${result.track}${result.corpus ? '-' + result.corpus : ''}-${result.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
  return file;
}

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

/** Counts and checks, shown in the table but not turned into ratios (a ratio of equal counts says nothing). */
const NOT_RATIOS = new Set(['docs', 'requests', 'runs', 'batches', 'cancelled_mid_way', 'failed_requests', 'load_failed_bulks', 'agrees_with_brute_force', 'seconds', 'count_changed_after', 'created_differs_from_count', 'not_reported_canceled', 'max_poll_gap_ms']);

/** A plain-text table: one row per engine (and case), one column per metric, then Gannet's ratios to each peer. */
export function renderTable(result: TrackResult): string {
  const metrics = [...new Set(result.results.flatMap((r) => Object.keys(r.metrics)))];
  const cased = result.results.some((r) => r.case !== undefined);
  const labels = (r: EngineResult) => (cased ? [r.engine, r.case ?? ''] : [r.engine]);
  const header = [...(cased ? ['engine', 'case'] : ['engine']), ...metrics];
  const measured = result.results.filter((r) => !r.unavailable);
  const rows = measured.map((r) => [...labels(r), ...metrics.map((m) => formatNumber(r.metrics[m]))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const labelColumns = cased ? 2 : 1;
  const line = (cells: string[]) => cells.map((cell, i) => (i < labelColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const out = [`${result.track}${result.corpus ? ' (' + result.corpus + ')' : ''} — ${result.runs} run(s), commit ${result.commit}`, line(header)];
  for (const row of rows) out.push(line(row));
  for (const r of result.results.filter((r) => r.unavailable)) out.push(`${labels(r).filter(Boolean).join(' / ')}  unavailable: ${r.unavailable}`);
  // Rows without a case (in-process peers of a track that also has cased rows) are compared within every case.
  const groups = cased ? [...new Set(measured.flatMap((r) => (r.case === undefined ? [] : [r.case])))] : [undefined];
  const ratioLines: string[] = [];
  for (const group of groups) {
    const inGroup = measured.filter((r) => group === undefined || r.case === undefined || r.case === group);
    const gannet = inGroup.find((r) => r.engine.startsWith('gannet'));
    const peers = inGroup.filter((r) => !r.engine.startsWith('gannet') && r.engine !== 'bench process');
    if (!gannet) continue;
    for (const peer of peers) {
      const ratios = metrics
        // A zero on either side has no ratio (a cancel whose last write came before the request: 0 ms).
        .filter((m) => !NOT_RATIOS.has(m) && !!gannet.metrics[m] && !!peer.metrics[m] && Number.isFinite(gannet.metrics[m]! / peer.metrics[m]!))
        .map((m) => {
          const raw = gannet.metrics[m]! / peer.metrics[m]!;
          const better = result.higherIsBetter.includes(m) ? raw : 1 / raw;
          return `${m} ${better.toFixed(2)}x`;
        });
      if (ratios.length > 0) ratioLines.push(`  ${group ? group + ': ' : ''}vs ${peer.engine}: ${ratios.join(', ')}`);
    }
  }
  if (ratioLines.length > 0) out.push('', 'gannet as a ratio to each peer (>1 is better for gannet):', ...ratioLines);
  return out.join('\n');
}
