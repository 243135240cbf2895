/**
 * CORS as ES's CorsHandler answers it, for browser tools (elasticsearch-head, elasticvue): off by default; when
 * enabled, preflights answered before routing (200 with the allowed methods/headers/max-age, 403 empty for an
 * origin not allowed), disallowed cross-origin requests refused with an empty 403, allowed responses carrying
 * the origin (or `*`), `Vary: origin`, credentials and the exposed headers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

const PREFLIGHT = { origin: 'http://head.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' };

test('CORS is disabled by default: no CORS headers, OPTIONS goes to routing', async () => {
  const node = await NodeProcess.start();
  try {
    const res = await node.request('GET', '/', { headers: { origin: 'http://elsewhere.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await node.request('OPTIONS', '/_search', { headers: PREFLIGHT });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.ok(String(preflight.headers['allow']).includes('POST'));
  } finally {
    await node.stop();
  }
});

test('allow-origin as a list and as a /regex/: preflight, allowed and refused origins', async () => {
  const node = await NodeProcess.start({
    settings: { 'http.cors.enabled': 'true', 'http.cors.allow-origin': '/https?:\\/\\/(head|vue)\\.example(:\\d+)?/', 'http.cors.allow-credentials': 'true', 'http.cors.max-age': '600' },
  });
  try {
    const preflight = await node.request('OPTIONS', '/_search', { headers: PREFLIGHT });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.text, '');
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://head.example');
    assert.equal(preflight.headers['vary'], 'origin');
    assert.equal(preflight.headers['access-control-allow-methods'], 'OPTIONS, HEAD, GET, POST, PUT, DELETE');
    assert.equal(
      preflight.headers['access-control-allow-headers'],
      'X-Requested-With, Content-Type, Content-Length, Authorization, Accept, User-Agent, X-Elastic-Client-Meta',
    );
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    assert.equal(preflight.headers['access-control-max-age'], '600');
    assert.ok(preflight.headers['date']);

    const refusedPreflight = await node.request('OPTIONS', '/_search', { headers: { ...PREFLIGHT, origin: 'http://evil.example' } });
    assert.equal(refusedPreflight.status, 403);
    assert.equal(refusedPreflight.text, '');

    const allowed = await node.request('GET', '/_cluster/health', { headers: { origin: 'https://vue.example:8080' } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://vue.example:8080');
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true');
    assert.equal(allowed.headers['access-control-expose-headers'], 'X-elastic-product');
    assert.equal(allowed.headers['vary'], 'origin');
    // Errors carry the headers too, so the browser can read them.
    const error = await node.request('GET', '/missing/_search', { headers: { origin: 'http://head.example' } });
    assert.equal(error.status, 404);
    assert.equal(error.headers['access-control-allow-origin'], 'http://head.example');

    const refused = await node.request('GET', '/', { headers: { origin: 'http://evil.example' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.text, '');
    // The node's own origin (Origin equals Host once the scheme is stripped) is always allowed.
    const sameOrigin = await node.request('GET', '/', { headers: { origin: `http://127.0.0.1:${node.port}` } });
    assert.equal(sameOrigin.status, 200);
    // Requests without Origin are not CORS requests.
    const plain = await node.request('GET', '/');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['access-control-allow-origin'], undefined);
  } finally {
    await node.stop();
  }
});

test('allow-origin "*": any origin gets "*" without credentials; custom methods and headers', async () => {
  const node = await NodeProcess.start({
    settings: { 'http.cors.enabled': 'true', 'http.cors.allow-origin': '*', 'http.cors.allow-methods': 'get,post', 'http.cors.allow-headers': 'X-Requested-With, Content-Type' },
  });
  try {
    const preflight = await node.request('OPTIONS', '/anything', { headers: PREFLIGHT });
    assert.equal(preflight.status, 200);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.equal(preflight.headers['vary'], undefined);
    assert.equal(preflight.headers['access-control-allow-methods'], 'GET, POST');
    assert.equal(preflight.headers['access-control-allow-headers'], 'X-Requested-With, Content-Type');
    assert.equal(preflight.headers['access-control-max-age'], '1728000');
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    const res = await node.request('GET', '/', { headers: { origin: 'http://anywhere.example', 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], '*');
  } finally {
    await node.stop();
  }
});
