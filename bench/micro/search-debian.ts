/**
 * Shared by the search micro-benchmarks: the Debian corpus indexed into one segment (field `description`,
 * standard analyzer, id `package`) with the search tests' indexer, the 200 Debian queries mapped the way
 * the Lucene kit maps them, and a runner for the Lucene kit in ../shared/bench-peers.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { buildSearcher, type TestDoc } from '../../test/unit/search/helpers/test-indexer.js';
import type { Searcher } from '../../src/engine/searcher.js';
import { BooleanQuery, PhraseQuery, TermQuery, type Query } from '../../src/search/index.js';
import { corpusPath } from './corpus.js';

export interface DebianQuery {
  readonly qid: string;
  readonly type: 'term' | 'or' | 'and' | 'phrase';
  readonly terms: readonly string[];
}

export const TEXT_FIELD = 'description';
export const ID_FIELD = 'package';

function sharedPath(...parts: string[]): string {
  const candidates = [join(process.cwd(), '..', 'shared', ...parts), join('/work/shared', ...parts)];
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}

export function readQueries(): DebianQuery[] {
  return readFileSync(sharedPath('corpus', 'queries-debian.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as DebianQuery);
}

/** The Lucene kit's mapping: term -> TermQuery, or -> SHOULD, and -> MUST, phrase -> PhraseQuery. */
export function toQuery(query: DebianQuery): Query {
  switch (query.type) {
    case 'term':
      return new TermQuery(TEXT_FIELD, query.terms[0]!);
    case 'or':
      return BooleanQuery.of('should', query.terms.map((term) => new TermQuery(TEXT_FIELD, term)));
    case 'and':
      return BooleanQuery.of('must', query.terms.map((term) => new TermQuery(TEXT_FIELD, term)));
    case 'phrase':
      return new PhraseQuery(TEXT_FIELD, query.terms);
  }
}

export function readDocs(): TestDoc[] {
  const all = gunzipSync(readFileSync(corpusPath())).toString('utf8');
  const docs: TestDoc[] = [];
  for (const line of all.split('\n')) {
    if (line.length === 0) continue;
    const record = JSON.parse(line) as Record<string, unknown>;
    // The Lucene kit indexes a missing description as "" (no tokens), which is what an absent value gives here.
    docs.push({ id: String(record[ID_FIELD]), source: { [ID_FIELD]: record[ID_FIELD], [TEXT_FIELD]: record[TEXT_FIELD] ?? '' } });
  }
  return docs;
}

/**
 * One segment laid out like the Lucene kit's: only the id is stored (no `_source`), LZ4-compressed as
 * Lucene's default codec does, so fetching the ids of the hits is the same work on both sides.
 */
export async function debianSearcher(docs: readonly TestDoc[]): Promise<Searcher> {
  return buildSearcher([docs], { [TEXT_FIELD]: { type: 'text' } }, { storeSource: false, storedCompression: 'lz4' });
}

export interface LuceneRun {
  readonly summary: Record<string, unknown>;
  /** qid -> ids and scores (Float.toString text parsed as numbers). */
  readonly top10: Map<string, { ids: string[]; scores: number[]; total: number }>;
  readonly top100: Map<string, { ids: string[]; scores: number[]; total: number }>;
}

function readHits(path: string): Map<string, { ids: string[]; scores: number[]; total: number }> {
  const hits = new Map<string, { ids: string[]; scores: number[]; total: number }>();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as { qid: string; ids: string[]; scores: number[]; total: number };
    hits.set(entry.qid, entry);
  }
  return hits;
}

/** Runs the Lucene 8 kit on the Debian corpus (or reads an earlier run's files when `prefix` is given). */
export async function runLuceneKit(prefix?: string): Promise<LuceneRun> {
  let out = prefix;
  if (out === undefined) {
    const corpus = join(tmpdir(), 'gannet-search-debian.ndjson');
    if (!existsSync(corpus)) {
      await new Promise<void>((resolve, reject) => {
        const stream = createWriteStream(corpus);
        stream.on('error', reject);
        stream.end(gunzipSync(readFileSync(corpusPath())), () => resolve());
      });
    }
    out = join(tmpdir(), `gannet-search-lucene-${process.pid}`);
    execFileSync(sharedPath('bench-peers', 'run-lucene.sh'), [corpus, sharedPath('corpus', 'queries-debian.jsonl'), out, ID_FIELD, TEXT_FIELD], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return {
    summary: JSON.parse(readFileSync(`${out}.summary.json`, 'utf8')) as Record<string, unknown>,
    top10: readHits(`${out}.top10.jsonl`),
    top100: readHits(`${out}.top100.jsonl`),
  };
}
