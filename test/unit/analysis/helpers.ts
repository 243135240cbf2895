/** Shared test helpers: run a token stream to the end and collect what Lucene's test assertions compare. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analyzer, TokenStream } from '../../../src/analysis/index.js';

export interface Collected {
  terms: string[];
  starts: number[];
  ends: number[];
  types: string[];
  increments: number[];
  finalOffset: number;
  finalIncrement: number;
}

export function collect(stream: TokenStream): Collected {
  const out: Collected = { terms: [], starts: [], ends: [], types: [], increments: [], finalOffset: 0, finalIncrement: 0 };
  const t = stream.token;
  while (stream.incrementToken()) {
    out.terms.push(t.term);
    out.starts.push(t.startOffset);
    out.ends.push(t.endOffset);
    out.types.push(t.type);
    out.increments.push(t.positionIncrement);
  }
  stream.end();
  out.finalOffset = t.endOffset;
  out.finalIncrement = t.positionIncrement;
  return out;
}

export function terms(analyzer: Analyzer, text: string): string[] {
  return collect(analyzer.tokenStream(text)).terms;
}

/** The token list in the shape LuceneOracle.java prints: [term, start, end, type, posInc]..., [finalOffset, posInc]. */
export function oracleShape(stream: TokenStream): unknown[] {
  const c = collect(stream);
  const out: unknown[] = c.terms.map((term, i) => [term, c.starts[i], c.ends[i], c.types[i], c.increments[i]]);
  out.push([c.finalOffset, c.finalIncrement]);
  return out;
}

/** Must match digest() in oracle/make-fixtures.mjs. */
export function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
}

/** Fixtures are read from the source tree: tests run from a compiled copy that has no JSON files. */
export function readFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(process.cwd(), 'test/unit/analysis/fixtures', name), 'utf8')) as T;
}
