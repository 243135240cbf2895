import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedHostNames, checkCrossSite, checkHostHeader, hostOf } from '../../../src/http/request-origin.js';
import { Settings } from '../../../src/common/settings.js';

const config = { corsEnabled: false, allowedHosts: ['search.example.com', '*.corp.example', 'vm'] };

test('hostOf strips ports and brackets, lower-cases and drops a trailing dot', () => {
  assert.equal(hostOf('Example.COM:9200'), 'example.com');
  assert.equal(hostOf('[::1]:9200'), '::1');
  assert.equal(hostOf('::1'), '::1');
  assert.equal(hostOf('localhost.'), 'localhost');
  assert.equal(hostOf('10.0.0.1'), '10.0.0.1');
});

test('Host: IP literals, localhost, configured names and patterns pass; other names are refused', () => {
  for (const host of [undefined, '', '127.0.0.1:9200', '[fe80::1]', '192.168.1.20', 'localhost', 'a.b.localhost:1', 'search.example.com', 'x.corp.example', 'VM:9200']) {
    assert.equal(checkHostHeader(host, config), undefined, String(host));
  }
  for (const host of ['evil.example', 'corp.example', 'search.example.com.evil', 'localhost.evil', 'vmx']) {
    const refused = checkHostHeader(host, config);
    assert.equal(refused?.status, 403, host);
    assert.equal(refused?.type, 'security_exception');
  }
});

test('allowedHostNames: http.allowed_hosts, the machine name and its first label, bind and publish hosts', () => {
  const settings = new Settings({ 'http.allowed_hosts': 'A.example, *.b.example', 'network.host': '_site_,node1.internal', 'http.publish_host': 'pub.example.' });
  assert.deepEqual(allowedHostNames(settings, 'Box.lan').sort(), ['*.b.example', 'a.example', 'box', 'box.lan', 'node1.internal', 'pub.example']);
});

test('cross-site: only state-changing methods, only when the browser says the origin differs, only with CORS off', () => {
  const at = (headers: Record<string, string>, method = 'POST', cors = false) => checkCrossSite(method, { host: 'localhost:9200', ...headers }, { ...config, corsEnabled: cors });
  assert.equal(at({ origin: 'http://evil.example' })?.status, 403);
  assert.equal(at({ origin: 'null' })?.status, 403);
  assert.equal(at({ origin: 'not a url' })?.status, 403);
  assert.equal(at({ 'sec-fetch-site': 'cross-site' })?.status, 403);
  assert.equal(at({ 'sec-fetch-site': 'same-site', origin: 'http://localhost:3000' })?.status, 403);
  assert.equal(at({ origin: 'http://localhost:9200' }), undefined, 'same origin');
  assert.equal(at({ origin: 'http://LOCALHOST:9200' }), undefined, 'origins compare case-insensitively');
  assert.equal(checkCrossSite('POST', { host: 'example.com:80', origin: 'http://example.com' }, config), undefined, 'default port');
  assert.equal(checkCrossSite('POST', { host: 'example.com', origin: 'https://example.com:443' }, config), undefined, 'default port');
  assert.equal(at({ origin: 'https://app.example', 'sec-fetch-site': 'same-origin' }), undefined, 'the browser attests same-origin');
  assert.equal(at({ origin: 'https://app.example', 'x-forwarded-host': 'app.example' }), undefined, 'same-origin behind a proxy');
  assert.equal(at({}), undefined, 'not a browser');
  for (const method of ['GET', 'HEAD', 'OPTIONS']) assert.equal(at({ origin: 'http://evil.example' }, method), undefined, method);
  for (const method of ['PUT', 'DELETE', 'PATCH']) assert.equal(at({ origin: 'http://evil.example' }, method)?.status, 403, method);
  assert.equal(at({ origin: 'http://evil.example' }, 'POST', true), undefined, 'CORS on: CORS decides');
});
