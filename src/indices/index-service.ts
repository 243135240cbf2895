/**
 * One index on this node: its settings (typed view), current mapping, analysis registry and the shard copies
 * this node holds. Updated in place when the cluster state changes the index's settings or mapping, so the
 * next document parse sees the new mapping at once.
 */
import { AnalysisRegistry } from '../analysis/index.js';
import { EMPTY_ROOT, parseDocument, parseMapping, type ParsedDocument, type RootMapping } from '../mapping/index.js';
import type { IndexShard } from './index-shard.js';
import { readIndexSettings, type FlatSettings, type IndexSettingsView } from './index-settings.js';
import { LARGE_DOCUMENT_BYTES, parseInWorker } from './document-parse-pool.js';

/** What the indices layer needs to know about an index (the cluster layer builds it from IndexMetadata). */
export interface IndexDescriptor {
  readonly name: string;
  readonly uuid: string;
  readonly settings: FlatSettings;
  /** The mapping as ES's GET _mapping prints it (empty object for none). */
  readonly mappings: Record<string, unknown>;
}

export class IndexService {
  readonly shards = new Map<number, IndexShard>();
  private descriptor: IndexDescriptor;
  private view: IndexSettingsView;
  private analysisRegistry: AnalysisRegistry;
  private mappingRoot: RootMapping;
  private mappingSource: string;

  constructor(descriptor: IndexDescriptor) {
    this.descriptor = descriptor;
    this.view = readIndexSettings(descriptor.settings);
    this.analysisRegistry = AnalysisRegistry.forIndex(this.view.analysis, descriptor.name);
    this.mappingSource = JSON.stringify(descriptor.mappings);
    this.mappingRoot = this.parseStoredMapping(descriptor.mappings);
  }

  get name(): string {
    return this.descriptor.name;
  }

  get uuid(): string {
    return this.descriptor.uuid;
  }

  get settings(): IndexSettingsView {
    return this.view;
  }

  get flatSettings(): FlatSettings {
    return this.descriptor.settings;
  }

  /** The `index.analysis.*` settings as given, so indexing workers can rebuild the same analyzers. */
  get analysisSettings(): unknown {
    return this.view.analysis;
  }

  get analysis(): AnalysisRegistry {
    return this.analysisRegistry;
  }

  get mapping(): RootMapping {
    return this.mappingRoot;
  }

  /** Takes a newer descriptor of the same index; returns whether shard schedules need updating. */
  update(descriptor: IndexDescriptor): void {
    const settingsChanged = JSON.stringify(descriptor.settings) !== JSON.stringify(this.descriptor.settings);
    const mappingSource = JSON.stringify(descriptor.mappings);
    this.descriptor = descriptor;
    if (settingsChanged) {
      this.view = readIndexSettings(descriptor.settings);
      this.analysisRegistry = AnalysisRegistry.forIndex(this.view.analysis, descriptor.name);
    }
    if (mappingSource !== this.mappingSource) {
      this.mappingSource = mappingSource;
      this.mappingRoot = this.parseStoredMapping(descriptor.mappings);
    }
  }

  /** Parses a document against the current mapping (ES's DocumentParser on the primary). */
  parseDocument(source: Uint8Array, id: string, routing: string | undefined): ParsedDocument {
    return parseDocument({
      source,
      id,
      routing,
      mapping: this.mappingRoot,
      settings: this.view.mapping,
      analyzerExists: this.analyzerExists,
    });
  }

  /**
   * parseDocument for any size: from LARGE_DOCUMENT_BYTES up the parsing runs in a worker thread and the
   * fields come back encoded (ParsedDocument.encodedFields), so a document of millions of values does not hold
   * the event loop. Smaller documents are parsed here, as parsing them costs less than the trip.
   */
  async parseDocumentAnySize(source: Uint8Array, id: string, routing: string | undefined): Promise<ParsedDocument> {
    if (source.length < LARGE_DOCUMENT_BYTES) return this.parseDocument(source, id, routing);
    return parseInWorker({ indexName: this.name, analysisSettings: this.view.analysis, mapping: this.mappingRoot, settings: this.view.mapping, source, id, routing });
  }

  /** One closure for every document parsed (not one per document). */
  private readonly analyzerExists = (name: string): boolean => this.analysisRegistry.findAnalyzer(name) !== undefined;

  private parseStoredMapping(mappings: Record<string, unknown>): RootMapping {
    if (Object.keys(mappings).length === 0) return EMPTY_ROOT;
    return parseMapping(mappings, {
      settings: this.view.mapping,
      analyzerExists: this.analyzerExists,
    });
  }
}
