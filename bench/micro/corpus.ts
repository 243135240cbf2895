/** Reads the Debian corpus (gzip NDJSON, never copied into the repo) for the codec micro-benchmarks. */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { resolve } from 'node:path';

export type CorpusName = 'debian' | 'npm';

export function corpusPath(name: CorpusName = 'debian'): string {
  const override = process.env[`GANNET_CORPUS_${name.toUpperCase()}`];
  if (override) return override;
  // Run from the repo root; the corpus sits in the workspace's shared folder next to it.
  const candidates = [resolve(process.cwd(), `../shared/corpus/${name}.ndjson.gz`), `/work/shared/corpus/${name}.ndjson.gz`];
  return candidates.find((p) => existsSync(p)) ?? candidates[0]!;
}

/** The raw NDJSON lines (each one document's _source bytes). */
export function readCorpusLines(limit = Infinity, name: CorpusName = 'debian'): Buffer[] {
  const all = gunzipSync(readFileSync(corpusPath(name)));
  const lines: Buffer[] = [];
  let start = 0;
  while (start < all.length && lines.length < limit) {
    let end = all.indexOf(0x0a, start);
    if (end < 0) end = all.length;
    if (end > start) lines.push(all.subarray(start, end));
    start = end + 1;
  }
  return lines;
}

/** Lower-cased alphanumeric tokens: enough to produce realistic postings without depending on analysis/. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
