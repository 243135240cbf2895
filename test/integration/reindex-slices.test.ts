/**
 * Sliced reindex and the rethrottle APIs on a real node: `slices=3` and `slices=auto` run one child task per
 * slice under the leader (listed by `parent_task_id`), the children's statuses sum to the leader's, and the
 * final counts equal the source; rethrottling a slow reindex to -1 makes it finish at once and its status
 * reports the new rate; ES's errors for a missing rate, an unknown task and a task that is not a
 * bulk-by-scroll task.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const DOCS = 120;
const COUNTERS = ['total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops'] as const;
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

type Status = Record<string, number | Record<string, unknown>[] | unknown>;
interface TaskJson {
  readonly node: string;
  readonly id: number;
  readonly action: string;
  readonly parent_task_id?: string;
  readonly status?: Status;
}

/** Polls `probe` until it returns a value, with a generous deadline for a loaded machine. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, deadlineMillis = 60_000): Promise<T> {
  const deadline = Date.now() + deadlineMillis;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function tasksWith(query: string): Promise<TaskJson[]> {
  const res = await node.request('GET', `/_tasks?detailed=true&group_by=none&${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body.tasks as TaskJson[];
}

async function count(index: string): Promise<number> {
  await node.request('POST', `/${index}/_refresh`);
  return (await node.request('GET', `/${index}/_count`)).body.count;
}

/** Starts a background reindex and returns its task id. */
async function startReindex(query: string, body: Record<string, unknown>): Promise<string> {
  const res = await node.request('POST', `/_reindex?wait_for_completion=false&${query}`, { body });
  assert.equal(res.status, 200, res.text);
  return res.body.task as string;
}

async function finished(taskId: string): Promise<Record<string, unknown>> {
  const res = await node.request('GET', `/_tasks/${taskId}?wait_for_completion=true&timeout=120s`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.completed, true);
  return res.body.response as Record<string, unknown>;
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'reindex-slices-node' } });
  const created = await node.request('PUT', '/src', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' } } } } });
  assert.equal(created.status, 200, created.text);
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i }));
  const res = await node.request('POST', '/src/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text.slice(0, 300));
});
after(async () => {
  await node.stop();
});

test('slices=3: child tasks under the leader, statuses summing to the leader\'s, rethrottled as a whole', async () => {
  // 1 request per second per slice and batches of 5: slow enough to watch while it runs.
  const leaderId = await startReindex('slices=3&requests_per_second=3', { source: { index: 'src', size: 5 }, dest: { index: 'dest3' } });
  const children = await waitFor('three slice tasks', async () => {
    const listed = await tasksWith(`parent_task_id=${leaderId}`);
    return listed.length === 3 ? listed : undefined;
  });
  for (const child of children) {
    assert.equal(child.action, 'indices:data/write/reindex');
    assert.equal(child.parent_task_id, leaderId);
  }
  assert.deepEqual(children.map((child) => (child.status as Status)['slice_id']).sort(), [0, 1, 2]);
  for (const child of children) assert.equal((child.status as Status)['requests_per_second'], 1);

  // One listing holds the leader and its children; the children's counters sum to the leader's once both
  // snapshots fall between the same batches (retried, since a batch may land between the two reads).
  await waitFor('children summing to the leader', async () => {
    const listed = await tasksWith('actions=*reindex');
    const leader = listed.find((task) => `${task.node}:${task.id}` === leaderId);
    const kids = listed.filter((task) => task.parent_task_id === leaderId);
    if (leader === undefined || kids.length !== 3) return undefined;
    const leaderStatus = leader.status as Status;
    const slices = leaderStatus['slices'] as Status[];
    assert.equal(slices.length, 3);
    // The leader's own sum always equals its slices array (one snapshot).
    for (const counter of COUNTERS) assert.equal(leaderStatus[counter], slices.reduce((sum, slice) => sum + (slice[counter] as number), 0), counter);
    const matches = COUNTERS.every((counter) => leaderStatus[counter] === kids.reduce((sum, kid) => sum + ((kid.status as Status)[counter] as number), 0));
    return matches && (leaderStatus['batches'] as number) > 0 ? true : undefined;
  });

  const rethrottled = await node.request('POST', `/_reindex/${leaderId}/_rethrottle?requests_per_second=-1`);
  assert.equal(rethrottled.status, 200, rethrottled.text);
  const nodeBlock = Object.values(rethrottled.body.nodes as Record<string, { tasks: Record<string, TaskJson> }>)[0]!;
  const leaderInfo = nodeBlock.tasks[leaderId]!;
  assert.equal(leaderInfo.action, 'indices:data/write/reindex');
  assert.equal((leaderInfo.status as Status)['requests_per_second'], -1);
  assert.match(rethrottled.text, /"requests_per_second":-1\.0/);

  const response = await finished(leaderId);
  assert.equal(response['total'], DOCS);
  assert.equal(response['created'], DOCS);
  const slices = response['slices'] as Status[];
  assert.deepEqual(slices.map((slice) => slice['slice_id']), [0, 1, 2]);
  assert.equal(slices.reduce((sum, slice) => sum + (slice['created'] as number), 0), DOCS);
  assert.equal(await count('dest3'), DOCS);
});

