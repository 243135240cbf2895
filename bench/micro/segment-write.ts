/**
 * One indexing worker's job in a refresh, on one thread: `--docs` npm documents (dynamic mapping, as an index
 * created without mappings gets them, explicit ids) are parsed, encoded into batches the way the engine sends them
 * to its indexing worker, inverted into an IndexingBuffer, then written as one segment to a temporary directory.
 * Reports CPU milliseconds of each phase (this process's, so V8's collector threads are included), the median of
 * first (cold) run and the median of `--runs` more. `--cpu-prof` on the node command line profiles all runs.
 *
 *   node dist/bench/micro/segment-write.js [--docs 10000] [--runs 5] [--corpus npm|debian]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalysisRegistry } from '../../src/analysis/index.js';
import { snapshotBuffer } from '../../src/engine/indexing/buffered-segment.js';
import { BatchEncoder, decodeBatch } from '../../src/engine/indexing/document-batch.js';
import { CachedAnalyzers, IndexingBuffer } from '../../src/engine/indexing/indexing-buffer.js';
import { writeBufferedSegment } from '../../src/engine/indexing/write-buffered-segment.js';
import { FsDirectory } from '../../src/engine/store/index.js';
import { DEFAULT_MAPPING_SETTINGS, EMPTY_ROOT, mergeMappings, parseDocument, type ParsedDocument, type RootMapping } from '../../src/mapping/index.js';
import { median, readCorpusLines, type CorpusName } from './corpus.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1]! : fallback;
}

function cpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function parseAll(lines: readonly Buffer[]): ParsedDocument[] {
  let mapping: RootMapping = EMPTY_ROOT;
  return lines.map((source, i) => {
    const document = parseDocument({ source, id: String(i), mapping });
    if (document.mappingUpdate !== undefined) mapping = mergeMappings(mapping, document.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
    return document;
  });
}

interface Phases {
  encode: number;
  invert: number;
  write: number;
  bytes: number;
}

async function once(documents: readonly ParsedDocument[], analyzers: CachedAnalyzers): Promise<Phases> {
  const path = mkdtempSync(join(tmpdir(), 'gannet-bench-segment-'));
  try {
    const directory = await FsDirectory.open(path);
    let started = cpuMillis();
    // Batches of ~1,000 documents, about what the engine's remote buffer sends for a bulk of 1,000.
    const batches = [];
    for (let start = 0; start < documents.length; start += 1000) {
      const encoder = new BatchEncoder();
      for (let i = start; i < Math.min(documents.length, start + 1000); i++) {
        encoder.add(String(i), documents[i]!);
        encoder.setMeta(i - start, i, 1, 1);
      }
      batches.push(encoder.finish().batch);
    }
    const encode = cpuMillis() - started;
    started = cpuMillis();
    const buffer = new IndexingBuffer(analyzers);
    for (const batch of batches) {
      for (const { id, document, seqNo, primaryTerm, version } of decodeBatch(batch)) {
        const doc = buffer.addDocument(id, document);
        buffer.setMeta(doc, seqNo, primaryTerm, version);
      }
    }
    const invert = cpuMillis() - started;
    started = cpuMillis();
    const written = await writeBufferedSegment(directory, '_0', snapshotBuffer(buffer).segment, 'deflate_fast');
    const write = cpuMillis() - started;
    const bytes = written.info.files.reduce((sum, file) => sum + file.length, 0);
    return { encode, invert, write, bytes };
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}

const docs = Number(argument('docs', '10000'));
const runs = Number(argument('runs', '5'));
const corpus = argument('corpus', 'npm') as CorpusName;
const documents = parseAll(readCorpusLines(docs, corpus));
const analyzers = new CachedAnalyzers(AnalysisRegistry.forIndex({}, 'bench'));
// The first run is a cold isolate's, as in a node that just started (a recovering replica's indexing worker).
const cold = await once(documents, analyzers);
const results: Phases[] = [];
for (let run = 0; run < runs; run++) results.push(await once(documents, analyzers));
const text = (pick: (phases: Phases) => number): string => `${median(results.map(pick)).toFixed(0)} ms (${results.map((r) => pick(r).toFixed(0)).join(', ')})`;
console.log(`${documents.length} ${corpus} documents, CPU of the first (cold) run: encode ${cold.encode.toFixed(0)} ms, invert ${cold.invert.toFixed(0)} ms, write ${cold.write.toFixed(0)} ms`);
if (runs > 0) console.log(`median of ${runs} more: encode ${text((r) => r.encode)}; invert ${text((r) => r.invert)}; write ${text((r) => r.write)}; segment ${(results[0]!.bytes / 1e6).toFixed(2)} MB`);
