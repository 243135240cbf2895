/**
 * Peer-recovery retention leases of one primary (ES's RetentionLeases, the `peer_recovery/<node>` kind only):
 * each node holding (or about to hold) a copy of the shard has a lease naming the lowest seqNo its next
 * operations-based recovery would ask for; the primary keeps its translog from the lowest such seqNo on.
 *
 * Simplified from ES (docs/decisions/0012-replication-and-retention.md): history is the translog, not soft
 * deletes; a lease is keyed by node, so a copy that comes back to the same node (a restart) finds it; a lease is
 * renewed from the copy's replication responses with the first seqNo a restart of it would ask for (its persisted
 * global checkpoint + 1: it replays its own translog up to there, decision 0021); leases of nodes that hold no copy are dropped once every copy is started, and any lease
 * expires after `index.soft_deletes.retention_lease.period` (12h) without renewal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../../common/atomic-file.js';

/** The file in a shard directory that keeps a primary's leases across restarts (ES persists them likewise). */
export const LEASES_FILE = 'retention-leases.json';

/**
 * How often a primary persists leases that only moved up (renewals from replica responses, which move every
 * second under writes), as ES's background retention lease sync (`index.soft_deletes.retention_lease.sync_interval`,
 * 30 s) persists them. Safe: a lease read back after a crash is at most this old, so it retains *more* history
 * than needed, never less (a lease only moves up between two writes of the file); added, removed and reset leases
 * are persisted at once. Writing the file on every renewal cost a primary two synchronous fsyncs on its event
 * loop every second of a replicated bulk.
 */
export const LEASE_RENEWAL_PERSIST_MILLIS = 30_000;

export function readLeasesFile(shardPath: string): RetentionLease[] {
  try {
    const parsed = JSON.parse(readFileSync(join(shardPath, LEASES_FILE), 'utf8')) as { leases?: RetentionLease[] };
    return Array.isArray(parsed.leases) ? parsed.leases.filter((lease) => typeof lease.id === 'string' && Number.isFinite(lease.retainingSeqNo)) : [];
  } catch {
    return [];
  }
}

export function writeLeasesFile(shardPath: string, leases: readonly RetentionLease[]): void {
  writeFileAtomically(join(shardPath, LEASES_FILE), JSON.stringify({ leases }));
}

export interface RetentionLease {
  readonly id: string;
  readonly retainingSeqNo: number;
  readonly timestampMillis: number;
}

/** ES's ReplicationTracker.PEER_RECOVERY_RETENTION_LEASE_SOURCE: the `source` of every lease Gannet keeps. */
export const PEER_RECOVERY_LEASE_SOURCE = 'peer recovery';

/** A copy's leases as `_stats?level=shards` shows them (ES's RetentionLeaseStats). */
export interface RetentionLeasesView {
  /** The primary term under which the primary last changed the leases. */
  readonly primaryTerm: number;
  /** Bumped by the primary on every change of the leases. */
  readonly version: number;
  readonly leases: readonly RetentionLease[];
}

export function peerRecoveryLeaseId(nodeId: string): string {
  return `peer_recovery/${nodeId}`;
}

export class RetentionLeases {
  private readonly leases = new Map<string, RetentionLease>();
  /** Bumped on every change, so the owner knows when to persist. */
  version = 0;
  /**
   * Bumped when a lease is added, removed or reset (a new recovery may move it down), not when a renewal only
   * moves a lease up: the owner persists such changes at once and renewals at most every
   * LEASE_RENEWAL_PERSIST_MILLIS (see there why that is safe).
   */
  membershipVersion = 0;

  constructor(initial: readonly RetentionLease[] = []) {
    for (const lease of initial) this.leases.set(lease.id, lease);
  }

  /** Adds a lease or moves it; a lease's retaining seqNo only moves up unless `reset` (a new recovery). */
  addOrRenew(id: string, retainingSeqNo: number, nowMillis: number, reset = false): void {
    const existing = this.leases.get(id);
    const seqNo = existing === undefined || reset ? retainingSeqNo : Math.max(existing.retainingSeqNo, retainingSeqNo);
    if (existing !== undefined && existing.retainingSeqNo === seqNo && nowMillis - existing.timestampMillis < 1000) return;
    this.leases.set(id, { id, retainingSeqNo: seqNo, timestampMillis: nowMillis });
    if (existing === undefined || existing.retainingSeqNo !== seqNo) this.version++;
    if (existing === undefined || seqNo < existing.retainingSeqNo) this.membershipVersion++;
  }

  remove(id: string): void {
    if (!this.leases.delete(id)) return;
    this.version++;
    this.membershipVersion++;
  }

  get(id: string): RetentionLease | undefined {
    return this.leases.get(id);
  }

  /** Drops leases not renewed within `periodMillis`. */
  expire(nowMillis: number, periodMillis: number): void {
    for (const [id, lease] of this.leases) if (nowMillis - lease.timestampMillis > periodMillis) this.remove(id);
  }

  /** Keeps only the leases `keep` accepts. */
  retainOnly(keep: (id: string) => boolean): void {
    for (const id of [...this.leases.keys()]) if (!keep(id)) this.remove(id);
  }

  /** The lowest seqNo any lease retains; Infinity with no lease. */
  minRetainingSeqNo(): number {
    let lowest = Infinity;
    for (const lease of this.leases.values()) lowest = Math.min(lowest, lease.retainingSeqNo);
    return lowest;
  }

  list(): RetentionLease[] {
    return [...this.leases.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}
