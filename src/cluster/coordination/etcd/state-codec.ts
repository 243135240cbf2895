/**
 * The cluster state as etcd keys: one header (everything but the indices) and one key per index holding its
 * metadata and routing. A state version is written as one transaction of the header plus the index keys that
 * changed, so watchers see a version whole and one write stays far below etcd's 1.5 MiB request cap even with
 * thousands of indices (only what changed travels). JSON, so `etcdctl get` shows it to an operator.
 */
import type { ClusterState, IndexMetadata, ShardRouting } from '../../cluster-state.js';
import type { DiscoveryNode } from '../../discovery-node.js';
import type { IndexTemplates } from '../../metadata/templates/template-model.js';
import { NO_TEMPLATES } from '../../metadata/templates/template-model.js';

export const STATE_FORMAT_VERSION = 1;

export interface StateHeader {
  readonly formatVersion: number;
  readonly clusterName: string;
  readonly clusterUuid: string;
  readonly version: number;
  readonly stateUuid: string;
  readonly term: number;
  readonly masterNodeId: string | null;
  readonly nodes: DiscoveryNode[];
  readonly persistentSettings: Record<string, string>;
  readonly transientSettings: Record<string, string>;
  readonly templates: IndexTemplates;
  readonly globalBlocks: ClusterState['globalBlocks'];
  /** Absent in headers written before the index graveyard existed. */
  readonly indexGraveyard?: ClusterState['indexGraveyard'];
}

export interface IndexEntry {
  readonly metadata: IndexMetadata;
  readonly routing: ReadonlyArray<ReadonlyArray<ShardRouting>>;
}

export function encodeHeader(state: ClusterState): string {
  const header: StateHeader = {
    formatVersion: STATE_FORMAT_VERSION,
    clusterName: state.clusterName,
    clusterUuid: state.clusterUuid,
    version: state.version,
    stateUuid: state.stateUuid,
    term: state.term,
    masterNodeId: state.masterNodeId ?? null,
    nodes: [...state.nodes.values()],
    persistentSettings: { ...state.persistentSettings },
    transientSettings: { ...state.transientSettings },
    templates: state.templates,
    globalBlocks: state.globalBlocks,
    ...(state.indexGraveyard !== undefined && { indexGraveyard: state.indexGraveyard }),
  };
  return JSON.stringify(header);
}

export function encodeIndex(state: ClusterState, name: string): string {
  const entry: IndexEntry = { metadata: state.indices.get(name)!, routing: state.routing.get(name) ?? [] };
  return JSON.stringify(entry);
}

/** Every index key's encoded value, by index name. */
export function encodeIndices(state: ClusterState): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of state.indices.keys()) out.set(name, encodeIndex(state, name));
  return out;
}

export function decodeHeader(raw: string): StateHeader {
  const header = JSON.parse(raw) as StateHeader;
  if (header.formatVersion !== STATE_FORMAT_VERSION) throw new Error(`unsupported cluster state format version [${header.formatVersion}] in etcd`);
  return header;
}

/** Rebuilds the state from its header and index keys (index name -> encoded entry). */
export function decodeState(header: StateHeader, indices: ReadonlyMap<string, string>): ClusterState {
  const metadata = new Map<string, IndexMetadata>();
  const routing = new Map<string, ReadonlyArray<ReadonlyArray<ShardRouting>>>();
  for (const [name, raw] of [...indices].sort((a, b) => a[0].localeCompare(b[0]))) {
    const entry = JSON.parse(raw) as IndexEntry;
    metadata.set(name, entry.metadata);
    routing.set(name, entry.routing.map((copies) => copies.map(withUndefinedFields)));
  }
  return {
    clusterName: header.clusterName,
    clusterUuid: header.clusterUuid,
    version: header.version,
    stateUuid: header.stateUuid,
    term: header.term,
    masterNodeId: header.masterNodeId ?? undefined,
    nodes: new Map(header.nodes.map((node) => [node.id, node])),
    indices: metadata,
    routing,
    persistentSettings: header.persistentSettings,
    transientSettings: header.transientSettings,
    templates: { ...NO_TEMPLATES, ...header.templates },
    globalBlocks: header.globalBlocks,
    ...(header.indexGraveyard !== undefined && { indexGraveyard: header.indexGraveyard }),
  };
}

/** JSON drops undefined fields; readers compare with `=== undefined`, which absent fields satisfy too. */
function withUndefinedFields(copy: ShardRouting): ShardRouting {
  return { ...copy };
}
