/**
 * `GET /_recovery` and `GET /{index}/_recovery` (RestRecoveryAction): the recovery state of every shard copy of
 * the resolved indices (open and closed: RecoveryRequest's STRICT_EXPAND_OPEN_CLOSED), by index, shards in
 * shard order; `active_only` leaves out finished recoveries, `detailed` lists the files. Indices without a
 * recovery to show are left out, so a pattern that matches nothing answers `{}`. Each copy's state comes from
 * the node that holds it (recovery-broadcast.ts).
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_CLOSED } from '../../cluster/indices-options.js';
import { json, type ActionContext, type RestRequest, type Route } from '../rest.js';
import { resolveIndices } from './resolve-indices.js';
import { recoveryStateXContent } from './recovery-xcontent.js';
import { collectRecoveryStates, RECOVERY_ACTION, type ReportedRecovery } from './recovery-broadcast.js';

export const RECOVERY_PARAMS = ['detailed', 'active_only', ...INDICES_OPTIONS_PARAMS] as const;

/** The recovery states the request asks for (from every node), by index name (sorted), each list in shard order. */
export async function collectRecoveries(request: RestRequest, context: ActionContext): Promise<Map<string, ReportedRecovery[]>> {
  const activeOnly = request.paramBool('active_only', false);
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_CLOSED).sort();
  const { recoveries: collected } = await collectRecoveryStates(context, state, names);
  const recoveries = new Map<string, ReportedRecovery[]>();
  for (const name of names) {
    const states = (collected.get(name) ?? []).filter((reported) => !activeOnly || reported.state.stage !== 'DONE');
    if (states.length > 0) recoveries.set(name, states);
  }
  return recoveries;
}

const recoveryHandler: Route['handler'] = async (request, context) => {
  const detailed = request.paramBool('detailed', false);
  const recoveries = await collectRecoveries(request, context);
  const body: Record<string, unknown> = {};
  for (const [index, states] of recoveries) {
    body[index] = { shards: states.map(({ state, target }) => recoveryStateXContent(state, target, { human: request.human, detailed })) };
  }
  return json(body);
};

export const recoveryRoutes: Route[] = [
  { method: 'GET', path: '/_recovery', action: RECOVERY_ACTION, params: RECOVERY_PARAMS, handler: recoveryHandler },
  { method: 'GET', path: '/{index}/_recovery', action: RECOVERY_ACTION, params: RECOVERY_PARAMS, handler: recoveryHandler },
];
