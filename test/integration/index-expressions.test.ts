/**
 * Index expressions over HTTP against a real node: date math names (`<logs-{now/d}>`, ES's
 * DateMathExpressionResolver) resolve to the dated name wherever ES resolves them (create, index, get, mget, search,
 * count, mapping, aliases, delete), percent-encoded in the path as clients send them (an encoded `/` stays inside its
 * path segment for routing); and `expand_wildcards=none` as ES 8.19's indices.get_mapping YAML test has it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'expressions-node' } });
});
after(async () => {
  await node.stop();
});

const two = (n: number): string => String(n).padStart(2, '0');

/** The date a UTC instant has at a fixed offset, as `yyyy.MM.dd` (or `yyyy.MM` when `monthOnly`). */
function dated(epochMillis: number, offsetHours = 0, monthOnly = false): string {
  const local = new Date(epochMillis + offsetHours * 3_600_000);
  const month = `${local.getUTCFullYear()}.${two(local.getUTCMonth() + 1)}`;
  return monthOnly ? month : `${month}.${two(local.getUTCDate())}`;
}

/** The names an expression may resolve to while a request runs (a day or month may turn meanwhile). */
function eitherOf(before: number, name: (now: number) => string): (actual: string) => void {
  return (actual) => assert.ok([name(before), name(Date.now())].includes(actual), `${actual} is not ${name(before)}`);
}

test('a percent-encoded date math name creates, searches and deletes the dated index', async () => {
  const start = Date.now();
  const expectMonthly = eitherOf(start, (now) => `logstash-${dated(now, 0, true)}.01`);
  // `<logstash-{now/M}>`: the default format uuuu.MM.dd of the month's first day, in UTC.
  const path = '/%3Clogstash-%7Bnow%2FM%7D%3E';
  const created = await node.request('PUT', path, { body: { settings: { number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
  expectMonthly(created.body.index);
  const name = created.body.index as string;

  const search = await node.request('GET', `${path}/_search`);
  assert.equal(search.status, 200, search.text);
  assert.equal(search.body._shards.total, 1);
  const mapping = await node.request('GET', `${path}/_mapping`);
  assert.deepEqual(Object.keys(mapping.body), [name]);
  assert.equal((await node.request('HEAD', path)).status, 200);

  // An encoded slash in an ordinary name is part of the name too: routed, then not found.
  const slashed = await node.request('GET', '/a%2Fb/_search');
  assert.equal(slashed.status, 404, slashed.text);
  assert.equal(slashed.body.error.reason, 'no such index [a/b]');

  // The same holds for a document id with a slash, as clients encode it.
  const withSlash = await node.request('PUT', `/${name}/_doc/a%2Fb?refresh=true`, { body: { n: 1 } });
  assert.equal(withSlash.status, 201, withSlash.text);
  assert.equal(withSlash.body._id, 'a/b');
  assert.equal((await node.request('GET', `${path}/_doc/a%2Fb`)).body._id, 'a/b');

  const deleted = await node.request('DELETE', path);
  assert.deepEqual(deleted.body, { acknowledged: true });
  assert.equal((await node.request('HEAD', `/${name}`)).status, 404);
});

test('writes, reads and aliases through a date math name with a format and a time zone', async () => {
  const start = Date.now();
  const expression = '<events-{now/d{yyyy.MM.dd|+12:00}}>';
  const path = `/${encodeURIComponent(expression)}`;
  const expectDaily = eitherOf(start, (now) => `events-${dated(now, 12)}`);

  const indexed = await node.request('PUT', `${path}/_doc/1?refresh=true`, { body: { n: 1 } });
  assert.equal(indexed.status, 201, indexed.text);
  expectDaily(indexed.body._index);
  const name = indexed.body._index as string;

  const bulk = await node.request('POST', '/_bulk?refresh=true', {
    raw: `${JSON.stringify({ index: { _index: expression, _id: '2' } })}\n${JSON.stringify({ n: 2 })}\n${JSON.stringify({ index: { _index: '<bad-{now/d>', _id: '3' } })}\n{"n":3}\n`,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.equal(bulk.body.errors, true);
  assert.equal(bulk.body.items[0].index._index, name);
  assert.equal(bulk.body.items[1].index.status, 400);
  assert.equal(bulk.body.items[1].index.error.type, 'parse_exception');
  assert.equal(bulk.body.items[1].index.error.reason, 'invalid dynamic name expression [bad-{now/d>]. date math placeholder is open ended');

  const got = await node.request('GET', `${path}/_doc/1`);
  assert.equal(got.body._index, name);
  assert.equal(got.body.found, true);
  const mget = await node.request('POST', '/_mget', { body: { docs: [{ _index: expression, _id: '2' }] } });
  assert.equal(mget.body.docs[0]._index, name);
  assert.equal(mget.body.docs[0].found, true);
  assert.equal((await node.request('GET', `${path}/_count`)).body.count, 2);
  const updated = await node.request('POST', `${path}/_update/1`, { body: { doc: { m: 1 } } });
  assert.equal(updated.body._index, name);

  // Alias names take date math in `add` actions, as TransportIndicesAliasesAction resolves them.
  const aliased = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: expression, alias: '<events-alias-{now/y{yyyy}}>' } }] } });
  assert.equal(aliased.status, 200, aliased.text);
  const aliases = await node.request('GET', `/${name}/_alias`);
  const [alias] = Object.keys(aliases.body[name].aliases);
  eitherOf(start, (now) => `events-alias-${new Date(now).getUTCFullYear()}`)(alias!);

  // Escaped braces are kept as text.
  const escaped = await node.request('PUT', `/${encodeURIComponent('<braces-\\{x\\}-{now/y{yyyy}}>')}`);
  assert.equal(escaped.status, 200, escaped.text);
  assert.match(escaped.body.index, /^braces-\{x\}-\d{4}$/);

  assert.deepEqual((await node.request('DELETE', path)).body, { acknowledged: true });
  assert.equal((await node.request('HEAD', `/${name}`)).status, 404);
});

