/**
 * What a cluster health request asks for and whether a cluster state satisfies it, as ES's
 * TransportClusterHealthAction computes it (clusterHealth + prepareResponse). The waiting itself (timeouts,
 * cancellation) is the caller's; this module only judges one state.
 */
import { EsError } from '../../common/errors.js';
import type { ClusterState } from '../cluster-state.js';
import { resolveConcreteIndexNames } from '../index-name-resolver.js';
import { STRICT_EXPAND_OPEN_CLOSED, type IndicesOptions } from '../indices-options.js';
import { computeClusterStateHealth, delayedUnassignedShards, type ClusterStateHealth } from './cluster-state-health.js';
import { isAtLeast, type HealthStatus } from './health-status.js';
import { nodeCountMatches, type NodeCountCondition } from './wait-for-nodes.js';

/** ES's Priority, for `wait_for_events`. */
export type EventPriority = 'IMMEDIATE' | 'URGENT' | 'HIGH' | 'NORMAL' | 'LOW' | 'LANGUID';

export interface ClusterHealthRequest {
  /** Index expressions from the path; empty means the whole cluster. */
  indices: readonly string[];
  indicesOptions: IndicesOptions;
  timeoutMillis: number;
  waitForStatus?: HealthStatus;
  waitForNoRelocatingShards: boolean;
  waitForNoInitializingShards: boolean;
  /** A number of active shard copies, `all`, or undefined for no wait (ES's ActiveShardCount.NONE). */
  waitForActiveShards?: number | 'all';
  waitForNodes?: NodeCountCondition;
  waitForEvents?: EventPriority;
}

/** Figures that come from the master service rather than the cluster state. */
export interface MasterServiceStats {
  numberOfPendingTasks: number;
  numberOfInFlightFetch: number;
  taskMaxWaitingInQueueMillis: number;
}

export interface ClusterHealthResult {
  clusterName: string;
  /** The status to report: the computed one, or red when a named index is missing. */
  status: HealthStatus;
  health: ClusterStateHealth;
  delayedUnassignedShards: number;
  stats: MasterServiceStats;
  /** How many of the request's wait conditions this state meets. */
  conditionsMet: number;
}

/** How many conditions the request waits for; a state is acceptable when it meets all of them. */
export function waitConditionCount(request: ClusterHealthRequest): number {
  let count = 0;
  if (request.waitForStatus !== undefined) count++;
  if (request.waitForNoRelocatingShards) count++;
  if (request.waitForNoInitializingShards) count++;
  if (request.waitForActiveShards !== undefined) count++;
  if (request.waitForNodes !== undefined) count++;
  // Named indices must exist: a missing one keeps the request waiting (and red) until the timeout.
  if (request.indices.length > 0) count++;
  return count;
}

export function evaluateHealth(state: ClusterState, request: ClusterHealthRequest, stats: MasterServiceStats): ClusterHealthResult {
  let concreteIndices: string[];
  let status: HealthStatus | undefined;
  try {
    concreteIndices = resolveConcreteIndexNames(state, request.indicesOptions, request.indices);
  } catch (err) {
    if (!isIndexNotFound(err)) throw err;
    concreteIndices = [];
    status = 'red';
  }
  const health = computeClusterStateHealth(state, concreteIndices);
  status ??= health.status;

  // The order matters: the status condition sees the status before a missing index turns it red, as in ES.
  let conditionsMet = 0;
  if (request.waitForStatus !== undefined && isAtLeast(status, request.waitForStatus)) conditionsMet++;
  if (request.waitForNoRelocatingShards && health.relocatingShards === 0) conditionsMet++;
  if (request.waitForNoInitializingShards && health.initializingShards === 0) conditionsMet++;
  if (request.waitForActiveShards === 'all') {
    if (health.unassignedShards === 0 && health.initializingShards === 0) conditionsMet++;
  } else if (request.waitForActiveShards !== undefined && health.activeShards >= request.waitForActiveShards) {
    conditionsMet++;
  }
  if (request.indices.length > 0) {
    // Existence is checked strictly whatever the request's own options: ignore_unavailable does not make a
    // missing index acceptable to wait for.
    try {
      resolveConcreteIndexNames(state, STRICT_EXPAND_OPEN_CLOSED, request.indices);
      conditionsMet++;
    } catch (err) {
      if (!isIndexNotFound(err)) throw err;
      status = 'red';
    }
  }
  if (request.waitForNodes !== undefined && nodeCountMatches(request.waitForNodes, health.numberOfNodes)) conditionsMet++;

  return { clusterName: state.clusterName, status, health, delayedUnassignedShards: delayedUnassignedShards(state), stats, conditionsMet };
}

function isIndexNotFound(err: unknown): boolean {
  return err instanceof EsError && err.type === 'index_not_found_exception';
}
