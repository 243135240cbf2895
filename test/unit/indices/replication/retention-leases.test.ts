/**
 * What a primary persists at once and what waits (index-shard.ts maintainLeases): a lease added, removed or reset
 * lower changes `membershipVersion`; a renewal that only moves a lease up changes `version` alone, so it can wait
 * for the periodic write (a lease read back after a crash is then lower than in memory: more history kept, never less).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RetentionLeases } from '../../../../src/indices/replication/retention-leases.js';

test('renewals move version only; add, reset lower and remove move membershipVersion too', () => {
  const leases = new RetentionLeases();
  leases.addOrRenew('peer_recovery/a', 10, 1_000);
  assert.deepEqual([leases.version, leases.membershipVersion], [1, 1]);
  // A replica response moves its lease up: a renewal.
  leases.addOrRenew('peer_recovery/a', 500, 3_000);
  assert.deepEqual([leases.version, leases.membershipVersion], [2, 1]);
  // The same seqNo again, or a lower one without reset (never moves down): nothing to persist.
  leases.addOrRenew('peer_recovery/a', 500, 3_100);
  leases.addOrRenew('peer_recovery/a', 20, 5_000);
  assert.deepEqual([leases.version, leases.membershipVersion], [2, 1]);
  assert.equal(leases.get('peer_recovery/a')!.retainingSeqNo, 500);
  // A new recovery resets the lease lower: persisted at once.
  const before = leases.membershipVersion;
  leases.addOrRenew('peer_recovery/a', 100, 6_000, true);
  assert.equal(leases.membershipVersion, before + 1);
  // Reset to the same or a higher seqNo is a renewal.
  leases.addOrRenew('peer_recovery/a', 300, 7_000, true);
  assert.equal(leases.membershipVersion, before + 1);
  leases.addOrRenew('peer_recovery/b', 0, 7_000);
  assert.equal(leases.membershipVersion, before + 2);
  leases.remove('peer_recovery/b');
  assert.equal(leases.membershipVersion, before + 3);
  leases.remove('peer_recovery/b');
  assert.equal(leases.membershipVersion, before + 3, 'removing what is not there changes nothing');
});
