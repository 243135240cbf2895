/** A node as the cluster knows it: identity, addresses and roles (ES's DiscoveryNode). */

export const ALL_ROLES = [
  'data',
  'data_cold',
  'data_content',
  'data_frozen',
  'data_hot',
  'data_warm',
  'ingest',
  'master',
  'ml',
  'remote_cluster_client',
  'transform',
] as const;

export const KNOWN_ROLES = [...ALL_ROLES, 'voting_only'] as const;
export type NodeRole = (typeof KNOWN_ROLES)[number];

/** ES's DiscoveryNodeRole.roleNameAbbreviation. */
export const ROLE_LETTERS: Record<NodeRole, string> = {
  data_cold: 'c',
  data: 'd',
  data_frozen: 'f',
  data_hot: 'h',
  ingest: 'i',
  ml: 'l',
  master: 'm',
  remote_cluster_client: 'r',
  data_content: 's',
  transform: 't',
  voting_only: 'v',
  data_warm: 'w',
};

export interface DiscoveryNode {
  id: string;
  name: string;
  ephemeralId: string;
  /** Host name the node publishes. */
  host: string;
  /** IP address the node publishes. */
  ip: string;
  transportPort: number;
  httpPort: number | undefined;
  roles: NodeRole[];
  attributes: Record<string, string>;
  version: string;
  pid?: number;
}

export function isDataNode(node: DiscoveryNode): boolean {
  return node.roles.some((role) => role === 'data' || role.startsWith('data_'));
}

export function isMasterEligible(node: DiscoveryNode): boolean {
  return node.roles.includes('master');
}

/** Role letters sorted and concatenated, `-` for a node with no roles (coordinating only). */
export function roleLetters(roles: readonly NodeRole[]): string {
  // `_cat/nodes` asks for every node's letters on every request; a node's roles array lives as long as its
  // DiscoveryNode in the cluster state.
  const known = roleLettersByRoles.get(roles);
  if (known !== undefined) return known;
  const letters = roles.length === 0 ? '-' : roles.map((role) => ROLE_LETTERS[role]).sort().join('');
  roleLettersByRoles.set(roles, letters);
  return letters;
}

const roleLettersByRoles = new WeakMap<readonly NodeRole[], string>();

export function transportAddress(node: DiscoveryNode): string {
  return `${node.ip}:${node.transportPort}`;
}

/** DiscoveryNode.toString, as ES prints a node inside messages: `{name}{id}{ephemeralId}{host}{ip:port}{roles}{attributes}`. */
export function describeDiscoveryNode(node: DiscoveryNode): string {
  const attributes = Object.entries(node.attributes).map(([key, value]) => `${key}=${value}`);
  const roles = roleLetters(node.roles);
  return `{${node.name}}{${node.id}}{${node.ephemeralId}}{${node.host}}{${transportAddress(node)}}${roles === '' ? '' : `{${roles}}`}${attributes.length > 0 ? `{${attributes.join(', ')}}` : ''}`;
}
