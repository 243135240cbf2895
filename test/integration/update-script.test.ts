/**
 * `_update` with a painless `script` on a real node (ES's update YAML tests and UpdateHelper): counter increment
 * with params, field removal, list append, `ctx.op` none/noop/delete, upsert without and with `scripted_upsert`,
 * Java number semantics in the stored source, the `get` block, and ES's 400 for compile and runtime failures.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'update-script-node' } });
  const created = await node.request('PUT', '/scripted', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
});
after(async () => {
  await node.stop();
});

const source = async (id: string): Promise<string> => {
  const res = await node.request('GET', `/scripted/_source/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.text;
};

test('a counter increments with params; the response is ES update shape with result updated', async () => {
  await node.request('PUT', '/scripted/_doc/c', { body: { counter: 1, tags: ['red'] } });
  const res = await node.request('POST', '/scripted/_update/c', {
    body: { script: { source: 'ctx._source.counter += params.count', lang: 'painless', params: { count: 4 } } },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, {
    _index: 'scripted', _id: 'c', _version: 2, result: 'updated',
    _shards: { total: 1, successful: 1, failed: 0 }, _seq_no: 1, _primary_term: 1,
  });
  assert.equal(await source('c'), '{"counter":5,"tags":["red"]}');
  const short = await node.request('POST', '/scripted/_update/c', { body: { script: 'ctx._source.counter++; ctx._source.tags.add("blue")' } });
  assert.equal(short.body.result, 'updated');
  assert.equal(await source('c'), '{"counter":6,"tags":["red","blue"]}');
});

test('Java numbers: int overflow wraps, integer division truncates, doubles print as Java does', async () => {
  await node.request('PUT', '/scripted/_doc/n', { raw: '{"i":2147483647,"d":1.0,"l":3}', headers: { 'content-type': 'application/json' } });
  const res = await node.request('POST', '/scripted/_update/n', { body: { script: 'ctx._source.i += 1; ctx._source.d *= 2; ctx._source.l = ctx._source.l / 2; ctx._source.s = "v" + ctx._source.d' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(await source('n'), '{"i":-2147483648,"d":2.0,"l":1,"s":"v2.0"}');
});

test('remove a field, and the get block shows the new source', async () => {
  await node.request('PUT', '/scripted/_doc/r', { body: { keep: 1, drop: 'x' } });
  const res = await node.request('POST', '/scripted/_update/r', { body: { script: "ctx._source.remove('drop')", _source: true } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.get, { _seq_no: res.body._seq_no, _primary_term: 1, found: true, _source: { keep: 1 } });
  assert.equal(await source('r'), '{"keep":1}');
});

test("ctx.op = 'none' (and 'noop' or anything unknown) is a noop that leaves the version", async () => {
  const indexed = await node.request('PUT', '/scripted/_doc/o', { body: { a: 1 } });
  for (const op of ['none', 'noop', 'bogus']) {
    const res = await node.request('POST', '/scripted/_update/o', { body: { script: `ctx._source.a = 2; ctx.op = '${op}'` } });
    assert.equal(res.status, 200, res.text);
    const expected = { _index: 'scripted', _id: 'o', _version: 1, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 }, _seq_no: indexed.body._seq_no, _primary_term: 1 };
    assert.deepEqual(res.body, expected);
  }
  assert.equal(await source('o'), '{"a":1}');
});

test("ctx.op = 'delete' deletes the document (result deleted)", async () => {
  await node.request('PUT', '/scripted/_doc/d', { body: { expired: true } });
  const res = await node.request('POST', '/scripted/_update/d', { body: { script: "if (ctx._source.expired) { ctx.op = 'delete' } else { ctx.op = 'none' }" } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.result, 'deleted');
  assert.equal(res.body._version, 2);
  assert.equal((await node.request('GET', '/scripted/_doc/d')).status, 404);
});

test('upsert: without scripted_upsert the upsert document is indexed as is; with it the script runs with op create', async () => {
  const plain = await node.request('POST', '/scripted/_update/u1', { body: { script: 'ctx._source.counter += 1', upsert: { counter: 1 } } });
  assert.equal(plain.status, 201, plain.text);
  assert.equal(plain.body.result, 'created');
  assert.equal(await source('u1'), '{"counter":1}');
  const again = await node.request('POST', '/scripted/_update/u1', { body: { script: 'ctx._source.counter += 1', upsert: { counter: 1 } } });
  assert.equal(again.body.result, 'updated');
  assert.equal(await source('u1'), '{"counter":2}');

  const scripted = await node.request('POST', '/scripted/_update/u2', {
    body: { scripted_upsert: true, script: { source: "ctx._source.seen = ctx.op; ctx._source.n = params.n", params: { n: 7 } }, upsert: {} },
  });
  assert.equal(scripted.status, 201, scripted.text);
  assert.equal(await source('u2'), '{"seen":"create","n":7}');

  const aborted = await node.request('POST', '/scripted/_update/u3', { body: { scripted_upsert: true, script: "ctx.op = 'none'", upsert: { a: 1 } } });
  assert.equal(aborted.status, 200, aborted.text);
  assert.deepEqual(aborted.body, { _index: 'scripted', _id: 'u3', _version: -1, result: 'noop', _shards: { total: 0, successful: 0, failed: 0 } });
  assert.equal((await node.request('GET', '/scripted/_doc/u3')).status, 404);
});

test('a runtime error is a 400 "failed to execute script" caused by the script_exception', async () => {
  await node.request('PUT', '/scripted/_doc/e', { body: { a: 1 } });
  const res = await node.request('POST', '/scripted/_update/e', { body: { script: 'ctx._source.missing.field = 1' } });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body.error.root_cause, [{ type: 'illegal_argument_exception', reason: 'failed to execute script' }]);
  assert.equal(res.body.error.type, 'illegal_argument_exception');
  const cause = res.body.error.caused_by;
  assert.equal(cause.type, 'script_exception');
  assert.equal(cause.reason, 'runtime error');
  assert.deepEqual(Object.keys(cause), ['type', 'reason', 'script_stack', 'script', 'lang', 'position', 'caused_by']);
  assert.deepEqual(cause.script_stack, ['ctx._source.missing.field = 1', '                    ^---- HERE']);
  assert.deepEqual(cause.position, { offset: 20, start: 0, end: 29 });
  assert.equal(cause.caused_by.type, 'null_pointer_exception');
  assert.equal(await source('e'), '{"a":1}');
});

test('_bulk update items run scripts too; a failing script fails only its item', async () => {
  await node.request('PUT', '/scripted/_doc/b', { body: { n: 1 } });
  const lines = [
    { update: { _index: 'scripted', _id: 'b' } },
    { script: { source: 'ctx._source.n += params.by', params: { by: 10 } } },
    { update: { _index: 'scripted', _id: 'b' } },
    { script: 'ctx._source.n.foo = 1' },
  ];
  const res = await node.request('POST', '/_bulk', { raw: lines.map((line) => JSON.stringify(line)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.errors, true);
  assert.equal(res.body.items[0].update.result, 'updated');
  assert.equal(res.body.items[1].update.status, 400);
  assert.equal(res.body.items[1].update.error.reason, 'failed to execute script');
  assert.equal(res.body.items[1].update.error.caused_by.type, 'script_exception');
  assert.equal(await source('b'), '{"n":11}');
});

test("ctx metadata is read-only in _update, as ES 8's UpdateMetadata", async () => {
  await node.request('PUT', '/scripted/_doc/m', { body: { a: 1 } });
  const res = await node.request('POST', '/scripted/_update/m', { body: { script: "ctx._id = 'other'" } });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.caused_by.reason, 'runtime error');
  assert.equal(res.body.error.caused_by.caused_by.reason, '_id cannot be updated');
  const read = await node.request('POST', '/scripted/_update/m', { body: { script: "ctx._source.seen = ctx._index + '/' + ctx._id + '/' + ctx._version + '/' + ctx._type + '/' + ctx._routing" } });
  assert.equal(read.status, 200, read.text);
  assert.equal(await source('m'), '{"a":1,"seen":"scripted/m/1/_doc/null"}');
});

test('a compile error names the unsupported construct; other langs and stored scripts get ES errors', async () => {
  await node.request('PUT', '/scripted/_doc/k', { body: { a: 1 } });
  const loopless = await node.request('POST', '/scripted/_update/k', { body: { script: 'ctx._source.a = Math.max(1, 2)' } });
  assert.equal(loopless.status, 400);
  assert.equal(loopless.body.error.caused_by.reason, 'compile error');
  assert.equal(loopless.body.error.caused_by.caused_by.reason, 'unsupported painless construct [class [Math]]');
  const lang = await node.request('POST', '/scripted/_update/k', { body: { script: { source: 'x', lang: 'groovy' } } });
  assert.equal(lang.status, 400);
  assert.equal(lang.body.error.caused_by.reason, 'script_lang not supported [groovy]');
  const stored = await node.request('POST', '/scripted/_update/k', { body: { script: { id: 'my-script' } } });
  assert.equal(stored.status, 400);
  assert.equal(stored.body.error.reason, 'failed to execute script');
  assert.equal(stored.body.error.caused_by.type, 'resource_not_found_exception');
  assert.equal(stored.body.error.caused_by.reason, 'unable to find script [my-script] in cluster state');
  const both = await node.request('POST', '/scripted/_update/k', { body: { script: { source: 'x', id: 'y' } } });
  assert.equal(both.status, 400);
  assert.equal(both.body.error.type, 'x_content_parse_exception');
  assert.equal(both.body.error.caused_by.reason, 'must only use one of [source, id] when specifying a script');
  assert.equal(await source('k'), '{"a":1}');
});
