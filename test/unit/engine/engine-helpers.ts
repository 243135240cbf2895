/** Shared set-up for the engine tests: shard directories, a dynamic mapping, engine configs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalysisRegistry } from '../../../src/analysis/index.js';
import { DEFAULT_MAPPING_SETTINGS, mergeMappings, parseDocument, parseMapping, type ParsedDocument, type RootMapping } from '../../../src/mapping/index.js';
import { openEngine, type EngineConfig, type IndexOperation, type InternalEngine } from '../../../src/engine/index.js';

export const SHARD = { index: 'test', indexUuid: 'uuid-test', shard: 0 } as const;

export function tempDir(prefix = 'gannet-engine-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Parses documents with dynamic mapping, keeping the mapping updates (as the indices layer does). */
export class DocumentFactory {
  private mapping: RootMapping;

  constructor(mappingJson: unknown = { properties: {} }) {
    this.mapping = parseMapping(mappingJson);
  }

  parse(source: unknown, id?: string, routing?: string): ParsedDocument {
    const bytes = source instanceof Uint8Array ? source : Buffer.from(typeof source === 'string' ? source : JSON.stringify(source));
    const document = parseDocument({ source: bytes, id, routing, mapping: this.mapping });
    if (document.mappingUpdate !== undefined) this.mapping = mergeMappings(this.mapping, document.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
    return document;
  }

  readonly parseDocument: EngineConfig['parseDocument'] = ({ id, source, routing }) => this.parse(source, id, routing);
}

export function engineConfig(path: string, factory: DocumentFactory, overrides: Partial<EngineConfig> = {}): EngineConfig {
  return {
    path,
    shardLabel: SHARD,
    primaryTerm: 1,
    durability: 'request',
    translogSyncIntervalMillis: 5000,
    analyzers: AnalysisRegistry.global(),
    indexingBufferBytes: 64 * 1024 * 1024,
    parseDocument: factory.parseDocument,
    ...overrides,
  };
}

export async function open(path: string, factory: DocumentFactory, overrides: Partial<EngineConfig> = {}): Promise<InternalEngine> {
  return openEngine(engineConfig(path, factory, overrides));
}

/** An engine in a fresh shard directory for `run`, closed and its directory removed after it. */
export async function withEngine(
  run: (engine: InternalEngine, factory: DocumentFactory) => Promise<void>,
  overrides: Partial<EngineConfig> = {},
): Promise<void> {
  const dir = tempDir();
  const factory = new DocumentFactory();
  const engine = await open(dir.path, factory, overrides);
  try {
    await run(engine, factory);
  } finally {
    await engine.close();
    dir.remove();
  }
}

/** An index operation on the primary with internal versioning, as the indices layer would build it. */
export function indexOp(factory: DocumentFactory, id: string, source: unknown, extra: Partial<IndexOperation> = {}): IndexOperation {
  return {
    id,
    document: factory.parse(source, id, extra.document?.routing),
    opType: 'index',
    versionType: 'internal',
    origin: 'primary',
    primaryTerm: 1,
    ...extra,
  };
}

export function sourceOf(bytes: Uint8Array | undefined): unknown {
  return bytes === undefined ? undefined : JSON.parse(Buffer.from(bytes).toString('utf8'));
}
