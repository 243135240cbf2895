/**
 * The HTTP behaviour shared by every endpoint, checked on a real node: formatting knobs, errors, limits,
 * compression and media types. Bad input must get an ES error and leave the node serving.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync, gunzipSync } from 'node:zlib';
import { connect } from 'node:net';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'http.max_content_length': '1mb' } });
});
after(async () => {
  await node.stop();
});

async function assertStillServing(): Promise<void> {
  const res = await node.request('GET', '/');
  assert.equal(res.status, 200, 'the node keeps serving');
}

test('pretty prints like ES: two-space indent, " : " separators, trailing newline', async () => {
  const res = await node.request('GET', '/?pretty');
  assert.match(res.text, /^\{\n {2}"name" : "test-node",\n/);
  assert.ok(res.text.endsWith('}\n'));
  const compact = await node.request('GET', '/');
  assert.ok(!compact.text.includes('\n'));
});

test('filter_path keeps, wildcards and excludes', async () => {
  assert.deepEqual((await node.request('GET', '/?filter_path=version.number,tagline')).body, {
    version: { number: '8.19.2' },
    tagline: 'You Know, for Search',
  });
  assert.deepEqual(Object.keys((await node.request('GET', '/?filter_path=version.*_version')).body.version).sort(), [
    'lucene_version',
    'minimum_index_compatibility_version',
    'minimum_wire_compatibility_version',
  ]);
  assert.deepEqual((await node.request('GET', '/?filter_path=**.number')).body, { version: { number: '8.19.2' } });
  const excluded = (await node.request('GET', '/?filter_path=-version,-cluster_uuid')).body;
  assert.deepEqual(Object.keys(excluded), ['name', 'cluster_name', 'tagline']);
  assert.deepEqual((await node.request('GET', '/?filter_path=nothing.here')).body, {});
});

test('format=yaml and Accept: application/yaml give YAML', async () => {
  const res = await node.request('GET', '/?format=yaml');
  assert.equal(res.headers['content-type'], 'application/yaml');
  assert.match(res.text, /^---\nname: "?test-node"?\n/);
  assert.match(res.text, /\ntagline: "You Know, for Search"\n/);
  const viaAccept = await node.request('GET', '/', { headers: { accept: 'application/yaml' } });
  assert.equal(viaAccept.text, res.text);
});

test('unknown parameters: 400 with ES wording, sorted, with did-you-mean', async () => {
  const one = await node.request('GET', '/?prety=true');
  assert.equal(one.status, 400);
  assert.deepEqual(one.body, {
    error: {
      root_cause: [{ type: 'illegal_argument_exception', reason: 'request [/] contains unrecognized parameter: [prety] -> did you mean [pretty]?' }],
      type: 'illegal_argument_exception',
      reason: 'request [/] contains unrecognized parameter: [prety] -> did you mean [pretty]?',
    },
    status: 400,
  });
  const two = await node.request('GET', '/?zzz=1&aaa=2');
  assert.equal(two.body.error.reason, 'request [/] contains unrecognized parameters: [aaa], [zzz]');
});

test('unknown routes and wrong methods answer as ES does', async () => {
  const missing = await node.request('GET', '/_no_such_api/x?y=1');
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { error: 'no handler found for uri [/_no_such_api/x?y=1] and method [GET]', status: 400 });
  const wrong = await node.request('DELETE', '/');
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers['allow'], 'GET,HEAD');
  assert.deepEqual(wrong.body, { error: 'Incorrect HTTP method for uri [/] and method [DELETE], allowed: [GET, HEAD]', status: 405 });
  const options = await node.request('OPTIONS', '/');
  assert.equal(options.status, 200);
  assert.equal(options.headers['allow'], 'GET,HEAD');
  assert.equal(missing.headers['x-elastic-product'], 'Elasticsearch', 'errors carry the product header too');
});

test('error_trace adds stack traces', async () => {
  const res = await node.request('GET', '/?bogus=1&error_trace=true');
  assert.equal(res.status, 400);
  assert.equal(typeof res.body.error.stack_trace, 'string');
  const plain = await node.request('GET', '/?bogus=1');
  assert.equal(plain.body.error.stack_trace, undefined);
});

test('a body on an endpoint that takes none is rejected, malformed or not', async () => {
  for (const raw of ['{"a":', '\u0000\u00ff\u0001garbage', '{"ok":true}']) {
    const res = await node.request('GET', '/', { raw, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'illegal_argument_exception');
    assert.equal(res.body.error.reason, 'request [GET /] does not support having a body');
  }
  await assertStillServing();
});

test('a body larger than http.max_content_length gets 413 with an empty body', async () => {
  const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
  const res = await node.request('POST', '/', { raw: big, headers: { 'content-type': 'application/json' } }).catch((err: Error) => err);
  if (res instanceof Error) {
    // The node may close the connection before the client finished writing; that is acceptable.
    assert.match(res.message, /EPIPE|ECONNRESET|socket hang up/);
  } else {
    assert.equal(res.status, 413);
    assert.equal(res.text, '');
  }
  await assertStillServing();
});

test('a 150 MB body is refused without being buffered, and the node keeps serving', async () => {
  const status = await new Promise<string>((resolve, reject) => {
    const socket = connect(node.port, '127.0.0.1', () => {
      socket.write(`POST /_bulk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\nContent-Length: ${150 * 1024 * 1024}\r\n\r\n`);
      socket.write(Buffer.alloc(64 * 1024, 0x7b));
    });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) {
        resolve(received.split('\r\n')[0]!);
        socket.destroy();
      }
    });
    socket.on('error', reject);
  });
  assert.match(status, /^HTTP\/1\.1 413/);
  await assertStillServing();
});

test('gzip: compressed request bodies are inflated, responses are gzipped when accepted', async () => {
  const res = await node.request('GET', '/', { headers: { 'accept-encoding': 'gzip' } });
  assert.equal(res.headers['content-encoding'], 'gzip');
  const gz = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(node.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n'));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  const split = gz.indexOf('\r\n\r\n');
  const body = JSON.parse(gunzipSync(gz.subarray(split + 4)).toString('utf8'));
  assert.equal(body.tagline, 'You Know, for Search');

  // A gzip body on an endpoint without a body is still decoded first (then rejected for having one).
  const compressedBody = gzipSync(Buffer.from('{"x":1}'));
  const withGzipBody = await node.request('GET', '/', {
    raw: compressedBody,
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  assert.equal(withGzipBody.status, 400);
  assert.match(withGzipBody.body.error.reason, /does not support having a body/);
  const corrupt = await node.request('GET', '/', { raw: Buffer.from('not gzip at all'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  assert.equal(corrupt.status, 400);
  await assertStillServing();
});

test('compatible-with media types are accepted and echoed; bad versions are rejected', async () => {
  const res = await node.request('GET', '/', { headers: { accept: 'application/vnd.elasticsearch+json; compatible-with=8,text/plain' } });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/vnd.elasticsearch+json;compatible-with=8');
  const nine = await node.request('GET', '/', { headers: { accept: 'application/vnd.elasticsearch+json; compatible-with=9' } });
  assert.equal(nine.headers['content-type'], 'application/vnd.elasticsearch+json;compatible-with=9');
  const bad = await node.request('GET', '/', { headers: { accept: 'application/vnd.elasticsearch+json; compatible-with=5' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.type, 'media_type_header_exception');
});

test('garbage on the socket gets a 400 and the node keeps serving', async () => {
  const reply = await new Promise<string>((resolve) => {
    const socket = connect(node.port, '127.0.0.1', () => socket.write('\u0016\u0003\u0001\u0002\u0000garbage\r\n\r\n'));
    let received = '';
    socket.on('data', (c) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  assert.match(reply, /^HTTP\/1\.1 400/);
  await assertStillServing();
});

test('X-Opaque-Id is echoed on the response, as ES does', async () => {
  const res = await node.request('GET', '/', { headers: { 'x-opaque-id': 'my-request-42' } });
  assert.equal(res.headers['x-opaque-id'], 'my-request-42');
  const none = await node.request('GET', '/');
  assert.equal(none.headers['x-opaque-id'], undefined);
});

/** The head of the answer to one raw request (`Connection: close`), as the bytes came. */
function rawHead(request: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(node.port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.on('data', (c) => (received += c.toString('latin1')));
    socket.on('close', () => resolve(received.slice(0, received.indexOf('\r\n\r\n'))));
    socket.on('error', reject);
  });
}

test('every kind of answer carries X-elastic-product first, however its head was made', async () => {
  // A plain answer (its head given whole to writeHead), one with headers set before it (X-Opaque-Id, Allow), an
  // empty-bodied one and an error: the product header is the head's first line each time, and never doubled.
  const cases = [
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    'GET /_cluster/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Opaque-Id: abc\r\nConnection: close\r\n\r\n',
    'OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    'DELETE / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    'HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    'GET /_no_such_api HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    // Refused before routing: a Host the node may not be addressed by.
    'GET / HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n',
  ];
  for (const request of cases) {
    const lines = (await rawHead(request)).split('\r\n');
    assert.equal(lines[1], 'X-elastic-product: Elasticsearch', `${request.split('\r\n')[0]}: ${lines.join(' | ')}`);
    assert.equal(lines.filter((line) => line.toLowerCase().startsWith('x-elastic-product')).length, 1);
  }
  const echoed = (await rawHead(cases[1]!)).split('\r\n');
  assert.ok(echoed.includes('X-Opaque-Id: abc'));
  const allowed = (await rawHead(cases[2]!)).split('\r\n');
  assert.ok(allowed.includes('Allow: GET,HEAD'));
});
