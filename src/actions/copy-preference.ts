/**
 * Which copy of a shard serves a read (ES's OperationRouting.preferenceActiveShardIterator), shared by searches
 * and gets: any started copy may answer (replicas hold every acknowledged write, issue 13). Without `preference`,
 * this node's copy when it has one, else the primary's, else a replica's. `preference`:
 *
 * - `_only_local` / `_local`: only / first this node's copy;
 * - `_only_nodes:a,b` / `_prefer_nodes:a,b`: only / first the copies on those node ids (ES also takes names and
 *   attributes there; ids are what tests and tools send);
 * - `_shards:0,2` (optionally followed by `|` and one of the above): only those shards (for searches);
 * - any other string not starting with `_`: a custom value, hashed (murmur3 of the string with the shard's
 *   identity, as ES) to pick the same copy for the same string every time while the copies stay the same, so
 *   that a user's repeated searches see one copy's scores and paging. The copy it lands on is not ES's (that
 *   depends on ES's own order of a shard's copies), only as stable as ES's.
 */
import { errors } from '../common/errors.js';
import type { ShardRouting } from '../cluster/index.js';
import { murmur3Routing } from '../indices/index.js';

export interface CopyPreference {
  readonly shards: ReadonlySet<number> | undefined;
  readonly kind: 'none' | 'local' | 'only_local' | 'only_nodes' | 'prefer_nodes' | 'custom';
  readonly nodes: readonly string[];
  /** The custom string (kind `custom`). */
  readonly custom?: string;
}

const NO_PREFERENCE: CopyPreference = { shards: undefined, kind: 'none', nodes: [] };

export function parsePreference(text: string | undefined): CopyPreference {
  if (text === undefined || text.length === 0) return NO_PREFERENCE;
  let rest = text;
  let shards: Set<number> | undefined;
  if (rest.startsWith('_shards:')) {
    const end = rest.indexOf('|');
    const list = rest.slice('_shards:'.length, end < 0 ? undefined : end);
    shards = new Set(list.split(',').map((value) => Number.parseInt(value, 10)));
    rest = end < 0 ? '' : rest.slice(end + 1);
  }
  if (rest.length === 0) return { shards, kind: 'none', nodes: [] };
  if (!rest.startsWith('_')) return { shards, kind: 'custom', nodes: [], custom: rest };
  const colon = rest.indexOf(':');
  const name = colon < 0 ? rest : rest.slice(0, colon);
  const nodes = colon < 0 ? [] : rest.slice(colon + 1).split(',');
  switch (name) {
    case '_local':
      return { shards, kind: 'local', nodes };
    case '_only_local':
      return { shards, kind: 'only_local', nodes };
    case '_only_nodes':
      return { shards, kind: 'only_nodes', nodes };
    case '_prefer_nodes':
      return { shards, kind: 'prefer_nodes', nodes };
    default:
      throw errors.illegalArgument(`no Preference for [${name}]`);
  }
}

/** Java's String.hashCode. */
function javaHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

function floorMod(value: number, modulus: number): number {
  return ((value % modulus) + modulus) % modulus;
}

/** Where in a shard's copies a custom preference starts: ES's `31 * murmur3(preference) + shardId.hashCode()`. */
export function customPreferenceSeed(preference: string, index: string, indexUuid: string, shard: number): number {
  const indexHash = (Math.imul(31, javaHash(index)) + javaHash(indexUuid)) | 0;
  const shardHash = (Math.imul(31, indexHash) + shard) | 0;
  return (Math.imul(31, murmur3Routing(preference)) + shardHash) | 0;
}

export interface ShardIdentity {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

/**
 * A shard's active copies in the order they are tried. A custom preference rotates the copies, in the routing
 * table's order (the same on every node), by its seed; the others put the preferred copies first or keep only
 * the allowed ones.
 */
export function orderCopies(active: readonly ShardRouting[], preference: CopyPreference, localId: string, shard: ShardIdentity): ShardRouting[] {
  if (preference.kind === 'custom' && active.length > 0) {
    const start = floorMod(customPreferenceSeed(preference.custom!, shard.index, shard.indexUuid, shard.shard), active.length);
    return [...active.slice(start), ...active.slice(0, start)];
  }
  const byDefault = [...active].sort((a, b) => rank(a) - rank(b));
  function rank(copy: ShardRouting): number {
    if (copy.nodeId === localId) return 0;
    return copy.primary ? 1 : 2;
  }
  switch (preference.kind) {
    case 'only_local':
      return byDefault.filter((copy) => copy.nodeId === localId);
    case 'only_nodes': {
      const allowed = new Set(preference.nodes);
      const chosen = byDefault.filter((copy) => copy.nodeId !== undefined && allowed.has(copy.nodeId));
      if (chosen.length === 0) throw errors.illegalArgument(`no data nodes with criteria [${preference.nodes.join(',')}] found for shard: [${shard.index}][${shard.shard}]`);
      return chosen;
    }
    case 'prefer_nodes': {
      const preferred = new Set(preference.nodes);
      return [...byDefault.filter((copy) => preferred.has(copy.nodeId ?? '')), ...byDefault.filter((copy) => !preferred.has(copy.nodeId ?? ''))];
    }
    default:
      return byDefault;
  }
}
