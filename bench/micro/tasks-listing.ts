/**
 * The CPU one `GET /_tasks` (group_by=nodes) spends on its listing, in one process and without a host's noise
 * (issue 12's ops goal, decision 0026): the tasks that N concurrent listings hold on a three-node cluster (each
 * request's HTTP task and `direct` child on the coordinating node, a transport child on each other node) are
 * registered in three task managers; per request, the two other nodes read the request, list theirs and encode the
 * answer frame, and the coordinating node lists its own, decodes the two frames and writes the response's chunks
 * (what the HTTP layer hands to the socket).
 *
 * Usage: node dist/bench/micro/tasks-listing.js [--inflight 50] [--rounds 15]
 * Prints the best round's microseconds per request of each side (the least disturbed by other processes).
 */
import { TaskManager } from '../../src/tasks/index.js';
import { listRequestFromWire, listRequestToWire, listTasksOnNode, type ListTasksRequest } from '../../src/actions/tasks/list-tasks.js';
import { tasksResultFromWire, tasksResultToWire } from '../../src/actions/tasks/task-wire.js';
import { tasksResponseJson } from '../../src/actions/tasks/tasks-response.js';
import type { NodeTasksResult } from '../../src/actions/tasks/node-fanout.js';
import { encodeFrame, FrameDecoder, FrameKind, type ResponseFrame } from '../../src/transport/frame.js';
import { writeJsonChunks } from '../../src/http/xcontent.js';
import type { DiscoveryNode } from '../../src/cluster/index.js';
import type { NodeServices } from '../../src/actions/context.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const inflight = arg('inflight', 50);
const rounds = arg('rounds', 15);
const ids = ['Zx3hQ0bZSh6QeU4o0d1vqA', 'k9YwJ2nGTa2cD0lP8xR5mQ', 'c1VbN7sUQfOeH4tA6yW2pg'];
const managers = ids.map((id) => new TaskManager(id));
for (let i = 0; i < inflight; i++) {
  const http = managers[0]!.register({ action: 'cluster:monitor/tasks/lists', headers: {} });
  const child = { action: 'cluster:monitor/tasks/lists[n]', parentTaskId: http.taskId, cancellable: true, headers: {} };
  managers[0]!.register({ ...child, type: 'direct' });
  managers[1]!.register(child);
  managers[2]!.register(child);
}
const nodes = new Map<string, DiscoveryNode>(
  ids.map((id, i) => [id, { id, name: `node-${i}`, ephemeralId: 'e', host: '127.0.0.1', ip: '127.0.0.1', transportPort: 9300 + i, httpPort: 9200 + i, roles: ['data', 'ingest', 'master'], attributes: {}, version: '8.19.2' }]),
);
const request: ListTasksRequest = { nodes: [], filter: { actions: [], parentTaskId: undefined }, detailed: false, waitForCompletion: false, timeoutMillis: undefined, renderJson: { human: false } };
const servicesOf = (i: number) => ({ taskManager: managers[i]! }) as unknown as NodeServices;

let responseBytes = 0;
async function oneRequest(timers: { remote: number; coordinating: number }): Promise<void> {
  let start = performance.now();
  const frames: Buffer[] = [];
  const wire = listRequestToWire(request);
  for (const i of [1, 2]) frames.push(encodeFrame({ kind: FrameKind.Response, id: 7, body: tasksResultToWire(await listTasksOnNode(servicesOf(i), listRequestFromWire(wire))) }));
  timers.remote += performance.now() - start;
  start = performance.now();
  const local = await listTasksOnNode(servicesOf(0), request);
  const decoder = new FrameDecoder();
  const outcomes: NodeTasksResult[] = [local, ...frames.map((frame) => tasksResultFromWire((decoder.push(frame)[0] as ResponseFrame).body))];
  const rendered = outcomes.map((outcome, i) => ({ nodeId: ids[i]!, ...outcome.rendered! }));
  responseBytes = 0;
  for (const chunk of writeJsonChunks(tasksResponseJson({ tasks: [], taskFailures: [], nodeFailures: [], rendered }, 'nodes', nodes, { human: false }))) responseBytes += chunk.length;
  timers.coordinating += performance.now() - start;
}

const best = { remote: Infinity, coordinating: Infinity };
const perRound = 300;
for (let round = 0; round < rounds; round++) {
  const timers = { remote: 0, coordinating: 0 };
  for (let i = 0; i < perRound; i++) await oneRequest(timers);
  // The first two rounds warm the JIT up.
  if (round < 2) continue;
  best.remote = Math.min(best.remote, (timers.remote / perRound) * 1000);
  best.coordinating = Math.min(best.coordinating, (timers.coordinating / perRound) * 1000);
}
console.log(
  `_tasks listing, ${inflight} requests in flight (${managers.reduce((sum, m) => sum + m.list().length, 0)} tasks), response ${responseBytes} bytes; ` +
    `us per request, best round: each other node (list + answer frame) ${(best.remote / 2).toFixed(1)}, coordinating node (own list, 2 frames decoded, response bytes) ${best.coordinating.toFixed(1)}`,
);
