/**
 * The cluster state a cat request reads. ES asks the elected master for it (waiting up to `master_timeout`
 * for one to be known) unless `local=true`, which reads this node's copy at once. Gannet nodes apply every
 * state the master publishes, so "the master's state" is the local copy once a master is known.
 */
import { EsError } from '../../common/errors.js';
import type { ClusterState } from '../../cluster/index.js';
import type { ActionContext, RestRequest } from '../rest.js';

/** ES's default master_timeout. */
const DEFAULT_MASTER_TIMEOUT_MILLIS = 30_000;
/** `master_timeout=-1` waits forever; setTimeout's longest delay stands in for that. */
const FOREVER_MILLIS = 2 ** 31 - 1;

export interface StateReadOptions {
  /** Whether the endpoint reads `local` (cat allocation does, cat nodes does not). */
  readonly acceptsLocal: boolean;
}

export async function readClusterState(request: RestRequest, context: ActionContext, options: StateReadOptions): Promise<ClusterState> {
  const local = options.acceptsLocal ? request.paramBool('local', false) : false;
  const timeout = request.paramTimeMillis('master_timeout', DEFAULT_MASTER_TIMEOUT_MILLIS);
  const clusterService = context.services.clusterService;
  if (local) return clusterService.state();
  const { state, timedOut } = await clusterService.waitFor(
    (candidate) => candidate.masterNodeId !== undefined,
    timeout < 0 ? FOREVER_MILLIS : timeout,
    context.task,
  );
  if (timedOut) {
    throw new EsError('master_not_discovered_exception', `no master node was discovered within [${request.param('master_timeout') ?? '30s'}]`);
  }
  return state;
}
