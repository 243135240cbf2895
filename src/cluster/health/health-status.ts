/**
 * ES's ClusterHealthStatus: green < yellow < red, compared by their wire value (0, 1, 2). Written lowercase
 * on the wire; parsed from upper case by `wait_for_status`.
 */
export type HealthStatus = 'green' | 'yellow' | 'red';

const SEVERITY: Record<HealthStatus, number> = { green: 0, yellow: 1, red: 2 };

/** The status ES's `ClusterHealthStatus.value()` gives: 0 green, 1 yellow, 2 red. */
export function statusValue(status: HealthStatus): number {
  return SEVERITY[status];
}

/** The worse of two statuses (red beats yellow beats green). */
export function worseStatus(a: HealthStatus, b: HealthStatus): HealthStatus {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}

/** True when `actual` is at least as good as `wanted` (what `wait_for_status` waits for). */
export function isAtLeast(actual: HealthStatus, wanted: HealthStatus): boolean {
  return SEVERITY[actual] <= SEVERITY[wanted];
}
