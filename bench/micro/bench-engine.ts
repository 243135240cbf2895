/** The engine configuration the in-process engine benches share (engine-ingest, replica-apply, refresh-cost). */
import { AnalysisRegistry } from '../../src/analysis/index.js';
import type { EngineConfig } from '../../src/engine/index.js';

/**
 * One shard of index `bench` at primary term 1, `request` durability, the built-in analyzers with known analysis
 * settings (so documents are inverted in indexing workers), a 64 MB indexing buffer; `overrides` for the rest.
 */
export function benchEngineConfig(path: string, parseDocument: EngineConfig['parseDocument'], overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    path,
    shardLabel: { index: 'bench', indexUuid: 'bench', shard: 0 },
    primaryTerm: 1,
    durability: 'request',
    translogSyncIntervalMillis: 5000,
    analyzers: AnalysisRegistry.global(),
    indexingBufferBytes: 64 * 1024 * 1024,
    parseDocument,
    analysisSettings: {},
    ...overrides,
  };
}
