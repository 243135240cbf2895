/**
 * `_reindex`, `_update_by_query` and `_delete_by_query` end to end on a real node: counts checked against the
 * source (three shards, a query, max_docs, `_source` filtering, op_type=create conflicts with abort and
 * proceed, version_type external), update_by_query picking up a mapping change, delete_by_query leaving
 * exactly the non-matching documents, ES's validation errors, and a `wait_for_completion=false` task whose
 * detailed status grows batch by batch.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const DOCS = 300;
const GROUPS = ['a', 'b', 'c'];
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

async function bulkInto(index: string, count: number, doc: (i: number) => Record<string, unknown>): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify(doc(i)));
  const res = await node.request('POST', `/${index}/_bulk?refresh=true`, { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text.slice(0, 500));
}

async function count(index: string, query?: unknown): Promise<number> {
  const res = await node.request('POST', `/${index}/_count`, query === undefined ? {} : { body: { query } });
  assert.equal(res.status, 200, res.text);
  return res.body.count;
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'reindex-node' } });
  const created = await node.request('PUT', '/src', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' }, group: { type: 'keyword' } } } } });
  assert.equal(created.status, 200, created.text);
  await bulkInto('src', DOCS, (i) => ({ n: i, group: GROUPS[i % 3], text: `doc ${i}` }));
});
after(async () => {
  await node.stop();
});


test('reindex copies every document, in batches of source.size, and reports ES\'s response', async () => {
  const res = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'src', size: 70 }, dest: { index: 'copy' } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['took', 'timed_out', 'total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis', 'failures']);
  assert.equal(res.body.total, DOCS);
  assert.equal(res.body.created, DOCS);
  assert.equal(res.body.batches, Math.ceil(DOCS / 70));
  assert.equal(res.body.requests_per_second, -1);
  assert.match(res.text, /"requests_per_second":-1\.0/);
  assert.deepEqual(res.body.failures, []);
  assert.equal(await count('copy'), DOCS);
  const doc = await node.request('GET', '/copy/_doc/42');
  assert.deepEqual(doc.body._source, { n: 42, group: 'a', text: 'doc 42' });
});

test('reindex with a query, max_docs and _source filtering copies exactly that', async () => {
  const res = await node.request('POST', '/_reindex?refresh=true', {
    body: { max_docs: 40, source: { index: 'src', size: 15, query: { term: { group: 'b' } }, _source: ['n'] }, dest: { index: 'filtered' } },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, 40);
  assert.equal(res.body.created, 40);
  assert.equal(await count('filtered'), 40);
  const hits = await node.request('POST', '/filtered/_search', { body: { size: 100 } });
  for (const hit of hits.body.hits.hits) {
    assert.deepEqual(Object.keys(hit._source), ['n']);
    assert.equal(hit._source.n % 3, 1);
  }
});

test('op_type=create: conflicts abort at the first batch with 409 and failures; proceed counts them', async () => {
  const abort = await node.request('POST', '/_reindex', { body: { source: { index: 'src', size: 50 }, dest: { index: 'copy', op_type: 'create' } } });
  assert.equal(abort.status, 409, abort.text);
  assert.equal(abort.body.created, 0);
  assert.equal(abort.body.batches, 1);
  assert.equal(abort.body.version_conflicts, 50);
  assert.equal(abort.body.failures.length, 50);
  const failure = abort.body.failures[0];
  assert.deepEqual(Object.keys(failure), ['index', 'id', 'cause', 'status']);
  assert.equal(failure.index, 'copy');
  assert.equal(failure.status, 409);
  assert.equal(failure.cause.type, 'version_conflict_engine_exception');
  assert.match(failure.cause.reason, /version conflict, document already exists/);

  const proceed = await node.request('POST', '/_reindex', { body: { conflicts: 'proceed', source: { index: 'src', size: 50 }, dest: { index: 'copy', op_type: 'create' } } });
  assert.equal(proceed.status, 200, proceed.text);
  assert.equal(proceed.body.version_conflicts, DOCS);
  assert.equal(proceed.body.created, 0);
  assert.deepEqual(proceed.body.failures, []);
});

test('version_type external keeps the source versions and only newer ones overwrite', async () => {
  const first = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'src' }, dest: { index: 'versioned', version_type: 'external' } } });
  assert.equal(first.body.created, DOCS, first.text);
  const updated = await node.request('PUT', '/src/_doc/7?refresh=true', { body: { n: 7, group: 'b', text: 'changed' } });
  assert.equal(updated.body._version, 2);
  const second = await node.request('POST', '/_reindex?refresh=true', { body: { conflicts: 'proceed', source: { index: 'src' }, dest: { index: 'versioned', version_type: 'external' } } });
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.updated, 1);
  assert.equal(second.body.version_conflicts, DOCS - 1);
  const doc = await node.request('GET', '/versioned/_doc/7');
  assert.equal(doc.body._version, 2);
  assert.equal(doc.body._source.text, 'changed');
  await node.request('PUT', '/src/_doc/7?refresh=true', { body: { n: 7, group: 'b', text: 'doc 7' } });
});

test('update_by_query picks up a mapping change for documents indexed before it', async () => {
  const created = await node.request('PUT', '/ubq', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: { dynamic: false, properties: { n: { type: 'long' } } } } });
  assert.equal(created.status, 200, created.text);
  await bulkInto('ubq', 120, (i) => ({ n: i, tag: i % 2 === 0 ? 'even' : 'odd' }));
  assert.equal(await count('ubq', { term: { tag: 'even' } }), 0);
  const mapped = await node.request('PUT', '/ubq/_mapping', { body: { properties: { tag: { type: 'keyword' } } } });
  assert.equal(mapped.status, 200, mapped.text);
  const res = await node.request('POST', '/ubq/_update_by_query?refresh=true&scroll_size=25', {});
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['took', 'timed_out', 'total', 'updated', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis', 'failures']);
  assert.equal(res.body.updated, 120);
  assert.equal(res.body.batches, 5);
  assert.equal(await count('ubq', { term: { tag: 'even' } }), 60);
  const doc = await node.request('GET', '/ubq/_doc/3');
  assert.equal(doc.body._version, 2);
});

test('update_by_query with q= and max_docs touches only that many matching documents', async () => {
  const res = await node.request('POST', '/ubq/_update_by_query?q=tag:odd&max_docs=10&refresh=true', {});
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, 10);
  assert.equal(res.body.updated, 10);
  const bumped = await node.request('POST', '/ubq/_search', { body: { size: 200, version: true } });
  const v3 = bumped.body.hits.hits.filter((hit: any) => hit._version === 3);
  assert.equal(v3.length, 10);
  assert.ok(v3.every((hit: any) => hit._source.tag === 'odd'));
});

test('delete_by_query leaves exactly the documents that do not match', async () => {
  const res = await node.request('POST', '/copy/_delete_by_query?refresh=true&scroll_size=40', { body: { query: { term: { group: 'a' } } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['took', 'timed_out', 'total', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis', 'failures']);
  assert.equal(res.body.deleted, DOCS / 3);
  assert.equal(await count('copy'), DOCS - DOCS / 3);
  assert.equal(await count('copy', { term: { group: 'a' } }), 0);
  assert.equal(await count('copy', { term: { group: 'b' } }), DOCS / 3);
});

test('validation errors are ES\'s', async () => {
  const cases: [string, unknown, number, string, string][] = [
    ['/_reindex', { source: { index: 'src' }, dest: { index: 'src' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: reindex cannot write into an index its reading from [src];'],
    ['/_reindex', { source: { index: 'src' }, dest: {} }, 400, 'action_request_validation_exception', 'Validation Failed: 1: index must be specified;'],
    ['/_reindex', { source: {}, dest: { index: 'x' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: use _all if you really want to copy from all existing indexes;'],
    ['/_reindex', { source: { index: 'src', _source: false }, dest: { index: 'x' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: _source:false is not supported in this context;'],
    ['/_reindex', { source: { index: 'src' }, dest: { index: 'x', routing: 'bad' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: routing must be unset, [keep], [discard] or [=<some new value>];'],
    ['/_reindex', { source: { index: 'src', remote: { host: 'http://127.0.0.1:9200' } }, dest: { index: 'x' } }, 400, 'illegal_argument_exception', '[127.0.0.1:9200] not whitelisted in reindex.remote.whitelist'],
    ['/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, conflicts: 'foo' }, 400, 'illegal_argument_exception', 'conflicts may only be "proceed" or "abort" but was [foo]'],
    ['/_reindex?requests_per_second=0', { source: { index: 'src' }, dest: { index: 'x' } }, 400, 'illegal_argument_exception', '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.'],
    ['/_reindex?slices=0', { source: { index: 'src' }, dest: { index: 'x' } }, 400, 'illegal_argument_exception', '[slices] must be a positive integer or the string "auto", but was [0]'],
    ['/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, foo: 1 }, 400, 'x_content_parse_exception', '[reindex] unknown field [foo]'],
    ['/src/_delete_by_query', { max_docs: 1 }, 400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;'],
    ['/src/_update_by_query?conflicts=foo', {}, 400, 'illegal_argument_exception', 'conflicts may only be "proceed" or "abort" but was [foo]'],
    ['/src/_delete_by_query', { query: { match_all: {} }, max_docs: -3 }, 400, 'illegal_argument_exception', '[max_docs] parameter cannot be negative, found [-3]'],
  ];
  for (const [path, body, status, type, reason] of cases) {
    const res = await node.request('POST', path, { body });
    assert.equal(res.status, status, `${path} ${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.type, type, path);
    assert.equal(res.body.error.reason, reason, path);
  }
  assert.equal(await count('src'), DOCS);
});

interface ListedTask {
  readonly id: string;
  readonly task: any;
}

async function tasksMatching(actions: string): Promise<ListedTask[]> {
  const res = await node.request('GET', `/_tasks?detailed=true&actions=${encodeURIComponent(actions)}`);
  assert.equal(res.status, 200, res.text);
  const out: ListedTask[] = [];
  for (const entry of Object.values<any>(res.body.nodes ?? {})) for (const [id, task] of Object.entries<any>(entry.tasks)) out.push({ id, task });
  return out;
}

test('wait_for_completion=false answers a task id; _tasks and _cat/tasks show its description and a growing status', async () => {
  const started = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=100', { body: { source: { index: 'src', size: 10 }, dest: { index: 'background' } } });
  assert.equal(started.status, 200, started.text);
  assert.deepEqual(Object.keys(started.body), ['task']);
  const taskId: string = started.body.task;
  assert.match(taskId, new RegExp(`^${node.nodeId}:\\d+$`));
  const seenBatches = new Set<number>();
  let sawStatus: any;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const listed = (await tasksMatching('*reindex')).find((entry) => entry.id === taskId);
    if (listed === undefined) break;
    assert.equal(listed.task.action, 'indices:data/write/reindex');
    assert.equal(listed.task.description, 'reindex from [src] to [background]');
    assert.equal(listed.task.cancellable, true);
    sawStatus = listed.task.status;
    seenBatches.add(sawStatus.batches);
    if (seenBatches.size >= 3) break;
    await sleep(50);
  }
  assert.ok(seenBatches.size >= 3, `the status should grow batch by batch, saw batches ${[...seenBatches].join(',')}`);
  assert.equal(sawStatus.total, DOCS);
  assert.equal(sawStatus.requests_per_second, 100);
  const got = await node.request('GET', `/_tasks/${taskId}`);
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body.task.description, 'reindex from [src] to [background]');
  const cat = await node.request('GET', '/_cat/tasks?detailed=true&format=json&actions=*reindex');
  assert.equal(cat.status, 200, cat.text);
  const row = cat.body.find((entry: any) => entry.task_id === taskId);
  assert.ok(row !== undefined || (await tasksMatching('*reindex')).length === 0, cat.text);
  if (row !== undefined) assert.equal(row.description, 'reindex from [src] to [background]');
  // Let it finish: the task disappears from the running list and every document arrived.
  const end = Date.now() + 60_000;
  while (Date.now() < end && (await tasksMatching('*reindex')).some((entry) => entry.id === taskId)) await sleep(100);
  await node.request('POST', '/background/_refresh');
  assert.equal(await count('background'), DOCS);
});
