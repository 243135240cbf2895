/**
 * The whole path in one process: a real HttpServer with the health routes, a client that goes away while the
 * health request waits, and the node's task manager inspected directly to see the task end.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import pino from 'pino';
import { HttpServer } from '../../../../src/http/http-server.js';
import { clusterHealthRoutes } from '../../../../src/actions/cluster/health.js';
import type { NodeServices } from '../../../../src/actions/context.js';
import { ClusterService } from '../../../../src/cluster/cluster-service.js';
import { TaskManager } from '../../../../src/tasks/task-manager.js';
import { NodeMonitor } from '../../../../src/monitor/node-monitor.js';
import { Settings } from '../../../../src/common/settings.js';
import { versionInfo } from '../../../../src/common/version.js';
import { ThreadPools } from '../../../../src/common/thread-pools.js';
import { CircuitBreakerService } from '../../../../src/common/circuit-breakers.js';
import { clusterState, node } from '../../../helpers/cluster-state-builder.js';

let server: HttpServer;
let taskManager: TaskManager;
let clusterService: ClusterService;
let port: number;

before(async () => {
  const logger = pino({ level: 'silent' });
  taskManager = new TaskManager('node-a');
  const services: NodeServices = {
    settings: new Settings({}),
    version: versionInfo('8.19.2'),
    localNode: node('node-a'),
    clusterService: (clusterService = new ClusterService(clusterState())),
    taskManager,
    monitor: new NodeMonitor(tmpdir()),
    logger,
    threadPools: new ThreadPools('node-a', 2, 1 << 30),
    breakers: new CircuitBreakerService(() => ({})),
  };
  server = new HttpServer(services, { host: '127.0.0.1', ports: [0, 0], maxContentLength: 1 << 20, compression: false }, logger);
  server.register(clusterHealthRoutes);
  port = await server.start();
});

after(async () => {
  await server.stop();
});

function healthTasks() {
  return taskManager.list().filter((task) => task.action === 'cluster:monitor/health');
}

/** Polls (under a loaded CI machine a request may take a while to reach the handler). */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('the health request runs as a cancellable cluster:monitor/health task', async () => {
  const req = httpRequest({ host: '127.0.0.1', port, path: '/_cluster/health?wait_for_nodes=3&timeout=1s' });
  const answered = new Promise<number>((resolve) => req.on('response', (res) => {
    res.resume();
    resolve(res.statusCode ?? 0);
  }));
  req.end();
  await eventually(() => healthTasks().length > 0, 'the health task is registered');
  const [task] = healthTasks();
  assert.ok(task, 'a task is registered while the request waits');
  assert.equal(task.cancellable, true);
  assert.equal(task.description, '');
  assert.equal(await answered, 408);
  assert.equal(healthTasks().length, 0);
});

test('a client that disconnects cancels the waiting health task, which ends promptly', async () => {
  const req = httpRequest({ host: '127.0.0.1', port, path: '/_cluster/health?wait_for_nodes=5&timeout=60s' });
  req.on('error', () => undefined);
  req.end();
  await eventually(() => healthTasks().length > 0, 'the health task is registered');
  const [task] = healthTasks();
  assert.ok(task, 'the request is waiting');
  const started = Date.now();
  req.destroy();
  // Promptly against the request's 60 s timeout, not against the clock of a quiet host: the disconnect crosses a
  // socket and a turn of the loop or two, which a loaded CI host (2 cores, load 20) can stretch past half a second.
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([
    task.whenCompleted(),
    new Promise((_, reject) => (deadline = setTimeout(() => reject(new Error('the health task did not end within 10 s of the disconnect (its timeout is 60 s)')), 10_000))),
  ]);
  clearTimeout(deadline);
  assert.ok(Date.now() - started < 10_000, `ended ${Date.now() - started}ms after the disconnect`);
  assert.equal(task.isCancelled, true);
  assert.equal(task.cancellationReason, 'channel closed');
  assert.equal(healthTasks().length, 0);
});

test('without an elected master the request waits for one, then fails with 503 master_not_discovered_exception', async () => {
  const get = (path: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      })
        .on('error', reject)
        .end();
    });
  const blocked = [{ id: 1, description: 'state not recovered / initialized', status: 503 }];
  clusterService.apply(clusterState({ version: 10, nodes: [], globalBlocks: blocked }));
  const noMaster = await get('/_cluster/health?timeout=50ms');
  assert.equal(noMaster.status, 503);
  assert.equal(noMaster.body.error.type, 'master_not_discovered_exception');
  assert.equal(noMaster.body.error.reason, 'no master node was discovered within [50ms]');
  const local = await get('/_cluster/health?local=true&timeout=50ms');
  assert.equal(local.status, 200, 'local reads this node\'s state without a master');
  assert.equal(local.body.status, 'red', 'the 503 block makes it red');
  assert.equal(local.body.number_of_nodes, 0);
  assert.equal(local.body.active_shards_percent_as_number, 0, 'no shards and not green: 0.0 rather than NaN');

  const waiting = get('/_cluster/health?master_timeout=5s&timeout=1s');
  setTimeout(() => clusterService.apply(clusterState({ version: 11 })), 50);
  const recovered = await waiting;
  assert.equal(recovered.status, 200);
  assert.equal(recovered.body.status, 'green');
});
