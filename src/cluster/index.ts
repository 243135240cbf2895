export * from './discovery-node.js';
export * from './cluster-state.js';
export { ClusterService, type ClusterStateListener } from './cluster-service.js';
export { resolveNodeSelectors } from './node-selector.js';
export { resolveConcreteIndexNames } from './index-name-resolver.js';
export * from './indices-options.js';
export * from './alias-metadata.js';
export { resolveSearchTargets, type SearchTargets } from './search-targets.js';
export { resolveIndexRouting, resolveWriteIndexRouting, resolveWriteIndex } from './alias-routing.js';
