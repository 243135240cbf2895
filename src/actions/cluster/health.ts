/**
 * `GET /_cluster/health` and `GET /_cluster/health/{index}` (ES's RestClusterHealthAction and
 * TransportClusterHealthAction). The request runs as a cancellable `cluster:monitor/health` task: while it
 * waits for its conditions it watches cluster-state changes with the task's abort signal, so a client that
 * disconnects (or a `_tasks/_cancel`) ends the wait at once with task_cancelled_exception.
 *
 * Waiting: with `timeout=0` the current state is judged once (`timed_out` = conditions not met). Otherwise
 * the current state, then every new one, until all conditions hold or the timeout passes; on timeout the
 * latest state is reported with `timed_out: true` and HTTP 408 (a normal body, not an error).
 */
import { EsError } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import {
  evaluateHealth,
  waitConditionCount,
  type ClusterHealthRequest,
  type ClusterHealthResult,
  type MasterServiceStats,
} from '../../cluster/health/index.js';
import type { ClusterService, ClusterState } from '../../cluster/index.js';
import type { Task } from '../../tasks/index.js';
import { json, type Route } from '../rest.js';
import { parseHealthRequest } from './health-params.js';
import { renderHealth } from './health-response.js';

/** setTimeout's longest delay (about 24.8 days); longer timeouts would fire at once, so they are capped. */
const LONGEST_TIMER_MILLIS = 2 ** 31 - 1;

const HEALTH_PARAMS = [
  ...INDICES_OPTIONS_PARAMS,
  'local',
  'master_timeout',
  'timeout',
  'wait_for_status',
  'wait_for_no_relocating_shards',
  'wait_for_no_initializing_shards',
  // Declared only so its use gets ES's "has been removed" error rather than "unrecognized parameter".
  'wait_for_relocating_shards',
  'wait_for_active_shards',
  'wait_for_nodes',
  'wait_for_events',
];

const handler: Route['handler'] = async (rest, { task, services }) => {
  const { request, level, local, masterTimeoutMillis } = parseHealthRequest(rest);
  if (!local) await waitForMaster(services.clusterService, masterTimeoutMillis, rest.param('master_timeout') ?? rest.param('timeout') ?? '30s', task);
  const { result, timedOut } = await clusterHealth(request, services.clusterService, task);
  return json(renderHealth(result, timedOut, level, rest.human), timedOut ? 408 : 200);
};

export const clusterHealthRoutes: Route[] = ['/_cluster/health', '/_cluster/health/{index}'].map((path) => ({
  method: 'GET' as const,
  path,
  params: HEALTH_PARAMS,
  responseParams: ['level'],
  action: 'cluster:monitor/health',
  cancellable: true,
  // ES creates the health task as a CancellableTask with an empty description.
  describe: () => '',
  handler,
}));

export async function clusterHealth(
  request: ClusterHealthRequest,
  clusterService: ClusterService,
  task: Task,
): Promise<{ result: ClusterHealthResult; timedOut: boolean }> {
  const waitCount = waitConditionCount(request);
  const evaluate = (state: ClusterState) => evaluateHealth(state, request, masterStats(clusterService));
  const respond = (state: ClusterState, timedOut: boolean) => {
    task.ensureNotCancelled();
    const result = evaluate(state);
    // A state that meets every condition is not a timeout, unless the events wait itself timed out.
    return { result, timedOut: timedOut || result.conditionsMet !== waitCount };
  };

  let timeoutMillis = request.timeoutMillis;
  if (request.waitForEvents !== undefined) {
    const deadline = Date.now() + timeoutMillis;
    const eventsProcessed = await waitForPendingUpdates(clusterService, timeoutMillis, task.signal);
    if (!eventsProcessed) return respond(clusterService.state(), true);
    timeoutMillis = Math.max(0, deadline - Date.now());
  }
  task.ensureNotCancelled();
  if (timeoutMillis === 0) return respond(clusterService.state(), false);
  const outcome = await clusterService.waitFor((state) => evaluate(state).conditionsMet === waitCount, Math.min(timeoutMillis, LONGEST_TIMER_MILLIS), task);
  return respond(outcome.state, outcome.timedOut);
}

/**
 * Health is a master read action: unless `local`, it waits for an elected master (until the node has
 * recovered its state, or joins a cluster) and fails with 503 master_not_discovered_exception after
 * `master_timeout`. ES's exception has a null reason; Gannet says what it waited for, as the cat APIs do.
 */
async function waitForMaster(clusterService: ClusterService, timeoutMillis: number, timeoutText: string, task: Task): Promise<void> {
  const bounded = timeoutMillis < 0 ? LONGEST_TIMER_MILLIS : Math.min(timeoutMillis, LONGEST_TIMER_MILLIS);
  const { timedOut } = await clusterService.waitFor((state) => state.masterNodeId !== undefined, bounded, task);
  if (timedOut) throw new EsError('master_not_discovered_exception', `no master node was discovered within [${timeoutText}]`);
}

function masterStats(clusterService: ClusterService): MasterServiceStats {
  return {
    numberOfPendingTasks: clusterService.pendingTaskCount,
    numberOfInFlightFetch: clusterService.inFlightFetches,
    taskMaxWaitingInQueueMillis: clusterService.maxTaskWaitMillis,
  };
}

/**
 * `wait_for_events`: ES queues a no-op cluster-state task at the given priority and waits for it to run, so
 * the answer reflects every update queued before it. Gannet's master queue is first-in first-out with no
 * priorities, so the equivalent is waiting until the queue has drained. Resolves false when `timeoutMillis`
 * passes first; a timeout of 0 (or less) waits without bound, as an ES task with no timeout does.
 */
function waitForPendingUpdates(clusterService: ClusterService, timeoutMillis: number, signal: AbortSignal): Promise<boolean> {
  const pollMillis = 5;
  const deadline = timeoutMillis > 0 ? Date.now() + timeoutMillis : Number.POSITIVE_INFINITY;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (signal.aborted) {
        reject(signal.reason);
      } else if (clusterService.pendingTaskCount === 0) {
        resolve(true);
      } else if (Date.now() >= deadline) {
        resolve(false);
      } else {
        setTimeout(check, Math.min(pollMillis, Math.max(0, deadline - Date.now())));
      }
    };
    check();
  });
}
