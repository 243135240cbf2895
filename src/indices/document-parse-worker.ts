/**
 * The worker thread that parses very large documents (document-parse-pool.ts sends them): the same
 * DocumentParser the event loop runs, then the engine's checks that must come before a document is
 * acknowledged (unknown analyzers, immense terms) and the encoding of its fields in the engine's batch layout,
 * so what travels back is a few flat arrays instead of millions of field objects.
 */
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../common/thread-priority.js';
import { AnalysisRegistry } from '../analysis/index.js';
import { toEsError, toPlainEsError, type PlainEsError } from '../common/errors.js';
import { CachedAnalyzers, LARGE_SOURCE_BYTES, crc32, encodeDocumentFields, prevalidate } from '../engine/index.js';
import { parseDocument, type EncodedFields, type MappingSettings, type RootMapping } from '../mapping/index.js';

export interface ParseJob {
  readonly indexName: string;
  readonly analysisSettings: unknown;
  readonly mapping: RootMapping;
  readonly settings: MappingSettings;
  readonly source: Uint8Array;
  readonly id: string;
  readonly routing: string | undefined;
}

export type ParseReply =
  | { readonly kind: 'mapping_update'; readonly mappingUpdate: RootMapping }
  | {
      readonly kind: 'parsed';
      readonly storedSource: Uint8Array | undefined;
      /** The source's CRC-32 when the translog will reference it (LARGE_SOURCE_BYTES up), summed here, off the loop. */
      readonly sourceChecksum: number | undefined;
      readonly ignored: readonly string[];
      readonly docCount: number | undefined;
      readonly encodedFields: EncodedFields;
    }
  | { readonly kind: 'failed'; readonly error: PlainEsError };

/** The analysis registry of an index, rebuilt here from its settings (kept for the next document). */
const registries = new Map<string, AnalysisRegistry>();

function registryFor(job: ParseJob): AnalysisRegistry {
  const key = `${job.indexName}\u0000${JSON.stringify(job.analysisSettings)}`;
  let registry = registries.get(key);
  if (registry === undefined) {
    registry = AnalysisRegistry.forIndex(job.analysisSettings, job.indexName);
    if (registries.size >= 16) registries.delete(registries.keys().next().value!);
    registries.set(key, registry);
  }
  return registry;
}

function run(job: ParseJob): { reply: ParseReply; transfer: ArrayBuffer[] } {
  try {
    const registry = registryFor(job);
    const parsed = parseDocument({
      source: job.source,
      id: job.id,
      routing: job.routing,
      mapping: job.mapping,
      settings: job.settings,
      analyzerExists: (name) => registry.findAnalyzer(name) !== undefined,
    });
    if (parsed.mappingUpdate !== undefined) return { reply: { kind: 'mapping_update', mappingUpdate: parsed.mappingUpdate }, transfer: [] };
    prevalidate(parsed, new CachedAnalyzers(registry));
    const { encoded, transfer } = encodeDocumentFields(parsed);
    const storedSource = parsed.storedSource;
    // The stored source is the job's shared bytes (crosses back without a copy) or a filtered copy made here,
    // which is moved rather than cloned.
    if (storedSource !== undefined && !(storedSource.buffer instanceof SharedArrayBuffer) && storedSource.byteLength === storedSource.buffer.byteLength) {
      transfer.push(storedSource.buffer as ArrayBuffer);
    }
    const sourceChecksum = job.source.length >= LARGE_SOURCE_BYTES ? crc32(job.source) : undefined;
    return {
      reply: { kind: 'parsed', storedSource, sourceChecksum, ignored: parsed.ignored, docCount: parsed.docCount, encodedFields: encoded },
      transfer,
    };
  } catch (err) {
    return { reply: { kind: 'failed', error: toPlainEsError(toEsError(err)) }, transfer: [] };
  }
}

// The loop answers the operator's commands: this thread steps back when they compete for a core.
if (parentPort !== null) lowerThisThreadsPriority();

parentPort?.on('message', (job: ParseJob) => {
  const { reply, transfer } = run(job);
  parentPort!.postMessage(reply, transfer);
});
