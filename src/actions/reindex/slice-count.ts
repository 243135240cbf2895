/**
 * The number of slices a bulk-by-scroll runs with (ES's BulkByScrollParallelizationHelper.computeSlicing):
 * a number as given, or for `auto` the fewest primary shards among the concrete source indices (at most 20).
 */
import { resolveConcreteIndexNames } from '../../cluster/index.js';
import { LENIENT_EXPAND_OPEN } from '../../cluster/indices-options.js';
import { autoSliceCount } from '../../reindex/index.js';
import type { NodeServices } from '../context.js';

export type SlicesParam = 'auto' | number;

export function resolveSliceCount(slices: SlicesParam, sourceIndices: readonly string[], services: NodeServices): number {
  if (slices !== 'auto') return slices;
  const state = services.clusterService.state();
  const names = resolveConcreteIndexNames(state, LENIENT_EXPAND_OPEN, sourceIndices.length === 0 ? ['_all'] : [...sourceIndices]);
  return autoSliceCount(names.flatMap((name) => {
    const metadata = state.indices.get(name);
    return metadata === undefined ? [] : [metadata.numberOfShards];
  }));
}
