/**
 * Lucene 8 (the engine inside ES 7) run through the kit in ../shared/bench-peers: it indexes the corpus single
 * threaded, in process, then runs the query set before and after a force-merge, and reports its own figures.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { sharedDir, type CorpusSpec } from '../lib/corpus.js';

export interface LuceneQueryFigures {
  qps: number;
  p50_ms: number;
  p99_ms: number;
}

export interface LuceneFigures {
  docsPerSecond: number;
  indexSeconds: number;
  sizeBytes: number;
  sizeMergedBytes: number;
  queryAsIndexed: LuceneQueryFigures;
  queryMerged: LuceneQueryFigures;
  /** qid -> top-10 ids in rank order, with scores. */
  top10: Map<string, { ids: string[]; scores: number[]; total: number }>;
}

export function javaAvailable(): boolean {
  try {
    execFileSync('javac', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function plainCorpus(spec: CorpusSpec): Promise<string> {
  const target = join(tmpdir(), `gannet-bench-${spec.name}.ndjson`);
  if (!existsSync(target) || statSync(target).mtimeMs < statSync(spec.file).mtimeMs) {
    await pipeline(createReadStream(spec.file), createGunzip(), createWriteStream(target));
  }
  return target;
}

export async function runLucene(spec: CorpusSpec): Promise<LuceneFigures> {
  const kit = join(sharedDir(), 'bench-peers');
  const corpus = await plainCorpus(spec);
  const prefix = join(tmpdir(), `gannet-bench-lucene-${spec.name}-${process.pid}`);
  execFileSync(join(kit, 'run-lucene.sh'), [corpus, spec.queries, prefix, spec.idField, spec.textField], { stdio: ['ignore', 'ignore', 'inherit'] });
  const summary = JSON.parse(readFileSync(`${prefix}.summary.json`, 'utf8')) as Record<string, any>;
  const top10 = new Map<string, { ids: string[]; scores: number[]; total: number }>();
  for (const line of readFileSync(`${prefix}.top10.jsonl`, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { qid: string; ids: string[]; scores: number[]; total: number };
    top10.set(entry.qid, entry);
  }
  const figures = (q: Record<string, number>): LuceneQueryFigures => ({ qps: q['qps']!, p50_ms: q['p50_ms']!, p99_ms: q['p99_ms']! });
  return {
    docsPerSecond: summary['docs_per_s'],
    indexSeconds: summary['index_s'],
    sizeBytes: summary['size_bytes'],
    sizeMergedBytes: summary['size_merged_bytes'],
    queryAsIndexed: figures(summary['query_multi']),
    queryMerged: figures(summary['query_merged']),
    top10,
  };
}