test('malformed date math names are ES parse_exceptions', async () => {
  const cases: Array<[string, string]> = [
    ['<logs-{now/d}}>', 'invalid dynamic name expression [logs-{now/d}}>]. invalid character at position [13]. `{` and `}` are reserved characters and should be escaped when used as part of the index name using `\\` (e.g. `\\{text\\}`)'],
    ['<logs-{now/d>', 'invalid dynamic name expression [logs-{now/d>]. date math placeholder is open ended'],
    ['<logs-{now/d{}}>', 'invalid dynamic name expression [now/d{}]. missing date format'],
    ['<logs-{now/d{yyyy}x}>', 'invalid dynamic name expression [now/d{yyyy}x]. missing closing `}` for date math format'],
    ['<logs-{now/d{{yyyy}}}>', 'invalid dynamic name expression [logs-{now/d{{yyyy}}}>]. invalid character in placeholder at position [13]'],
    ['<{now/d}}>', 'invalid dynamic name expression [{now/d}}>]. invalid character at position [8]. `{` and `}` are reserved characters and should be escaped when used as part of the index name using `\\` (e.g. `\\{text\\}`)'],
    ['<>', 'nothing captured'],
  ];
  for (const [expression, reason] of cases) {
    const res = await node.request('PUT', `/${encodeURIComponent(expression)}`);
    assert.equal(res.status, 400, `${expression}: ${res.text}`);
    assert.equal(res.body.error.type, 'parse_exception', expression);
    assert.equal(res.body.error.reason, reason, expression);
  }
  const search = await node.request('GET', `/${encodeURIComponent('<logs-{now/d>')}/_search`);
  assert.equal(search.status, 400);
  assert.equal(search.body.error.type, 'parse_exception');
});

test('expand_wildcards=none on _mapping (indices.get_mapping/50_wildcard_expansion.yml)', async () => {
  for (const name of ['test-xxx', 'test-xxy', 'test-xyy']) await node.request('PUT', `/${name}`, { body: { settings: { number_of_replicas: 0 } } });
  await node.request('POST', '/test-xyy/_close');
  const none = await node.request('GET', '/test-x*/_mapping?expand_wildcards=none&ignore_unavailable=true');
  assert.equal(none.status, 200, none.text);
  assert.equal(none.text, '{}');
  const strict = await node.request('GET', '/test-x*/_mapping?expand_wildcards=none&ignore_unavailable=true&allow_no_indices=false');
  assert.equal(strict.status, 404);
  // Fixed in ES 8.6: without ignore_unavailable the unexpanded pattern is a missing name.
  const missing = await node.request('GET', '/test-x*/_mapping?expand_wildcards=none&allow_no_indices=true&ignore_unavailable=false');
  assert.equal(missing.status, 404);
  const closed = await node.request('GET', '/test-x*/_mapping?expand_wildcards=closed');
  assert.deepEqual(Object.keys(closed.body), ['test-xyy']);
  const all = await node.request('GET', '/test-x*/_mapping?expand_wildcards=open,closed');
  assert.deepEqual(Object.keys(all.body).sort(), ['test-xxx', 'test-xxy', 'test-xyy']);
});
