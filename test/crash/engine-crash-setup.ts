/** What the engine crash test's child and parent share: the ids, the mapping and the engine config. */
import { AnalysisRegistry } from '../../src/analysis/index.js';
import type { EngineConfig } from '../../src/engine/index.js';
import { DEFAULT_MAPPING_SETTINGS, mergeMappings, parseDocument, parseMapping, type ParsedDocument, type RootMapping } from '../../src/mapping/index.js';

export const CRASH_IDS: readonly string[] = Array.from({ length: 120 }, (_, i) => `id${i}`);

export class CrashDocuments {
  private mapping: RootMapping = parseMapping({ properties: { value: { type: 'keyword' }, n: { type: 'long' }, body: { type: 'text' } } });

  parse(source: unknown, id?: string, routing?: string): ParsedDocument {
    const bytes = source instanceof Uint8Array ? source : Buffer.from(JSON.stringify(source));
    const document = parseDocument({ source: bytes, id, routing, mapping: this.mapping });
    if (document.mappingUpdate !== undefined) this.mapping = mergeMappings(this.mapping, document.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
    return document;
  }
}

export function crashEngineConfig(path: string): { config: EngineConfig; factory: CrashDocuments } {
  const factory = new CrashDocuments();
  return {
    factory,
    config: {
      path,
      shardLabel: { index: 'crash', indexUuid: 'crash-uuid', shard: 0 },
      primaryTerm: 1,
      durability: 'request',
      translogSyncIntervalMillis: 5000,
      analyzers: AnalysisRegistry.global(),
      // Small: segments are written (and merged) every few hundred operations, so kills land in them.
      indexingBufferBytes: 192 * 1024,
      refreshIntervalMillis: 25,
      parseDocument: ({ id, source, routing }) => factory.parse(source, id, routing),
      mergePolicy: { segmentsPerTier: 4, maxMergeAtOnce: 4 },
      // Built-in analyzers, known to the indexing workers: documents are inverted off the main thread.
      analysisSettings: {},
    },
  };
}
