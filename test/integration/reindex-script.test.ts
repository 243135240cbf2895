/**
 * Scripts in `_update_by_query` and `_reindex` on a real node (three shards): a counter increment with params
 * checked on every document (one worker, then three slices), `ctx._source.remove`, conditional `ctx.op`
 * noop/delete with ES's counts, a reindex that renames a field and one that changes `_index`, `_id` and
 * `_routing`; refusals answered up front with ES's 400 and nothing written (unsupported construct, unknown
 * method, `lang: expression`, a bare string script in reindex, a script in delete_by_query), and runtime
 * failures (null pointer, a read-only metadata key) reported as ES reports them, also in a stored task result.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const DOCS = 300;
const GROUPS = ['a', 'b', 'c'];
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis));

async function createAndFill(index: string): Promise<void> {
  const created = await node.request('PUT', `/${index}`, {
    body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' }, group: { type: 'keyword' } } } },
  });
  assert.equal(created.status, 200, created.text);
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i, group: GROUPS[i % 3], f: `text ${i}` }));
  const res = await node.request('POST', `/${index}/_bulk?refresh=true`, { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text.slice(0, 500));
}

/** Every document of an index by id (the test indices hold at most DOCS documents). */
async function allDocs(index: string): Promise<Map<string, any>> {
  const res = await node.request('POST', `/${index}/_search`, { body: { size: 1000, version: true, query: { match_all: {} } } });
  assert.equal(res.status, 200, res.text);
  return new Map(res.body.hits.hits.map((hit: any) => [hit._id, hit]));
}

async function count(index: string): Promise<number> {
  const res = await node.request('POST', `/${index}/_count`, {});
  assert.equal(res.status, 200, res.text);
  return res.body.count;
}

/** The original documents, unchanged. */
async function assertUntouched(index: string): Promise<void> {
  const docs = await allDocs(index);
  assert.equal(docs.size, DOCS);
  for (const [id, hit] of docs) assert.deepEqual(hit._source, { n: Number(id), group: GROUPS[Number(id) % 3], f: `text ${id}` }, `doc ${id}`);
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'reindex-script-node' } });
  for (const index of ['counters', 'removals', 'ops', 'src', 'refusals']) await createAndFill(index);
});
after(async () => {
  await node.stop();
});

