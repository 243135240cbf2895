export * from './discovery-node.js';
export * from './cluster-state.js';
export { ClusterService, type ClusterStateListener } from './cluster-service.js';
export { resolveNodeSelectors } from './node-selector.js';
