/**
 * Resolves ES node selectors (`GET /_nodes/<selector>`, `?nodes=`) to node ids, in order, as ES's
 * DiscoveryNodes.resolveNodes does: `_local`, `_master`, `_all` / `*`, ids, names, host names and addresses
 * (with `*` wildcards), `<role>:true|false` (e.g. `data:true`, `master:false`, `coordinating_only:true`) which
 * add or remove nodes, and `<attr>:<value>` for node attributes. An empty selector list means all nodes.
 */
import { simpleMatch } from '../common/wildcards.js';
import type { ClusterState } from './cluster-state.js';
import { KNOWN_ROLES, type DiscoveryNode } from './discovery-node.js';

export function resolveNodeSelectors(state: ClusterState, localNodeId: string, selectors: readonly string[]): string[] {
  const nodes = [...state.nodes.values()];
  if (selectors.length === 0) return nodes.map((node) => node.id);
  const selected = new Set<string>();
  for (const raw of selectors) {
    const selector = raw.trim();
    if (selector === '_local') {
      if (state.nodes.has(localNodeId)) selected.add(localNodeId);
    } else if (selector === '_master') {
      if (state.masterNodeId && state.nodes.has(state.masterNodeId)) selected.add(state.masterNodeId);
    } else if (selector === '_all' || selector === '*') {
      for (const node of nodes) selected.add(node.id);
    } else if (state.nodes.has(selector)) {
      selected.add(selector);
    } else if (selector.includes(':')) {
      applyRoleOrAttribute(selector, nodes, selected);
    } else {
      for (const node of nodes) if (matchesIdentity(selector, node)) selected.add(node.id);
    }
  }
  // Keep cluster order so responses list nodes stably.
  return nodes.map((node) => node.id).filter((id) => selected.has(id));
}

function matchesIdentity(pattern: string, node: DiscoveryNode): boolean {
  return [node.id, node.name, node.host, node.ip].some((value) => simpleMatch(pattern, value));
}

function applyRoleOrAttribute(selector: string, nodes: DiscoveryNode[], selected: Set<string>): void {
  const colon = selector.indexOf(':');
  const name = selector.slice(0, colon);
  const value = selector.slice(colon + 1);
  const isRole = (KNOWN_ROLES as readonly string[]).includes(name) || name === 'coordinating_only';
  if (isRole && (value === 'true' || value === 'false')) {
    const hasRole = (node: DiscoveryNode) =>
      name === 'coordinating_only' ? node.roles.length === 0 : (node.roles as readonly string[]).includes(name);
    for (const node of nodes) {
      if (!hasRole(node)) continue;
      if (value === 'true') selected.add(node.id);
      else selected.delete(node.id);
    }
    return;
  }
  for (const node of nodes) {
    for (const [attribute, attributeValue] of Object.entries(node.attributes)) {
      if (simpleMatch(name, attribute) && simpleMatch(value, attributeValue)) selected.add(node.id);
    }
  }
}
