/**
 * The primary's checkpoint tracking (ReplicationTracker) under random histories: the global checkpoint never
 * exceeds the local checkpoint of any in-sync copy, and never goes back, whatever the order of checkpoint
 * reports, master updates (copies joining or leaving the in-sync set) and recoveries (tracking, marking in sync).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ReplicationTracker, UNASSIGNED_SEQ_NO } from '../../../../src/indices/replication/replication-tracker.js';

const PRIMARY = 'p';
const COPIES = ['r1', 'r2', 'r3'];

type Step =
  | { kind: 'report'; copy: string; advance: number }
  | { kind: 'master'; removed: string[]; routed: string[] }
  | { kind: 'track'; copy: string }
  | { kind: 'markInSync'; copy: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('report' as const), copy: fc.constantFrom(PRIMARY, ...COPIES), advance: fc.integer({ min: 0, max: 5 }) }),
  // The master only ever adds a copy the primary marked in sync (shard started after recovery) and removes copies.
  fc.record({ kind: fc.constant('master' as const), removed: fc.subarray(COPIES), routed: fc.subarray(COPIES) }),
  fc.record({ kind: fc.constant('track' as const), copy: fc.constantFrom(...COPIES) }),
  fc.record({ kind: fc.constant('markInSync' as const), copy: fc.constantFrom(...COPIES) }),
);

test('the global checkpoint never exceeds an in-sync copy\'s local checkpoint and never goes back', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const tracker = new ReplicationTracker(PRIMARY);
      tracker.activatePrimaryMode(-1);
      // What each copy has really processed (its reports never exceed it and only grow).
      const processed = new Map<string, number>([[PRIMARY, -1], ...COPIES.map((copy) => [copy, -1] as [string, number])]);
      let version = 0;
      let previous = tracker.knownGlobalCheckpoint;
      for (const s of steps) {
        if (s.kind === 'report') {
          const next = processed.get(s.copy)! + s.advance;
          processed.set(s.copy, next);
          tracker.updateLocalCheckpoint(s.copy, next);
        } else if (s.kind === 'master') {
          const inSync = tracker.inSyncAllocationIds().filter((id) => !s.removed.includes(id));
          // A copy leaving the in-sync set leaves the routing table too (the master failed it).
          const routed = s.routed.filter((id) => !s.removed.includes(id) || inSync.includes(id));
          tracker.updateFromMaster(++version, inSync, [PRIMARY, ...new Set([...inSync, ...routed])]);
        } else if (s.kind === 'track') {
          if (tracker.checkpoint(s.copy) !== undefined) tracker.initiateTracking(s.copy);
        } else if (tracker.checkpoint(s.copy) !== undefined) {
          void tracker.markInSync(s.copy, processed.get(s.copy)!).catch(() => undefined);
        }
        const global = tracker.knownGlobalCheckpoint;
        assert.ok(global >= previous, `went back from ${previous} to ${global}`);
        previous = global;
        for (const id of tracker.inSyncAllocationIds()) {
          const reported = tracker.checkpoint(id)!.localCheckpoint;
          assert.ok(reported === UNASSIGNED_SEQ_NO || global <= reported, `global ${global} above in-sync ${id}'s ${reported}`);
          assert.ok(global <= processed.get(id)!, `global ${global} above what ${id} processed`);
        }
        assert.ok(global <= processed.get(PRIMARY)!, 'never above the primary');
      }
    }),
    { numRuns: 500 },
  );
});

test('a copy marked in sync waits until it reaches the global checkpoint', async () => {
  const tracker = new ReplicationTracker(PRIMARY);
  tracker.activatePrimaryMode(10);
  tracker.updateFromMaster(1, [PRIMARY], [PRIMARY, 'r1']);
  assert.equal(tracker.knownGlobalCheckpoint, 10);
  tracker.initiateTracking('r1');
  assert.deepEqual(tracker.replicationTargets(), ['r1']);
  let done = false;
  const marking = tracker.markInSync('r1', 4).then(() => (done = true));
  await Promise.resolve();
  assert.equal(done, false, 'lags behind the global checkpoint');
  assert.deepEqual(tracker.inSyncAllocationIds(), [PRIMARY]);
  tracker.updateLocalCheckpoint('r1', 10);
  await marking;
  assert.deepEqual(tracker.inSyncAllocationIds().sort(), [PRIMARY, 'r1']);
  tracker.updateLocalCheckpoint(PRIMARY, 15);
  assert.equal(tracker.knownGlobalCheckpoint, 10, 'held by the copy now in sync');
  tracker.updateLocalCheckpoint('r1', 12);
  assert.equal(tracker.knownGlobalCheckpoint, 12);
});

test('an in-sync copy that has not reported holds the checkpoint; one the master drops stops holding it', () => {
  const tracker = new ReplicationTracker(PRIMARY);
  tracker.activatePrimaryMode(5);
  tracker.updateFromMaster(1, [PRIMARY, 'r1'], [PRIMARY, 'r1']);
  tracker.updateLocalCheckpoint(PRIMARY, 9);
  assert.equal(tracker.knownGlobalCheckpoint, 5, 'r1 has not reported: the checkpoint stays');
  tracker.updateLocalCheckpoint('r1', 7);
  assert.equal(tracker.knownGlobalCheckpoint, 7);
  tracker.updateFromMaster(2, [PRIMARY], [PRIMARY]);
  assert.equal(tracker.knownGlobalCheckpoint, 9);
  tracker.updateFromMaster(1, [PRIMARY, 'r1'], [PRIMARY, 'r1']);
  assert.deepEqual(tracker.inSyncAllocationIds(), [PRIMARY], 'an older state is ignored');
});
