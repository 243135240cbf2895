/** A cluster node as the transport addresses it. */
import type { TransportNode } from '../transport/index.js';
import { transportAddress, type DiscoveryNode } from './discovery-node.js';

export function transportNode(node: DiscoveryNode): TransportNode {
  return { id: node.id, name: node.name, address: transportAddress(node) };
}
