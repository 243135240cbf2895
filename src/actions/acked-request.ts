/**
 * ES's AcknowledgedRequest parameters of the APIs that change the cluster state: `timeout` (how long the master
 * waits for every node to apply the change before answering `acknowledged: false`) and `master_timeout` (how long
 * to wait for a master), both 30s by default.
 */
import type { AckOptions } from '../cluster/metadata/metadata-service.js';
import type { ActionContext, RestRequest } from './rest.js';

export const ACKED_REQUEST_DEFAULT_MILLIS = 30_000;

export function ackOptions(request: RestRequest, context: ActionContext): AckOptions {
  return {
    ackTimeoutMillis: request.paramTimeMillis('timeout', ACKED_REQUEST_DEFAULT_MILLIS),
    masterTimeoutMillis: request.paramTimeMillis('master_timeout', ACKED_REQUEST_DEFAULT_MILLIS),
    signal: context.task.signal,
  };
}
