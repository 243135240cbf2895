/**
 * Cross-site requests and DNS rebinding against a real node with CORS off (the default): a web page's request that
 * could change state is refused with 403 and changes nothing; a Host header that names neither an address of the
 * node nor a configured name is refused for every method; clients that are not browsers (no Origin, no
 * Sec-Fetch-Site) and same-origin pages are unaffected. See docs/decisions/0008-cross-site-requests.md.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

let node: NodeProcess;
let configured: NodeProcess;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'origin-node' } });
  configured = await NodeProcess.start({ settings: { 'node.name': 'origin-configured', 'http.allowed_hosts': 'search.example.com, *.corp.example' } });
  assert.equal((await node.request('PUT', '/victim', { body: { settings: { number_of_replicas: 0 } } })).status, 200);
  assert.equal((await node.request('PUT', '/victim/_doc/1?refresh=true', { body: { a: 1 } })).status, 201);
});
after(async () => {
  await Promise.all([node.stop(), configured.stop()]);
});

function assertRefused(res: HttpResult, pattern: RegExp): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.status, 403);
  assert.equal(res.body.error.type, 'security_exception');
  assert.deepEqual(res.body.error.root_cause, [{ type: 'security_exception', reason: res.body.error.reason }]);
  assert.match(res.body.error.reason, pattern);
}

async function victimIsOpenWithItsDocument(): Promise<void> {
  const count = await node.request('GET', '/victim/_count');
  assert.equal(count.status, 200, count.text);
  assert.equal(count.body.count, 1);
}

test('a body-less cross-origin POST /victim/_close is refused and the index stays open (the issue case)', async () => {
  const res = await node.request('POST', '/victim/_close', { headers: { origin: 'http://evil.example' } });
  assertRefused(res, /^cross-site request from \[http:\/\/evil\.example\] refused: with CORS disabled a web page may not send requests that change state/);
  await victimIsOpenWithItsDocument();
});

test('every state-changing method from another origin is refused before routing, body or content type', async () => {
  const evil = { origin: 'https://evil.example:8443' };
  assertRefused(await node.request('DELETE', '/victim', { headers: evil }), /evil\.example/);
  assertRefused(await node.request('PUT', '/victim/_doc/2', { raw: '{"a":2}', headers: { ...evil, 'content-type': 'text/plain' } }), /evil\.example/);
  assertRefused(await node.request('POST', '/_bulk', { raw: '{"delete":{"_index":"victim","_id":"1"}}\n', headers: { ...evil, 'content-type': 'application/x-ndjson' } }), /evil/);
  assertRefused(await node.request('PUT', '/_cluster/settings', { body: { persistent: { 'action.auto_create_index': 'false' } }, headers: evil }), /evil/);
  assertRefused(await node.request('POST', '/victim/_close', { headers: { origin: 'null' } }), /from \[null\]/);
  // A page on another port of the same host is another origin (same-site, not same-origin).
  assertRefused(await node.request('POST', '/victim/_close', { headers: { origin: 'http://127.0.0.1:3000' } }), /127\.0\.0\.1:3000/);
  await victimIsOpenWithItsDocument();
});

test('Sec-Fetch-Site cross-site or same-site is refused even without an Origin', async () => {
  assertRefused(await node.request('POST', '/victim/_close', { headers: { 'sec-fetch-site': 'cross-site' } }), /marked \[Sec-Fetch-Site: cross-site\]/);
  assertRefused(await node.request('DELETE', '/victim', { headers: { 'sec-fetch-site': 'same-site' } }), /same-site/);
  await victimIsOpenWithItsDocument();
});

test('reads are not refused (a page cannot read the answer without CORS), nor are same-origin or proxied requests', async () => {
  const read = await node.request('GET', '/victim/_search', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
  assert.equal(read.status, 200, read.text);
  const sameOrigin = await node.request('POST', '/victim/_refresh', { headers: { origin: `http://127.0.0.1:${node.port}` } });
  assert.equal(sameOrigin.status, 200, sameOrigin.text);
  const attested = await node.request('POST', '/victim/_refresh', { headers: { origin: 'https://kibana.example', 'sec-fetch-site': 'same-origin' } });
  assert.equal(attested.status, 200, attested.text);
  const proxied = await node.request('POST', '/victim/_refresh', { headers: { origin: 'https://search.example', 'x-forwarded-host': 'search.example' } });
  assert.equal(proxied.status, 200, proxied.text);
  const client = await node.request('POST', '/victim/_doc/2?refresh=true', { body: { a: 2 } });
  assert.equal(client.status, 201, 'a client without Origin (every official client) writes as before');
  assert.equal((await node.request('DELETE', '/victim/_doc/2?refresh=true')).status, 200);
});

test('with CORS on, CORS decides: an allowed origin may write, another gets CORS 403', async () => {
  const cors = await NodeProcess.start({ settings: { 'node.name': 'origin-cors', 'http.cors.enabled': 'true', 'http.cors.allow-origin': 'https://app.example' } });
  try {
    assert.equal((await cors.request('PUT', '/app', { headers: { origin: 'https://app.example' } })).status, 200);
    const other = await cors.request('PUT', '/other', { headers: { origin: 'https://evil.example' } });
    assert.equal(other.status, 403);
    assert.equal((await cors.request('HEAD', '/other')).status, 404);
  } finally {
    await cors.stop();
  }
});

test('a Host that is not an address of the node or a configured name is refused for every method (DNS rebinding)', async () => {
  for (const method of ['GET', 'HEAD', 'POST']) {
    const res = await node.request(method, method === 'POST' ? '/victim/_search' : '/', { headers: { host: `rebound.evil.example:${node.port}` } });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    if (method !== 'HEAD') {
      assert.equal(res.body.error.type, 'security_exception');
      assert.match(res.body.error.reason, /^request addressed to host \[rebound\.evil\.example\] refused: .*\[http\.allowed_hosts\]/);
    }
  }
  for (const host of [`127.0.0.1:${node.port}`, `localhost:${node.port}`, 'LOCALHOST', `[::1]:${node.port}`, 'app.localhost', '10.1.2.3', `${hostname()}:${node.port}`, hostname().toUpperCase()]) {
    const res = await node.request('GET', '/', { headers: { host } });
    assert.equal(res.status, 200, `${host}: ${res.text}`);
  }
});

test('http.allowed_hosts adds names and wildcard patterns', async () => {
  for (const host of ['search.example.com', 'search.example.com:9200', 'a.corp.example', 'b.c.corp.example']) {
    assert.equal((await configured.request('GET', '/', { headers: { host } })).status, 200, host);
  }
  for (const host of ['example.com', 'corp.example.evil', 'search.example.com.evil']) {
    assert.equal((await configured.request('GET', '/', { headers: { host } })).status, 403, host);
  }
});
