/**
 * The first exchange between two nodes: each learns the other's identity, cluster name and version, so a
 * node never joins or answers a cluster it does not belong to.
 */
import { EsError } from '../common/errors.js';
import type { TransportService } from './transport-service.js';

export const HANDSHAKE_ACTION = 'internal:tcp/handshake';

/**
 * The version of the messages nodes exchange (0007's addendum): nodes of different transport versions refuse each
 * other at the handshake, in both directions, rather than misread a message whose shape changed. A handshake without
 * the field comes from a node built before it existed: version 1.
 *   1: records as msgpack columns (decision 0018)
 *   2: a replica request's and a recovery batch's operations as one byte string (replicated-operations-codec.ts)
 *   3: replica, resync and recovery-batch requests carry the primary's max seqNo of updates and deletes (decision
 *      0033): a copy of version 2 would ignore it, and one of version 3 would look up every id a version 2 sent
 */
export const TRANSPORT_VERSION = 3;

/** The transport version a handshake (request or answer) declares: 1 when it says none. */
export function transportVersionOf(message: unknown): number {
  const version = (message as { transportVersion?: unknown } | null | undefined)?.transportVersion;
  return typeof version === 'number' ? version : 1;
}

/** The refusal of a peer of another transport version, the same words on both ends. */
export function transportVersionMismatch(peer: string, peerVersion: number): EsError {
  return new EsError(
    'illegal_state_exception',
    `handshake failed: ${peer} speaks transport version [${peerVersion}] and this node [${TRANSPORT_VERSION}]; every node of a cluster must run the same Gannet build (a rolling upgrade between these builds is not supported: stop every node, then start the new build)`,
  );
}

export interface HandshakeResponse {
  nodeId: string;
  nodeName: string;
  clusterName: string;
  version: string;
  /** What transportVersionOf reads; registerHandshake sets it. */
  transportVersion?: number;
}

/**
 * Answers handshakes with this node's identity. A peer that names another cluster, or another major version,
 * is refused (ES's TransportService.handshake checks the same on both ends).
 */
export function registerHandshake(transport: TransportService, local: () => HandshakeResponse): void {
  transport.registerHandler(HANDSHAKE_ACTION, async (body) => {
    const me = local();
    const peer = (body ?? {}) as Partial<{ clusterName: string; version: string; nodeId: string }>;
    const peerTransportVersion = transportVersionOf(body);
    if (peerTransportVersion !== TRANSPORT_VERSION) throw transportVersionMismatch(`node [${peer.nodeId ?? 'unknown'}]`, peerTransportVersion);
    if (peer.clusterName !== undefined && peer.clusterName !== me.clusterName) {
      throw new EsError('illegal_state_exception', `handshake failed: mismatched cluster name [${peer.clusterName}] - [${me.clusterName}]`);
    }
    if (peer.version !== undefined && peer.version.split('.')[0] !== me.version.split('.')[0]) {
      throw new EsError('illegal_state_exception', `handshake failed: node version [${peer.version}] is incompatible with [${me.version}]`);
    }
    return { ...me, transportVersion: TRANSPORT_VERSION };
  });
}

export async function handshake(transport: TransportService, address: string, expectedClusterName: string, timeoutMillis = 30_000): Promise<HandshakeResponse> {
  const response = (await transport.send(address, HANDSHAKE_ACTION, { transportVersion: TRANSPORT_VERSION }, { timeoutMillis })) as HandshakeResponse;
  const peerTransportVersion = transportVersionOf(response);
  if (peerTransportVersion !== TRANSPORT_VERSION) throw transportVersionMismatch(`[${address}]`, peerTransportVersion);
  if (response.clusterName !== expectedClusterName) {
    throw new EsError(
      'illegal_state_exception',
      `handshake with [${address}] failed: remote cluster name [${response.clusterName}] does not match local cluster name [${expectedClusterName}]`,
    );
  }
  return response;
}