test('update_by_query increments a counter by params.k on every document, with one worker and with three slices', async () => {
  const res = await node.request('POST', '/counters/_update_by_query?refresh=true&scroll_size=70', {
    body: { script: { source: 'ctx._source.n += params.k', lang: 'painless', params: { k: 5 } } },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, DOCS);
  assert.equal(res.body.updated, DOCS);
  assert.equal(res.body.noops, 0);
  assert.equal(res.body.deleted, 0);
  assert.equal(res.body.batches, Math.ceil(DOCS / 70));
  assert.deepEqual(res.body.failures, []);
  let docs = await allDocs('counters');
  assert.equal(docs.size, DOCS);
  for (const [id, hit] of docs) {
    assert.equal(hit._source.n, Number(id) + 5, `doc ${id}`);
    assert.equal(hit._source.f, `text ${id}`);
  }

  const sliced = await node.request('POST', '/counters/_update_by_query?refresh=true&slices=3&scroll_size=40', {
    body: { script: { source: 'ctx._source.n += params.k; ctx._source.seen = ctx._index + "/" + ctx._id', params: { k: 2 } } },
  });
  assert.equal(sliced.status, 200, sliced.text);
  assert.equal(sliced.body.updated, DOCS);
  assert.equal(sliced.body.slices.length, 3);
  assert.equal(sliced.body.slices.reduce((sum: number, slice: any) => sum + slice.updated, 0), DOCS);
  docs = await allDocs('counters');
  for (const [id, hit] of docs) {
    assert.equal(hit._source.n, Number(id) + 7, `doc ${id}`);
    assert.equal(hit._source.seen, `counters/${id}`);
  }
});

test("update_by_query with ctx._source.remove('f') drops the field from the matching documents only", async () => {
  const res = await node.request('POST', '/removals/_update_by_query?refresh=true', {
    body: { query: { term: { group: 'c' } }, script: "ctx._source.remove('f')" },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, DOCS / 3);
  assert.equal(res.body.updated, DOCS / 3);
  for (const [id, hit] of await allDocs('removals')) {
    const group = GROUPS[Number(id) % 3];
    if (group === 'c') assert.deepEqual(hit._source, { n: Number(id), group }, `doc ${id}`);
    else assert.equal(hit._source.f, `text ${id}`, `doc ${id}`);
  }
});

test("conditional ctx.op = 'noop' and 'delete' are counted as noops and deleted; the rest updated", async () => {
  const source = "if (ctx._source.group == params.skip) { ctx.op = 'noop' } else if (ctx._source.group == params.drop) { ctx.op = 'delete' } else { ctx._source.touched = true }";
  const res = await node.request('POST', '/ops/_update_by_query?refresh=true&scroll_size=64', { body: { script: { source, params: { skip: 'a', drop: 'b' } } } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    { total: res.body.total, updated: res.body.updated, deleted: res.body.deleted, noops: res.body.noops, created: res.body.created },
    { total: DOCS, updated: DOCS / 3, deleted: DOCS / 3, noops: DOCS / 3, created: undefined },
  );
  const docs = await allDocs('ops');
  assert.equal(docs.size, (2 * DOCS) / 3);
  for (const [id, hit] of docs) {
    const group = GROUPS[Number(id) % 3];
    assert.notEqual(group, 'b');
    if (group === 'a') {
      assert.equal(hit._source.touched, undefined);
      assert.equal(hit._version, 1, `a noop does not write doc ${id}`);
    } else {
      assert.equal(hit._source.touched, true);
    }
  }
});

test('reindex with a script that renames a field', async () => {
  const res = await node.request('POST', '/_reindex?refresh=true', {
    body: { source: { index: 'src', size: 100 }, dest: { index: 'renamed' }, script: { source: 'ctx._source.title = ctx._source.remove(params.from)', params: { from: 'f' } } },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, DOCS);
  const docs = await allDocs('renamed');
  assert.equal(docs.size, DOCS);
  for (const [id, hit] of docs) assert.deepEqual(hit._source, { n: Number(id), group: GROUPS[Number(id) % 3], title: `text ${id}` }, `doc ${id}`);
  await assertUntouched('src');
});

test('reindex with a script that changes _index, _id and _routing; noop and delete in reindex', async () => {
  const source = [
    "if (ctx._source.group == 'a') { ctx._index = 'split-a' }",
    "if (ctx._source.group == 'b') { ctx._id = 'b-' + ctx._id; ctx._routing = 'rb' }",
    "if (ctx._source.n >= 297) { ctx.op = 'noop' }",
  ].join('\n');
  const res = await node.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'src', size: 50 }, dest: { index: 'split-rest' }, script: { source } } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.total, DOCS);
  assert.equal(res.body.created, DOCS - 3);
  assert.equal(res.body.noops, 3);
  assert.equal(await count('split-a'), DOCS / 3 - 1);
  const rest = await allDocs('split-rest');
  assert.equal(rest.size, (2 * DOCS) / 3 - 2);
  const routed = rest.get('b-1');
  assert.equal(routed._routing, 'rb');
  assert.equal(routed._source.n, 1);
  assert.equal(rest.get('1'), undefined);
  const got = await node.request('GET', '/split-rest/_doc/b-4?routing=rb');
  assert.equal(got.status, 200, got.text);
  assert.equal(got.body._source.n, 4);
  assert.equal((await node.request('GET', '/split-a/_doc/3')).body._source.n, 3);

  // ctx.op = 'delete' in a reindex deletes the destination document of the same id.
  const deleted = await node.request('POST', '/_reindex?refresh=true', {
    body: { source: { index: 'src', query: { term: { group: 'c' } } }, dest: { index: 'split-rest' }, script: { source: "ctx.op = 'delete'" } },
  });
  assert.equal(deleted.status, 200, deleted.text);
  // ES counts every delete it sends, found or not (doc 299 was a noop above).
  assert.equal(deleted.body.deleted, DOCS / 3);
  assert.equal(await count('split-rest'), DOCS / 3 - 1);
});

test('reindex: ctx._version is -1 with internal versioning, the hit\'s with external; setting it to null is allowed', async () => {
  const internal = await node.request('POST', '/_reindex?refresh=true', {
    body: { max_docs: 5, source: { index: 'src', size: 5 }, dest: { index: 'versions-internal' }, script: { source: 'ctx._source.v = ctx._version; ctx._version = null' } },
  });
  assert.equal(internal.status, 200, internal.text);
  for (const hit of (await allDocs('versions-internal')).values()) assert.equal(hit._source.v, -1);
  const external = await node.request('POST', '/_reindex?refresh=true', {
    body: { max_docs: 5, source: { index: 'src', size: 5 }, dest: { index: 'versions-external', version_type: 'external' }, script: { source: 'ctx._source.v = ctx._version' } },
  });
  assert.equal(external.status, 200, external.text);
  for (const hit of (await allDocs('versions-external')).values()) {
    assert.equal(hit._source.v, 1);
    assert.equal(hit._version, 1);
  }
});

test('unsupported constructs, unknown methods and other langs are refused with ES\'s 400 before anything is written', async () => {
  const cases: Array<{ script: unknown; type: string; reason: RegExp; causeType?: string; cause?: RegExp }> = [
    { script: { source: 'ctx._source.n = Math.max(ctx._source.n, 1)' }, type: 'script_exception', reason: /^compile error$/, causeType: 'illegal_argument_exception', cause: /Math/ },
    { script: { source: "ctx._source.f = ctx._source.f.matches('x')" }, type: 'script_exception', reason: /^compile error$/, causeType: 'illegal_argument_exception', cause: /unknown method \[matches\/1\]/ },
    { script: { source: 'ctx._source.l = new TreeSet()' }, type: 'script_exception', reason: /^compile error$/, causeType: 'illegal_argument_exception', cause: /new \[TreeSet\]/ },
    { script: { source: 'int n = 1.5' }, type: 'script_exception', reason: /^compile error$/, causeType: 'class_cast_exception', cause: /^Cannot cast from \[double\] to \[int\]\.$/ },
    { script: { source: "doc['n'].value * 2", lang: 'expression' }, type: 'illegal_argument_exception', reason: /^expression engine does not know how to handle script context \[update_by_query\]$/ },
    { script: { source: 'x', lang: 'python' }, type: 'illegal_argument_exception', reason: /^script_lang not supported \[python\]$/ },
    { script: { id: 'stored' }, type: 'resource_not_found_exception', reason: /^unable to find script \[stored\] in cluster state$/ },
  ];
  for (const entry of cases) {
    const res = await node.request('POST', '/refusals/_update_by_query?refresh=true', { body: { script: entry.script } });
    const expectedStatus = entry.type === 'resource_not_found_exception' ? 404 : 400;
    assert.equal(res.status, expectedStatus, res.text);
    assert.equal(res.body.status, expectedStatus);
    assert.equal(res.body.error.type, entry.type, res.text);
    assert.match(res.body.error.reason, entry.reason);
    if (entry.causeType !== undefined) {
      assert.equal(res.body.error.caused_by.type, entry.causeType, res.text);
      assert.match(res.body.error.caused_by.reason, entry.cause!);
      assert.equal(res.body.error.lang, 'painless');
      assert.ok(Array.isArray(res.body.error.script_stack), res.text);
    }
  }
  const reindexExpression = await node.request('POST', '/_reindex', { body: { source: { index: 'refusals' }, dest: { index: 'never' }, script: { source: '1', lang: 'expression' } } });
  assert.equal(reindexExpression.status, 400, reindexExpression.text);
  assert.equal(reindexExpression.body.error.reason, 'expression engine does not know how to handle script context [reindex]');
  const reindexCompile = await node.request('POST', '/_reindex', { body: { source: { index: 'refusals' }, dest: { index: 'never' }, script: { source: 'ctx._source.x = new TreeMap()' } } });
  assert.equal(reindexCompile.status, 400, reindexCompile.text);
  assert.equal(reindexCompile.body.error.type, 'script_exception');
  // ReindexRequest declares `script` as an object: a bare string is a parse error there (update_by_query takes it).
  const bare = await node.request('POST', '/_reindex', { body: { source: { index: 'refusals' }, dest: { index: 'never' }, script: 'ctx._source.x = 1' } });
  assert.equal(bare.status, 400, bare.text);
  assert.equal(bare.body.error.type, 'x_content_parse_exception');
  assert.equal(bare.body.error.reason, "[reindex] script doesn't support values of type: VALUE_STRING");
  assert.equal((await node.request('HEAD', '/never')).status, 404);
  await assertUntouched('refusals');
});

test('delete_by_query takes no script: ES\'s search parser refuses the key', async () => {
  const res = await node.request('POST', '/refusals/_delete_by_query', { body: { query: { match_all: {} }, script: { source: "ctx.op = 'noop'" } } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.type, 'parsing_exception', res.text);
  assert.equal(res.body.error.reason, 'Unknown key for a START_OBJECT in [script].');
  await assertUntouched('refusals');
});

test('runtime errors fail the request as ES reports them: a null pointer, a read-only metadata key', async () => {
  const npe = await node.request('POST', '/refusals/_update_by_query', { body: { script: { source: 'ctx._source.n = ctx._source.missing.length()' } } });
  assert.equal(npe.status, 400, npe.text);
  assert.equal(npe.body.error.type, 'script_exception');
  assert.equal(npe.body.error.reason, 'runtime error');
  assert.equal(npe.body.error.caused_by.type, 'null_pointer_exception', npe.text);
  assert.deepEqual(npe.body.error.script_stack[0], 'ctx._source.n = ctx._source.missing.length()');
  assert.equal(npe.body.error.lang, 'painless');

  const readOnly = await node.request('POST', '/refusals/_update_by_query', { body: { script: { source: "ctx._id = 'other'" } } });
  assert.equal(readOnly.status, 400, readOnly.text);
  assert.equal(readOnly.body.error.reason, 'runtime error');
  assert.equal(readOnly.body.error.caused_by.type, 'illegal_argument_exception');
  assert.equal(readOnly.body.error.caused_by.reason, '_id cannot be updated');

  const badOp = await node.request('POST', '/refusals/_update_by_query', { body: { script: { source: "ctx.op = 'none'" } } });
  assert.equal(badOp.status, 400, badOp.text);
  assert.equal(badOp.body.error.caused_by.reason, '[op] must be one of delete, index, noop, not [none]');
  await assertUntouched('refusals');

  // With wait_for_completion=false the failure is the stored task result's `error`.
  const started = await node.request('POST', '/refusals/_update_by_query?wait_for_completion=false', { body: { script: { source: 'ctx._source.missing.x = 1' } } });
  assert.equal(started.status, 200, started.text);
  const taskId: string = started.body.task;
  let result: any;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const got = await node.request('GET', `/_tasks/${taskId}`);
    if (got.status === 200 && got.body.completed === true) {
      result = got.body;
      break;
    }
    await sleep(100);
  }
  assert.ok(result !== undefined, 'the task should complete');
  assert.equal(result.response, undefined);
  assert.equal(result.error.type, 'script_exception');
  assert.equal(result.error.reason, 'runtime error');
  assert.equal(result.error.caused_by.type, 'null_pointer_exception');
  await assertUntouched('refusals');
});
