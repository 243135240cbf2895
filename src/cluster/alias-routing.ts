/**
 * Single-document operations through an alias, as ES's Metadata does them: the index a write goes to
 * (the alias's write index, IndexNameExpressionResolver.concreteWriteIndex), and the routing an operation uses
 * once the alias's `index_routing` is applied (resolveWriteIndexRouting for writes, resolveIndexRouting for reads).
 */
import { errors } from '../common/errors.js';
import { aliasOf, indicesOfAlias, writeIndexOfAlias, type AliasMetadata } from './alias-metadata.js';
import type { ClusterState, IndexMetadata } from './cluster-state.js';

/** The index a write to `name` lands in: the index itself, or the write index of the alias. */
export function resolveWriteIndex(state: ClusterState, name: string): IndexMetadata {
  const metadata = state.indices.get(name);
  if (metadata !== undefined) return metadata;
  if (indicesOfAlias(state, name).length === 0) throw errors.indexNotFound(name);
  const writeIndex = writeIndexOfAlias(state, name);
  if (writeIndex === undefined) {
    throw errors.illegalArgument(
      `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`,
    );
  }
  return writeIndex;
}

/** Metadata.resolveWriteIndexRouting: a write through an alias takes the write index's `index_routing`. */
export function resolveWriteIndexRouting(state: ClusterState, routing: string | undefined, aliasOrIndex: string): string | undefined {
  if (state.indices.has(aliasOrIndex)) return routing;
  const writeIndex = writeIndexOfAlias(state, aliasOrIndex);
  if (writeIndex === undefined) {
    if (indicesOfAlias(state, aliasOrIndex).length === 0) return routing;
    throw errors.illegalArgument(`alias [${aliasOrIndex}] does not have a write index`);
  }
  return routingThroughAlias(routing, aliasOrIndex, aliasOf(writeIndex, aliasOrIndex)!);
}

/** Metadata.resolveIndexRouting: a read through an alias of one index takes its `index_routing`. */
export function resolveIndexRouting(state: ClusterState, routing: string | undefined, aliasOrIndex: string): string | undefined {
  if (state.indices.has(aliasOrIndex)) return routing;
  const indices = indicesOfAlias(state, aliasOrIndex);
  if (indices.length === 0) return routing;
  if (indices.length > 1) {
    throw errors.illegalArgument(
      `alias [${aliasOrIndex}] has more than one index associated with it [${indices.map((index) => index.name).join(', ')}], can't execute a single index op`,
    );
  }
  return routingThroughAlias(routing, aliasOrIndex, aliasOf(indices[0]!, aliasOrIndex)!);
}

function routingThroughAlias(routing: string | undefined, aliasOrIndex: string, alias: AliasMetadata): string | undefined {
  const indexRouting = alias.indexRouting;
  if (indexRouting === undefined) return routing;
  if (indexRouting.includes(',')) {
    throw errors.illegalArgument(`index/alias [${aliasOrIndex}] provided with routing value [${indexRouting}] that resolved to several routing values, rejecting operation`);
  }
  if (routing !== undefined && routing !== indexRouting) {
    throw errors.illegalArgument(
      `Alias [${aliasOrIndex}] has index routing associated with it [${indexRouting}], and was provided with routing value [${routing}], rejecting operation`,
    );
  }
  return indexRouting;
}
