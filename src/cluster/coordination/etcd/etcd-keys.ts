/** The keys a Gannet cluster keeps in etcd, all under `/gannet/<cluster name>/` (docs/decisions/0006). */

export function clusterPrefix(clusterName: string): string {
  return `/gannet/${clusterName}/`;
}

/** `nodes/<node id>`: a node's DiscoveryNode on its lease. */
export const NODES_PREFIX = 'nodes/';
/** `election/<lease id>`: the master-eligible nodes' campaign keys; the first-created one is the master. */
export const ELECTION_PREFIX = 'election/';
/** `state/header` and `state/index/<name>`: the published cluster state. */
export const STATE_PREFIX = 'state/';
export const STATE_HEADER_KEY = 'state/header';
export const STATE_INDEX_PREFIX = 'state/index/';

export function nodeKey(nodeId: string): string {
  return `${NODES_PREFIX}${nodeId}`;
}

export function indexKey(name: string): string {
  return `${STATE_INDEX_PREFIX}${name}`;
}

export function campaignKey(leaseId: string): string {
  return `${ELECTION_PREFIX}${leaseId}`;
}
