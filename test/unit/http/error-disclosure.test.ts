/**
 * What an error answer may show: a real HttpServer in this process, with routes that fail the ways a bug or the
 * file system makes a handler fail. The client reads ES's error shape with a stable reason, no absolute path and no
 * JavaScript wording; `error_trace=true` adds ES's `stack_trace` with the original failure; the node's log has it all.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { HttpServer } from '../../../src/http/http-server.js';
import type { Route } from '../../../src/actions/rest.js';
import type { NodeServices } from '../../../src/actions/context.js';
import { ClusterService } from '../../../src/cluster/cluster-service.js';
import { TaskManager } from '../../../src/tasks/task-manager.js';
import { NodeMonitor } from '../../../src/monitor/node-monitor.js';
import { Settings } from '../../../src/common/settings.js';
import { versionInfo } from '../../../src/common/version.js';
import { EsError, INTERNAL_ERROR_REASON, setInternalErrorReporter, toEsError } from '../../../src/common/errors.js';
import { registerRedactedRoot } from '../../../src/common/redact.js';
import { ThreadPools } from '../../../src/common/thread-pools.js';
import { CircuitBreakerService } from '../../../src/common/circuit-breakers.js';
import { clusterState, node } from '../../helpers/cluster-state-builder.js';
import { rawRequest } from '../../helpers/node-process.js';

let server: HttpServer;
let port: number;
const logLines: string[] = [];
const dataPath = mkdtempSync(join(tmpdir(), 'gannet-disclosure-'));

const routes: Route[] = [
  {
    method: 'GET',
    path: '/_test/bug',
    action: 'test:bug',
    handler: async () => {
      const missing = undefined as unknown as { field: { inner: number } };
      return { kind: 'json', status: 200, body: { value: missing.field.inner } };
    },
  },
  {
    method: 'GET',
    path: '/_test/fs',
    action: 'test:fs',
    handler: async () => {
      readFileSync(join(dataPath, 'indices', 'no-such-uuid', '0', 'segments_7'));
      return { kind: 'json', status: 200, body: {} };
    },
  },
  {
    method: 'GET',
    path: '/_test/es-path',
    action: 'test:es-path',
    handler: async () => {
      throw new EsError('corrupt_index_exception', `checksum failed (resource=${join(dataPath, 'indices', 'u', '0', '_0.fdt')})`);
    },
  },
];

before(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  registerRedactedRoot(dataPath, '<path.data>');
  setInternalErrorReporter((err) => logger.error({ err }, 'internal error'));
  const services: NodeServices = {
    settings: new Settings({}),
    version: versionInfo('8.19.2'),
    localNode: node('node-a'),
    clusterService: new ClusterService(clusterState()),
    taskManager: new TaskManager('node-a'),
    monitor: new NodeMonitor(tmpdir()),
    logger,
    threadPools: new ThreadPools('node-a', 2, 1 << 30),
    breakers: new CircuitBreakerService(() => ({})),
  };
  server = new HttpServer(services, { host: '127.0.0.1', ports: [0, 0], maxContentLength: 1 << 20, compression: false, allowedHosts: [] }, logger);
  server.register(routes);
  port = await server.start();
});

after(async () => {
  setInternalErrorReporter(() => undefined);
  await server.stop();
  rmSync(dataPath, { recursive: true, force: true });
});

/** Nothing a client should not read: no absolute path under the data path, no JavaScript wording, no frames. */
function assertDiscreet(text: string): void {
  assert.ok(!text.includes(dataPath), `no data path in ${text}`);
  assert.doesNotMatch(text, /Cannot read properties|TypeError|undefined \(reading|at [\w.<>]+ \(|file:\/\//);
}

test('a bug in a handler is a 500 `exception` with the stable internal reason, logged in full', async () => {
  const res = await rawRequest(port, 'GET', '/_test/bug');
  assert.equal(res.status, 500);
  assert.equal(res.body.error.type, 'exception');
  assert.equal(res.body.error.reason, INTERNAL_ERROR_REASON);
  assert.deepEqual(res.body.error.root_cause, [{ type: 'exception', reason: INTERNAL_ERROR_REASON }]);
  assertDiscreet(res.text);
  const logged = logLines.join('');
  assert.match(logged, /Cannot read properties of undefined \(reading 'field'\)/, 'the log has the original message');
  assert.match(logged, /error-disclosure\.test\.js/, 'the log has the stack');
});

test('error_trace=true adds ES stack_trace with the original failure as "Caused by"', async () => {
  const res = await rawRequest(port, 'GET', '/_test/bug?error_trace=true');
  assert.equal(res.status, 500);
  assert.equal(res.body.error.reason, INTERNAL_ERROR_REASON);
  assert.match(res.body.error.stack_trace, /Caused by: TypeError: Cannot read properties of undefined \(reading 'field'\)/);
});

test('a file-system failure names the call and code, not the path', async () => {
  const res = await rawRequest(port, 'GET', '/_test/fs');
  assert.equal(res.status, 500);
  assert.equal(res.body.error.reason, 'ENOENT: no such file or directory, open');
  assertDiscreet(res.text);
});

test('an ES error about a file shows it under <path.data>', async () => {
  const res = await rawRequest(port, 'GET', '/_test/es-path');
  assert.equal(res.status, 500);
  assert.equal(res.body.error.type, 'corrupt_index_exception');
  assert.equal(res.body.error.reason, 'checksum failed (resource=<path.data>/indices/u/0/_0.fdt)');
  assertDiscreet(res.text);
});

test('toEsError converts one thrown value once (one log line, one wrapper)', () => {
  const reported: unknown[] = [];
  setInternalErrorReporter((err) => reported.push(err));
  const bug = new TypeError('x is not a function');
  const first = toEsError(bug);
  assert.equal(toEsError(bug), first);
  assert.equal(first.reason, INTERNAL_ERROR_REASON);
  assert.equal(first.cause, bug);
  assert.deepEqual(reported, [bug]);
});