test('slices=auto uses the source\'s shard count and copies everything', async () => {
  const res = await node.request('POST', '/_reindex?slices=auto&refresh=true', { body: { source: { index: 'src', size: 10 }, dest: { index: 'dest-auto' } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, DOCS);
  assert.equal((res.body.slices as Status[]).length, 3);
  assert.deepEqual(Object.keys((res.body.slices as Status[])[0]!).slice(0, 2), ['slice_id', 'total']);
  assert.equal(await count('dest-auto'), DOCS);
  // max_docs is split between the slices, rounding down as ES does.
  const limited = await node.request('POST', '/_reindex?slices=3&refresh=true', { body: { max_docs: 10, source: { index: 'src', size: 2 }, dest: { index: 'dest-limited' } } });
  assert.equal(limited.status, 200, limited.text);
  assert.equal(limited.body.created, 9);
});

test('a slow reindex rethrottled to -1 finishes at once and reports the new rate', async () => {
  // 5 requests per second with batches of 5: the whole source would take DOCS / 5 seconds.
  const taskId = await startReindex('requests_per_second=5', { source: { index: 'src', size: 5 }, dest: { index: 'dest-slow' } });
  await waitFor('a first batch', async () => {
    const task = await node.request('GET', `/_tasks/${taskId}`);
    return task.body.completed === false && (task.body.task.status.batches as number) >= 1 ? true : undefined;
  });
  const rethrottled = await node.request('POST', `/_reindex/${taskId}/_rethrottle?requests_per_second=-1&group_by=none`);
  assert.equal(rethrottled.status, 200, rethrottled.text);
  const [info] = rethrottled.body.tasks as TaskJson[];
  assert.equal(`${info!.node}:${info!.id}`, taskId);
  assert.equal((info!.status as Status)['requests_per_second'], -1);
  const started = Date.now();
  const response = await finished(taskId);
  // Unthrottled, the rest is a few dozen small batches: far less than the DOCS / 5 = 24 s it had left.
  assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms after the rethrottle`);
  assert.equal(response['created'], DOCS);
  assert.equal(response['requests_per_second'], -1);
});

test('rethrottle errors as ES reports them', async () => {
  const missingRate = await node.request('POST', '/_reindex/abc:1/_rethrottle');
  assert.equal(missingRate.status, 400);
  assert.equal(missingRate.body.error.reason, 'requests_per_second is a required parameter');
  const zero = await node.request('POST', '/_update_by_query/abc:1/_rethrottle?requests_per_second=0');
  assert.equal(zero.status, 400);
  assert.equal(zero.body.error.reason, '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  const malformed = await node.request('POST', '/_delete_by_query/nocolon/_rethrottle?requests_per_second=2');
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.reason, 'malformed task id nocolon');

  // The listing task lists itself: its node is this node.
  const nodeId = (await tasksWith('actions=cluster:monitor/tasks/lists'))[0]!.node;
  const unknown = await node.request('POST', `/_reindex/${nodeId}:999999/_rethrottle?requests_per_second=2`);
  assert.equal(unknown.status, 200, unknown.text);
  assert.deepEqual(unknown.body.nodes, {});
  assert.equal(unknown.body.node_failures[0].type, 'failed_node_exception');
  assert.equal(unknown.body.node_failures[0].caused_by.type, 'resource_not_found_exception');
  assert.equal(unknown.body.node_failures[0].caused_by.reason, `task [${nodeId}:999999] is missing`);

  // A running task that is not a bulk-by-scroll task: a health request waiting for nodes that never come.
  const health = node.request('GET', '/_cluster/health?wait_for_nodes=9&timeout=10s');
  const waiting = await waitFor('the waiting health task', async () => (await tasksWith('actions=cluster:monitor/health'))[0]);
  const notReindex = await node.request('POST', `/_reindex/${waiting.node}:${waiting.id}/_rethrottle?requests_per_second=2`);
  assert.equal(notReindex.body.node_failures[0].caused_by.type, 'resource_not_found_exception');
  assert.equal(notReindex.body.node_failures[0].caused_by.reason, `task [${waiting.node}:${waiting.id}] doesn't support this operation`);
  // Done with it: cancelled rather than waited out (its 10 s timeout was a third of this file's time).
  assert.equal((await node.request('POST', `/_tasks/${waiting.node}:${waiting.id}/_cancel`)).status, 200);
  await health;
});
