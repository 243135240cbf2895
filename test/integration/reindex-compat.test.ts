/**
 * Issue 17's reindex-family mismatches, over HTTP on a real node: a destination that `action.auto_create_index`
 * forbids is ES's 404 before the task starts (also with wait_for_completion=false: no task, no stored result);
 * ES 8 refuses a body `size` (reindex: an unknown field; by-query: "use [max_docs] instead") and unknown keys in
 * `source`; a write ctx refuses keys other than its metadata and `_source` (ES 8.5+'s CtxMap) in reindex,
 * update_by_query and _update, next to the metadata rules; typed locals compile and behave as painless's.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

async function putAutoCreate(value: string | boolean | null): Promise<void> {
  const res = await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.auto_create_index': value } } });
  assert.equal(res.status, 200, res.text);
}

async function reindexTasks(): Promise<number> {
  const res = await node.request('GET', '/_tasks?actions=*reindex*');
  assert.equal(res.status, 200, res.text);
  return Object.values<any>(res.body.nodes ?? {}).reduce((sum, entry) => sum + Object.keys(entry.tasks).length, 0);
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'reindex-compat' } });
  const lines = ['{"index":{"_id":"1"}}', '{"user":"kimchy","n":5}', '{"index":{"_id":"2"}}', '{"user":"foo","n":7}'];
  const res = await node.request('POST', '/twitter/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text);
});
after(async () => {
  await node.stop();
});

test('a destination action.auto_create_index forbids is 404 before the task starts, with ES\'s messages', async () => {
  const cases: [string | boolean, string][] = [
    [false, 'no such index [dest] and [action.auto_create_index] is [false]'],
    ['twitter', "no such index [dest] and [action.auto_create_index] ([twitter]) doesn't match"],
    ['twitter,-dest', 'no such index [dest] and [action.auto_create_index] contains [-dest] which forbids automatic creation of the index'],
  ];
  try {
    for (const [setting, reason] of cases) {
      await putAutoCreate(setting);
      for (const path of ['/_reindex', '/_reindex?wait_for_completion=false']) {
        const res = await node.request('POST', path, { body: { source: { index: 'twitter' }, dest: { index: 'dest' } } });
        assert.equal(res.status, 404, `${setting} ${path}: ${res.text}`);
        assert.equal(res.body.error.type, 'index_not_found_exception');
        assert.equal(res.body.error.reason, reason);
        assert.equal(res.body.error['resource.id'], 'dest');
      }
    }
    // Nothing was started: no reindex task runs, and no result was stored for a detached one.
    assert.equal(await reindexTasks(), 0);
    const stored = await node.request('GET', '/.tasks/_search');
    assert.ok(stored.status === 404 || stored.body.hits.total.value === 0, stored.text);
    // An existing destination is fine whatever the setting says.
    const created = await node.request('PUT', '/dest');
    assert.equal(created.status, 200, created.text);
    const ok = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'twitter' }, dest: { index: 'dest' } } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.created, 2);
  } finally {
    await putAutoCreate(null);
  }
  const missing = await node.request('POST', '/_reindex?require_alias=true', { body: { source: { index: 'twitter' }, dest: { index: 'not_an_alias' } } });
  assert.equal(missing.status, 404, missing.text);
  assert.equal(missing.body.error.reason, 'no such index [not_an_alias] and [require_alias] request flag is [true] and [not_an_alias] is not an alias');
  const exists = await node.request('HEAD', '/not_an_alias');
  assert.equal(exists.status, 404);
});

test('ES 8 refuses a body size (use max_docs) and unknown keys in source', async () => {
  const cases: [string, unknown, string, string][] = [
    ['/_reindex', { source: { index: 'twitter' }, dest: { index: 'sized' }, size: 1 }, 'x_content_parse_exception', '[reindex] unknown field [size]'],
    ['/twitter/_update_by_query', { size: 1 }, 'illegal_argument_exception', 'invalid parameter [size], use [max_docs] instead'],
    ['/twitter/_delete_by_query', { size: 1, query: { match_all: {} } }, 'illegal_argument_exception', 'invalid parameter [size], use [max_docs] instead'],
    ['/_reindex', { source: { index: 'twitter', junk: {} }, dest: { index: 'sized' } }, 'parsing_exception', 'Unknown key for a START_OBJECT in [junk].'],
    ['/_reindex', { source: { index: 'twitter', junk: 'x' }, dest: { index: 'sized' } }, 'parsing_exception', 'Unknown key for a VALUE_STRING in [junk].'],
  ];
  for (const [path, body, type, reason] of cases) {
    const res = await node.request('POST', path, { body });
    assert.equal(res.status, 400, `${path} ${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.type, type, res.text);
    assert.equal(res.body.error.reason, reason, res.text);
  }
  // source.size is the batch size and stays accepted.
  const batched = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'twitter', size: 1 }, dest: { index: 'sized' } } });
  assert.equal(batched.status, 200, batched.text);
  assert.equal(batched.body.batches, 2);
  const count = await node.request('GET', '/twitter/_count');
  assert.equal(count.body.count, 2);
});

test('ctx holds only metadata and _source: a new key, a removed key, a bad op or _id change fail as ES 8 does', async () => {
  const runtimeCause = (res: { status: number; text: string; body: any }, wrapped: boolean): any => {
    assert.equal(res.status, 400, res.text);
    const scriptError = wrapped ? res.body.error.caused_by : res.body.error;
    if (wrapped) assert.equal(res.body.error.reason, 'failed to execute script');
    assert.equal(scriptError.type, 'script_exception', res.text);
    assert.equal(scriptError.reason, 'runtime error');
    return scriptError.caused_by;
  };
  const apis: [string, unknown, boolean][] = [
    ['/_reindex', { source: { index: 'twitter' }, dest: { index: 'junked' } }, false],
    ['/twitter/_update_by_query', {}, false],
    ['/twitter/_update/1', {}, true],
  ];
  for (const [path, body, wrapped] of apis) {
    const junk = await node.request('POST', path, { body: { ...(body as object), script: { source: 'ctx.junk = "stuff"' } } });
    assert.deepEqual(runtimeCause(junk, wrapped), { type: 'illegal_argument_exception', reason: 'Cannot put key [junk] with value [stuff] into ctx' }, path);
    const removed = await node.request('POST', path, { body: { ...(body as object), script: { source: "ctx.remove('junk')" } } });
    assert.deepEqual(runtimeCause(removed, wrapped), { type: 'unsupported_operation_exception', reason: 'Cannot remove key junk from ctx' }, path);
  }
  const ubqId = await node.request('POST', '/twitter/_update_by_query', { body: { script: { source: 'ctx._id = "stuff"' } } });
  assert.equal(runtimeCause(ubqId, false).reason, '_id cannot be updated');
  const updateId = await node.request('POST', '/twitter/_update/1', { body: { script: { source: 'ctx._id = "stuff"' } } });
  assert.equal(runtimeCause(updateId, true).reason, '_id cannot be updated');
  for (const path of ['/_reindex', '/twitter/_update_by_query']) {
    const body = path === '/_reindex' ? { source: { index: 'twitter' }, dest: { index: 'junked' } } : {};
    const badOp = await node.request('POST', path, { body: { ...body, script: { source: 'if (ctx._source.user == "kimchy") {ctx.op = "index"} else {ctx.op = "junk"}' } } });
    assert.equal(runtimeCause(badOp, false).reason, '[op] must be one of delete, index, noop, not [junk]', path);
  }
  // _update reads an unknown op as noop (UpdateMetadata.getOp), and reindex may change _id.
  const noop = await node.request('POST', '/twitter/_update/1', { body: { script: { source: 'ctx.op = "junk"' } } });
  assert.equal(noop.status, 200, noop.text);
  assert.equal(noop.body.result, 'noop');
  const renamed = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'twitter' }, dest: { index: 'renamed' }, script: { source: "ctx._id = 'x' + ctx._id" } } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal((await node.request('GET', '/renamed/_doc/x1')).body.found, true);
  assert.equal((await node.request('GET', '/junked')).status, 404);
});

test('typed locals compile in update_by_query, reindex and _update with painless semantics', async () => {
  const script = [
    'int choice = ctx._source.n % 3;',
    'long big = 2147483647; big++;',
    'int wrapped = 2147483647; wrapped++;',
    'double ratio = ctx._source.n / 2;',
    'String label = "n=" + ctx._source.n;',
    'Map extra = new HashMap(); extra.put("choice", choice);',
    'List seen = new ArrayList(); for (int i = 0; i < 3; i++) { seen.add(i) }',
    "ctx._source.r = ['big': big, 'wrapped': wrapped, 'ratio': ratio, 'label': label, 'extra': extra, 'seen': seen, 'cast': (int) 7.9];",
  ].join('\n');
  const ubq = await node.request('POST', '/twitter/_update_by_query?refresh=true', { body: { script: { source: script } } });
  assert.equal(ubq.status, 200, ubq.text);
  assert.equal(ubq.body.updated, 2);
  const doc = await node.request('GET', '/twitter/_doc/1');
  assert.deepEqual(doc.body._source.r, { big: 2147483648, wrapped: -2147483648, ratio: 2, label: 'n=5', extra: { choice: 2 }, seen: [0, 1, 2], cast: 7 });
  // ratio is a double: 5 / 2 is int division (2), then widened to 2.0, printed as Java prints a double.
  const raw = await node.request('GET', '/twitter/_source/1');
  assert.match(raw.text, /"ratio":2\.0,/);

  const reindexed = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'twitter' }, dest: { index: 'typed' }, script: { source: 'String user = ctx._source.user; ctx._id = user; long n = ctx._source.n; ctx._source.n = n * 1000000000' } } });
  assert.equal(reindexed.status, 200, reindexed.text);
  assert.equal((await node.request('GET', '/typed/_doc/kimchy')).body._source.n, 5_000_000_000);

  const compile = await node.request('POST', '/twitter/_update/1', { body: { script: { source: 'int x = 1.5' } } });
  assert.equal(compile.status, 400, compile.text);
  assert.equal(compile.body.error.caused_by.reason, 'compile error');
  assert.deepEqual(compile.body.error.caused_by.caused_by, { type: 'class_cast_exception', reason: 'Cannot cast from [double] to [int].' });
  const runtime = await node.request('POST', '/twitter/_update/1', { body: { script: { source: 'int x = ctx._source.user' } } });
  assert.equal(runtime.status, 400, runtime.text);
  assert.equal(runtime.body.error.caused_by.caused_by.reason, 'cannot implicitly cast def [java.lang.String] to int');
});
