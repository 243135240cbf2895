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

export function registerHandshake(transport: TransportService, local: () => HandshakeResponse): void {
  transport.registerHandler(HANDSHAKE_ACTION, async () => local());
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
