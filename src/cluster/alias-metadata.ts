/**
 * An index's aliases as ES's AliasMetadata keeps them (filter, index/search routing, is_write_index, is_hidden),
 * and the questions the rest of the node asks about an alias across the cluster state: which indices it points to,
 * which one takes writes (IndexAbstraction.Alias), whether it is hidden.
 */
import type { ClusterState, IndexMetadata } from './cluster-state.js';

export interface AliasMetadata {
  /** The filter query as the request gave it (key order kept); absent when the alias does not filter. */
  readonly filter?: Readonly<Record<string, unknown>>;
  readonly indexRouting?: string;
  readonly searchRouting?: string;
  /** Undefined is "not set", which differs from false: a lone index with it unset takes the alias's writes. */
  readonly isWriteIndex?: boolean;
  readonly isHidden?: boolean;
}

export type IndexAliases = Readonly<Record<string, AliasMetadata>>;

/** The alias names of an index, sorted (ES prints an index's aliases in name order). */
export function aliasNamesOf(metadata: IndexMetadata): string[] {
  return Object.keys(metadata.aliases).sort();
}

export function hasAlias(metadata: IndexMetadata, alias: string): boolean {
  return Object.prototype.hasOwnProperty.call(metadata.aliases, alias);
}

export function aliasOf(metadata: IndexMetadata, alias: string): AliasMetadata | undefined {
  return hasAlias(metadata, alias) ? metadata.aliases[alias] : undefined;
}

/** Every alias name in the cluster. */
export function allAliasNames(state: ClusterState): string[] {
  const names = new Set<string>();
  for (const metadata of state.indices.values()) for (const alias of Object.keys(metadata.aliases)) names.add(alias);
  return [...names];
}

/** The indices an alias points to, in index-name order. */
export function indicesOfAlias(state: ClusterState, alias: string): IndexMetadata[] {
  return [...state.indices.values()].filter((metadata) => hasAlias(metadata, alias)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function isAlias(state: ClusterState, name: string): boolean {
  for (const metadata of state.indices.values()) if (hasAlias(metadata, name)) return true;
  return false;
}

/** An alias is hidden when its definitions say so (they must agree across its indices). */
export function isHiddenAlias(state: ClusterState, alias: string): boolean {
  const first = indicesOfAlias(state, alias)[0];
  return first !== undefined && aliasOf(first, alias)?.isHidden === true;
}

/**
 * IndexAbstraction.Alias.getWriteIndex: the one index with `is_write_index: true`, else the alias's only index
 * when it did not set the flag at all; otherwise none.
 */
export function writeIndexOfAlias(state: ClusterState, alias: string): IndexMetadata | undefined {
  const indices = indicesOfAlias(state, alias);
  const explicit = indices.filter((metadata) => aliasOf(metadata, alias)?.isWriteIndex === true);
  if (explicit.length === 1) return explicit[0];
  if (explicit.length === 0 && indices.length === 1 && aliasOf(indices[0]!, alias)?.isWriteIndex === undefined) return indices[0];
  return undefined;
}

/**
 * Metadata written before aliases had definitions stored only their names; read either form so an old data
 * path keeps its aliases.
 */
export function readPersistedAliases(stored: unknown): IndexAliases {
  if (Array.isArray(stored)) return Object.fromEntries(stored.filter((name): name is string => typeof name === 'string').map((name) => [name, {}]));
  if (stored !== null && typeof stored === 'object') return stored as IndexAliases;
  return {};
}
