/**
 * `GET /_recovery` and `GET /{index}/_recovery` (RestRecoveryAction): the recovery state of every shard copy of
 * the resolved indices (open and closed: RecoveryRequest's STRICT_EXPAND_OPEN_CLOSED), by index, shards in
 * shard order; `active_only` leaves out finished recoveries, `detailed` lists the files. Indices without a
 * recovery to show are left out, so a pattern that matches nothing answers `{}`.
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_CLOSED } from '../../cluster/indices-options.js';
import type { ShardRecoveryState } from '../../indices/index.js';
import { json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { resolveIndices } from './resolve-indices.js';
import { recoveryStateXContent } from './recovery-xcontent.js';

export const RECOVERY_PARAMS = ['detailed', 'active_only', ...INDICES_OPTIONS_PARAMS] as const;

/** The recovery states the request asks for, by index name (sorted), each list in shard order. */
export function collectRecoveries(request: RestRequest, context: ActionContext): Map<string, ShardRecoveryState[]> {
  const activeOnly = request.paramBool('active_only', false);
  const names = resolveIndices(request, context.services.clusterService.state(), STRICT_EXPAND_OPEN_CLOSED).sort();
  const { service } = indicesOf(context.services);
  const recoveries = new Map<string, ShardRecoveryState[]>();
  for (const name of names) {
    const states = service.recoveryStates(name).filter((state) => !activeOnly || state.stage !== 'DONE');
    if (states.length > 0) recoveries.set(name, states);
  }
  return recoveries;
}

const recoveryHandler: Route['handler'] = async (request, context) => {
  const detailed = request.paramBool('detailed', false);
  const recoveries = collectRecoveries(request, context);
  const body: Record<string, unknown> = {};
  for (const [index, states] of recoveries) {
    body[index] = { shards: states.map((state) => recoveryStateXContent(state, context.services.localNode, { human: request.human, detailed })) };
  }
  return json(body);
};

export const recoveryRoutes: Route[] = [
  { method: 'GET', path: '/_recovery', action: 'indices:monitor/recovery', params: RECOVERY_PARAMS, handler: recoveryHandler },
  { method: 'GET', path: '/{index}/_recovery', action: 'indices:monitor/recovery', params: RECOVERY_PARAMS, handler: recoveryHandler },
];
