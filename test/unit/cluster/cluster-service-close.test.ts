/**
 * A shutting-down node ends the waits for a cluster state under way (ClusterService.closeWaits) and the master's
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

test('closeWaits ends every wait under way as timed out, leaves no timer behind, and ends later waits at once', async () => {
  const clusterService = new ClusterService(initialClusterState('closing'));
  const waiting = [clusterService.waitFor(() => false, 61_000), clusterService.waitFor(() => false, 62_000)];
  assert.equal(liveTimers().filter((timer) => timer.delayMillis === 61_000 || timer.delayMillis === 62_000).length, 2);
  clusterService.closeWaits();
  for (const outcome of await Promise.all(waiting)) assert.equal(outcome.timedOut, true);
  assert.deepEqual(liveTimers().filter((timer) => timer.delayMillis >= 61_000), [], 'no wait timer left to hold the process');
  const later = await clusterService.waitFor(() => false, 63_000);
  assert.equal(later.timedOut, true);
  assert.deepEqual(liveTimers().filter((timer) => timer.delayMillis === 63_000), []);
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
