/**
 * The first exchange between two nodes: each learns the other's identity, cluster name and version, so a
 * node never joins or answers a cluster it does not belong to.
 */
import { EsError } from '../common/errors.js';
import type { TransportService } from './transport-service.js';

export const HANDSHAKE_ACTION = 'internal:tcp/handshake';

export interface HandshakeResponse {
  nodeId: string;
  nodeName: string;
  clusterName: string;
  version: string;
}

/**
 * Answers handshakes with this node's identity. A peer that names another cluster, or another major version,
 * is refused (ES's TransportService.handshake checks the same on both ends).
 */
export function registerHandshake(transport: TransportService, local: () => HandshakeResponse): void {
  transport.registerHandler(HANDSHAKE_ACTION, async (body) => {
    const me = local();
    const peer = (body ?? {}) as Partial<{ clusterName: string; version: string; nodeId: string }>;
    if (peer.clusterName !== undefined && peer.clusterName !== me.clusterName) {
      throw new EsError('illegal_state_exception', `handshake failed: mismatched cluster name [${peer.clusterName}] - [${me.clusterName}]`);
    }
    if (peer.version !== undefined && peer.version.split('.')[0] !== me.version.split('.')[0]) {
      throw new EsError('illegal_state_exception', `handshake failed: node version [${peer.version}] is incompatible with [${me.version}]`);
    }
    return me;
  });
}

export async function handshake(transport: TransportService, address: string, expectedClusterName: string, timeoutMillis = 30_000): Promise<HandshakeResponse> {
  const response = (await transport.send(address, HANDSHAKE_ACTION, {}, { timeoutMillis })) as HandshakeResponse;
  if (response.clusterName !== expectedClusterName) {
    throw new EsError(
      'illegal_state_exception',
      `handshake with [${address}] failed: remote cluster name [${response.clusterName}] does not match local cluster name [${expectedClusterName}]`,
    );
  }
  return response;
}
