/**
 * Serves `start_recovery` on a node holding primaries: one rate limiter for every recovery this node sends
 * (ES's RecoverySettings rate limiter: `indices.recovery.max_bytes_per_sec` is per node, not per recovery).
 */
import type { TransportService } from '../../transport/index.js';
import type { IndicesService } from '../indices-service.js';
import type { ReplicationServices } from '../replication/replication-services.js';
import { START_RECOVERY_ACTION, type StartRecoveryRequest } from './recovery-messages.js';
import { RecoveryRateLimiter } from './rate-limiter.js';
import type { RecoverySettings } from './recovery-settings.js';
import { runRecoverySource } from './recovery-source.js';

export function registerRecoverySource(transport: TransportService, indices: IndicesService, services: ReplicationServices, settings: RecoverySettings): RecoveryRateLimiter {
  const limiter = new RecoveryRateLimiter(() => settings.maxBytesPerSec());
  transport.registerHandler(START_RECOVERY_ACTION, (body) => runRecoverySource(indices, services, limiter, settings, body as StartRecoveryRequest));
  return limiter;
}
