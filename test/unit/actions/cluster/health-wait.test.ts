import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterService } from '../../../../src/cluster/cluster-service.js';
import { TaskManager } from '../../../../src/tasks/task-manager.js';
import { clusterHealth } from '../../../../src/actions/cluster/health.js';
import { LENIENT_EXPAND_OPEN_CLOSED_HIDDEN } from '../../../../src/cluster/indices-options.js';
import { parseWaitForNodes, type ClusterHealthRequest } from '../../../../src/cluster/health/index.js';
import { EsError } from '../../../../src/common/errors.js';
import { clusterState, greenIndex, node } from '../../../helpers/cluster-state-builder.js';

function request(overrides: Partial<ClusterHealthRequest>): ClusterHealthRequest {
  return { indices: [], indicesOptions: LENIENT_EXPAND_OPEN_CLOSED_HIDDEN, timeoutMillis: 30_000, waitForNoRelocatingShards: false, waitForNoInitializingShards: false, ...overrides };
}

function setup() {
  const clusterService = new ClusterService(clusterState({ version: 1 }));
  const taskManager = new TaskManager('node-a');
  const task = taskManager.register({ action: 'cluster:monitor/health', cancellable: true });
  return { clusterService, taskManager, task };
}

describe('waiting for conditions', () => {
  test('conditions already met answer at once, not timed out', async () => {
    const { clusterService, task } = setup();
    const { result, timedOut } = await clusterHealth(request({ waitForNodes: parseWaitForNodes('1') }), clusterService, task);
    assert.equal(timedOut, false);
    assert.equal(result.health.numberOfNodes, 1);
  });

  test('timeout=0 judges the current state once', async () => {
    const { clusterService, task } = setup();
    const started = Date.now();
    const unmet = await clusterHealth(request({ timeoutMillis: 0, waitForNodes: parseWaitForNodes('2') }), clusterService, task);
    assert.equal(unmet.timedOut, true);
    assert.ok(Date.now() - started < 1000, 'no waiting');
    const met = await clusterHealth(request({ timeoutMillis: 0 }), clusterService, task);
    assert.equal(met.timedOut, false);
  });

  test('a later cluster state that meets the conditions ends the wait', async () => {
    const { clusterService, task } = setup();
    const waiting = clusterHealth(request({ waitForNodes: parseWaitForNodes('>=2'), indices: ['a'] }), clusterService, task);
    setTimeout(() => clusterService.apply(clusterState({ version: 2, nodes: [node('n1'), node('n2')] })), 20);
    setTimeout(() => clusterService.apply(clusterState({ version: 3, nodes: [node('n1'), node('n2')], indices: [greenIndex('a')] })), 40);
    const { result, timedOut } = await waiting;
    assert.equal(timedOut, false);
    assert.equal(result.status, 'green');
    assert.equal(result.health.numberOfNodes, 2);
  });

  test('the timeout reports the latest state with timed_out and red for a missing index', async () => {
    const { clusterService, task } = setup();
    const started = Date.now();
    const { result, timedOut } = await clusterHealth(request({ timeoutMillis: 50, indices: ['missing'] }), clusterService, task);
    assert.equal(timedOut, true);
    assert.equal(result.status, 'red');
    assert.ok(Date.now() - started >= 45);
  });

  test('cancelling the task ends the wait promptly with task_cancelled_exception', async () => {
    const { clusterService, taskManager, task } = setup();
    const waiting = clusterHealth(request({ timeoutMillis: 60_000, waitForNodes: parseWaitForNodes('5') }), clusterService, task);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await taskManager.cancel(task, 'channel closed', false);
    await assert.rejects(waiting, (err: unknown) => err instanceof EsError && err.type === 'task_cancelled_exception' && err.reason === 'task cancelled [channel closed]' && err.status === 400);
    assert.ok(Date.now() - started < 1000, 'ends long before the 60s timeout');
  });

  test('wait_for_events waits for queued cluster-state updates, within the timeout', async () => {
    const { clusterService, task } = setup();
    clusterService.pendingTaskCount = 1;
    // Taken before the timer is set: taken after, a stall of this process between the two made the wait look short.
    const started = Date.now();
    setTimeout(() => {
      clusterService.pendingTaskCount = 0;
    }, 30);
    const done = await clusterHealth(request({ waitForEvents: 'LANGUID', timeoutMillis: 5_000 }), clusterService, task);
    assert.equal(done.timedOut, false);
    assert.ok(Date.now() - started >= 25);

    clusterService.pendingTaskCount = 1;
    const stuck = await clusterHealth(request({ waitForEvents: 'URGENT', timeoutMillis: 40 }), clusterService, task);
    assert.equal(stuck.timedOut, true, 'an events wait that times out counts as timed out even with no other condition');
    assert.equal(stuck.result.stats.numberOfPendingTasks, 1);
  });
});

describe('waiting with a task rather than a signal', () => {
  test('a state that is already right is answered without making the task\'s signal; a wait listens to it', async () => {
    const clusterService = new ClusterService(clusterState({ version: 1 }));
    let signalsMade = 0;
    const controller = new AbortController();
    const task = {
      isCancelled: false,
      get signal() {
        signalsMade++;
        return controller.signal;
      },
    };
    const now = await clusterService.waitFor(() => true, 1000, task);
    assert.equal(now.timedOut, false);
    assert.equal(signalsMade, 0);
    const waiting = clusterService.waitFor(() => false, 30_000, task);
    assert.equal(signalsMade, 1);
    controller.abort(new Error('cancelled by test'));
    await assert.rejects(waiting, /cancelled by test/);
  });

  test('a task cancelled before the wait is refused with its reason', async () => {
    const clusterService = new ClusterService(clusterState({ version: 1 }));
    const taskManager = new TaskManager('node-a');
    const task = taskManager.register({ action: 'cluster:monitor/health', cancellable: true });
    await taskManager.cancel(task, 'gone', false);
    await assert.rejects(clusterService.waitFor(() => true, 1000, task), (err: unknown) => err instanceof EsError && err.type === 'task_cancelled_exception');
  });
});
