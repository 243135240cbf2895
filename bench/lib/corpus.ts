/** The shared corpora (../shared/corpus), read in place — never copied into the repo. */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';

export interface CorpusSpec {
  name: 'debian' | 'npm';
  file: string;
  queries: string;
  idField: string;
  textField: string;
}

export interface Query {
  qid: string;
  type: 'term' | 'or' | 'and' | 'phrase';
  terms: string[];
}

export function sharedDir(): string {
  const candidates = [process.env['GANNET_SHARED'], resolve(process.cwd(), '..', 'shared')].filter(Boolean) as string[];
  const found = candidates.find((dir) => existsSync(join(dir, 'corpus')));
  if (!found) throw new Error('cannot find the shared corpus folder: set GANNET_SHARED or run from the repo next to ../shared');
  return found;
}

export function corpusSpec(name: string): CorpusSpec {
  const dir = join(sharedDir(), 'corpus');
  if (name === 'debian') {
    return { name, file: join(dir, 'debian.ndjson.gz'), queries: join(dir, 'queries-debian.jsonl'), idField: 'package', textField: 'description' };
  }
  if (name === 'npm') {
    return { name, file: join(dir, 'npm.ndjson.gz'), queries: join(dir, 'queries-npm.jsonl'), idField: 'name', textField: 'summary' };
  }
  throw new Error(`unknown corpus [${name}]: use debian or npm`);
}

/** Raw NDJSON lines of a corpus, optionally only the first `limit`. */
export async function readCorpusLines(spec: CorpusSpec, limit = Infinity): Promise<string[]> {
  const lines: string[] = [];
  const reader = createInterface({ input: createReadStream(spec.file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of reader) {
    if (line.length === 0) continue;
    lines.push(line);
    if (lines.length >= limit) {
      reader.close();
      break;
    }
  }
  return lines;
}

export function readQueries(spec: CorpusSpec): Query[] {
  return readFileSync(spec.queries, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Query);
}
