/**
 * A shutting-down node fails the waits for a cluster state under way (ClusterService.closeWaits) and the master's
 * waits for acks (PublicationAcks.close): their timers run up to a request's timeout (a write waiting a minute for a
 * master), and one left pending kept the shut-down process alive until its exit watchdog ended it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterService } from '../../../src/cluster/index.js';
import { initialClusterState } from '../../../src/cluster/coordination/embedded-coordinator.js';
import { liveTimers } from '../../../src/common/live-timers.js';
import { PublicationAcks } from '../../../src/cluster/publication-acks.js';
import type { TransportService } from '../../../src/transport/index.js';

test('closeWaits fails every wait under way with node_closed_exception, leaves no timer behind, and fails later waits at once', async () => {
  const clusterService = new ClusterService(initialClusterState('closing'));
  const waiting = [clusterService.waitFor(() => false, 61_000), clusterService.waitFor(() => false, 62_000)];
  assert.equal(liveTimers().filter((timer) => timer.delayMillis === 61_000 || timer.delayMillis === 62_000).length, 2);
  clusterService.closeWaits();
  for (const outcome of await Promise.allSettled(waiting)) {
    assert.equal(outcome.status, 'rejected');
    assert.equal((outcome as PromiseRejectedResult).reason.type, 'node_closed_exception');
  }
  assert.deepEqual(liveTimers().filter((timer) => timer.delayMillis >= 61_000), [], 'no wait timer left to hold the process');
  await assert.rejects(clusterService.waitFor(() => false, 63_000), { type: 'node_closed_exception' });
  assert.deepEqual(liveTimers().filter((timer) => timer.delayMillis === 63_000), []);
});

test('a retry loop that waits for a newer state ends once the waits are closed instead of spinning on the event loop', async () => {
  // The shape of a bulk's shard group (write-executor, runShardGroupOnPrimary): try, then wait for a newer state,
  // until its deadline. A closed wait that resolved at once made it spin on resolved promises for up to the bulk's
  // timeout, and nothing else ran: a node stopping under a bulk never finished its stop (failover bench).
  const clusterService = new ClusterService(initialClusterState('closing'));
  clusterService.closeWaits();
  let eventLoopTurned = false;
  setImmediate(() => {
    eventLoopTurned = true;
  });
  const deadline = Date.now() + 1000;
  let rounds = 0;
  let failure: unknown;
  try {
    while (Date.now() < deadline) {
      rounds++;
      const state = clusterService.state();
      await clusterService.waitFor((next) => next.version > state.version, Math.max(0, deadline - Date.now()));
    }
  } catch (err) {
    failure = err;
  }
  assert.equal(eventLoopTurned, false, 'the loop ended within one turn of the event loop');
  assert.equal(rounds, 1);
  assert.equal((failure as { type?: string } | undefined)?.type, 'node_closed_exception');
});

test('PublicationAcks.close ends the waits for acks unacknowledged and leaves no timer behind', async () => {
  const clusterService = new ClusterService(initialClusterState('closing'));
  // Only its handler registration is used here: no ack ever arrives.
  const transport = { registerHandler: () => undefined } as unknown as TransportService;
  const acks = new PublicationAcks(clusterService, transport, 'local');
  const state = clusterService.state();
  clusterService.apply({ ...state, version: state.version + 1, nodes: new Map([...state.nodes, ['other', { ...[...state.nodes.values()][0]!, id: 'other' }]]) } as typeof state);
  const waiting = acks.waitForAcks(state.version + 5, 64_000);
  assert.equal(liveTimers().filter((timer) => timer.delayMillis === 64_000).length, 1);
  acks.close();
  assert.equal(await waiting, false);
  assert.deepEqual(liveTimers().filter((timer) => timer.delayMillis === 64_000), []);
});
