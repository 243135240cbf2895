/**
 * Closing and opening indices, as the master does it (ES's MetadataIndexStateService). A closed index keeps its
 * metadata, its routing and its files: its copies are reinitialised to recover from their store without an
 * engine (ES 7.2+ "replicated closed indices"), so health still counts them, and nothing can read or write
 * them. Opening reinitialises the copies again, this time to open their engines from the same files.
 */
import type { ClusterState, IndexMetadata } from '../cluster-state.js';
import { reinitializedRouting } from '../routing/shard-allocation.js';

/** ES's MetadataIndexStateService.VERIFIED_BEFORE_CLOSE_SETTING, set on every index closed since 7.2. */
export const VERIFIED_BEFORE_CLOSE = 'index.verified_before_close';

export interface IndexStateChange {
  readonly state: ClusterState;
  /** The indices whose state actually changed (already closed or open ones are left out). */
  readonly changed: readonly string[];
}

export function closeIndicesState(state: ClusterState, names: readonly string[], now: number): IndexStateChange {
  let next = state;
  const changed: string[] = [];
  for (const name of names) {
    const metadata = next.indices.get(name);
    if (metadata === undefined || metadata.state === 'close') continue;
    const closed = { ...metadata, state: 'close' as const, settings: { ...metadata.settings, [VERIFIED_BEFORE_CLOSE]: 'true' } };
    next = reinitializedRouting(withIndex(next, closed), closed, 'INDEX_CLOSED', now);
    changed.push(name);
  }
  return { state: next, changed };
}

export function openIndicesState(state: ClusterState, names: readonly string[], now: number): IndexStateChange {
  let next = state;
  const changed: string[] = [];
  for (const name of names) {
    const metadata = next.indices.get(name);
    if (metadata === undefined || metadata.state === 'open') continue;
    const settings = { ...metadata.settings };
    delete settings[VERIFIED_BEFORE_CLOSE];
    const opened = { ...metadata, state: 'open' as const, settings };
    next = reinitializedRouting(withIndex(next, opened), opened, 'INDEX_REOPENED', now);
    changed.push(name);
  }
  return { state: next, changed };
}

function withIndex(state: ClusterState, metadata: IndexMetadata): ClusterState {
  const indices = new Map(state.indices);
  indices.set(metadata.name, metadata);
  return { ...state, indices };
}
