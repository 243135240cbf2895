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

/** A plain-text table: one row per engine, one column per metric, then Gannet's ratios to each peer. */
export function renderTable(result: TrackResult): string {
  const metrics = [...new Set(result.results.flatMap((r) => Object.keys(r.metrics)))];
  const header = ['engine', ...metrics];
  const rows = result.results.map((r) => (r.unavailable ? [r.engine, `unavailable: ${r.unavailable}`] : [r.engine, ...metrics.map((m) => formatNumber(r.metrics[m]))]));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row.length > 2 || i < 2 ? (row[i] ?? '').length : 0))));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const out = [`${result.track}${result.corpus ? ' (' + result.corpus + ')' : ''} — ${result.runs} run(s), commit ${result.commit}`, line(header)];
  for (const row of rows) out.push(row.length === 2 && row[1]!.startsWith('unavailable') ? `${row[0]!.padEnd(widths[0]!)}  ${row[1]}` : line(row));
  const gannet = result.results.find((r) => r.engine.startsWith('gannet') && !r.unavailable);
  const peers = result.results.filter((r) => !r.engine.startsWith('gannet') && !r.unavailable && r.engine !== 'bench process');
  if (gannet && peers.length > 0) {
    out.push('', 'gannet as a ratio to each peer (>1 is better for gannet):');
    for (const peer of peers) {
      const ratios = metrics
        .filter((m) => gannet.metrics[m] !== undefined && peer.metrics[m] !== undefined && peer.metrics[m] !== 0)
        .map((m) => {
          const raw = gannet.metrics[m]! / peer.metrics[m]!;
          const better = result.higherIsBetter.includes(m) ? raw : 1 / raw;
          return `${m} ${better.toFixed(2)}x`;
        });
      out.push(`  vs ${peer.engine}: ${ratios.join(', ')}`);
    }
  }
  return out.join('\n');
}
