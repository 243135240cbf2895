/**
 * The single-node coordinator: the node is its own elected master. Cluster metadata (cluster uuid, index
 * metadata, persistent cluster settings) is persisted atomically under `<data>/_state/cluster.json` so indices survive restarts; the
 * routing of a single node is rebuilt from it on start. Updates are serialised through one queue so they
 * apply in order, as a master's would.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../common/atomic-file.js';
import { DiskReserve } from '../../common/disk-reserve.js';
import { randomBase64Uuid } from '../../common/uuid.js';
import { errors } from '../../common/errors.js';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState, IndexMetadata } from '../cluster-state.js';
import type { DiscoveryNode } from '../discovery-node.js';
import type { Coordinator } from './coordinator.js';
import { readPersistedAliases } from '../alias-metadata.js';
import { NO_TEMPLATES, type IndexTemplates } from '../metadata/templates/template-model.js';

interface PersistedMetadata {
  formatVersion: 1;
  clusterUuid: string;
  version: number;
  indices: IndexMetadata[];
  /** Absent in files written before cluster settings existed. */
  persistentSettings?: Record<string, string>;
  /** Absent in files written before index templates existed. */
  templates?: IndexTemplates;
  /** Absent in files written before the index graveyard existed. */
  indexGraveyard?: ClusterState['indexGraveyard'];
}

export function initialClusterState(clusterName: string): ClusterState {
  return {
    clusterName,
    clusterUuid: '_na_',
    version: 0,
    stateUuid: '_na_',
    term: 0,
    masterNodeId: undefined,
    nodes: new Map(),
    indices: new Map(),
    routing: new Map(),
    persistentSettings: {},
    transientSettings: {},
    templates: NO_TEMPLATES,
    globalBlocks: [{ id: 1, description: 'state not recovered / initialized', status: 503 }],
  };
}

export class EmbeddedCoordinator implements Coordinator {
  readonly kind = 'embedded';
  private started = false;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly stateFile: string;
  /** Space kept so the metadata can be rewritten on a full disk (deleting an index is how space is freed). */
  private readonly reserve: DiskReserve;

  constructor(
    private readonly clusterService: ClusterService,
    private readonly localNode: DiscoveryNode,
    dataPath: string,
    /** Rebuilds routing for the restored indices (the indices layer decides shard states on start). */
    private readonly restoreRouting: (state: ClusterState) => ClusterState = (state) => state,
  ) {
    this.stateFile = join(dataPath, '_state', 'cluster.json');
    this.reserve = new DiskReserve(join(dataPath, '_state', 'disk.reserve'));
  }

  async start(): Promise<void> {
    const persisted = this.load();
    const base = this.clusterService.state();
    const recovered: ClusterState = {
      ...base,
      clusterUuid: persisted?.clusterUuid ?? randomBase64Uuid(),
      version: (persisted?.version ?? 0) + 1,
      stateUuid: randomBase64Uuid(),
      // One node, one master for its whole life: a single term.
      term: 1,
      masterNodeId: this.localNode.id,
      nodes: new Map([[this.localNode.id, this.localNode]]),
      indices: new Map((persisted?.indices ?? []).map((index) => [index.name, { ...index, aliases: readPersistedAliases(index.aliases) }])),
      routing: new Map(),
      persistentSettings: persisted?.persistentSettings ?? {},
      templates: { ...NO_TEMPLATES, ...persisted?.templates },
      ...(persisted?.indexGraveyard !== undefined && { indexGraveyard: persisted.indexGraveyard }),
      // Transient settings do not survive a restart, as in ES.
      transientSettings: {},
      globalBlocks: [],
    };
    const withRouting = this.restoreRouting(recovered);
    this.persist(withRouting);
    this.clusterService.apply(withRouting);
    this.started = true;
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.queue.catch(() => undefined);
  }

  isMaster(): boolean {
    return this.started;
  }

  term(): number {
    return this.clusterService.state().term;
  }

  submitStateUpdate(_source: string, update: (state: ClusterState) => ClusterState): Promise<ClusterState> {
    const run = async (): Promise<ClusterState> => {
      if (!this.started) throw errors.notMaster('the embedded coordinator is not running');
      const current = this.clusterService.state();
      const proposed = update(current);
      if (proposed === current) return current;
      const next: ClusterState = { ...proposed, version: current.version + 1, stateUuid: randomBase64Uuid() };
      if (next.indices !== current.indices || next.clusterUuid !== current.clusterUuid || next.persistentSettings !== current.persistentSettings || next.templates !== current.templates) this.persist(next);
      this.clusterService.apply(next);
      return next;
    };
    this.clusterService.pendingTaskCount++;
    const result = this.queue.then(run, run).finally(() => {
      this.clusterService.pendingTaskCount--;
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private load(): PersistedMetadata | undefined {
    if (!existsSync(this.stateFile)) return undefined;
    const parsed = JSON.parse(readFileSync(this.stateFile, 'utf8')) as PersistedMetadata;
    if (parsed.formatVersion !== 1) throw new Error(`${this.stateFile}: unsupported format version ${parsed.formatVersion}`);
    return parsed;
  }

  private persist(state: ClusterState): void {
    const content: PersistedMetadata = {
      formatVersion: 1,
      clusterUuid: state.clusterUuid,
      version: state.version,
      indices: [...state.indices.values()],
      persistentSettings: { ...state.persistentSettings },
      templates: state.templates,
      ...(state.indexGraveyard !== undefined && { indexGraveyard: state.indexGraveyard }),
    };
    const text = JSON.stringify(content);
    this.reserve.withReserve(() => writeFileAtomically(this.stateFile, text));
    this.reserve.ensure();
  }
}
