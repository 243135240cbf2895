/**
 * The HTTP limits ES applies before anything else, as a real node answers them: the request line within
 * http.max_initial_line_length (4kb) and the headers within http.max_header_size (16kb), refused with
 * Netty's exceptions as ES's 400 bodies; `Expect: 100-continue` on a body over http.max_content_length answered
 * 417 before the body is sent; a search body that is not UTF-8 refused as Jackson refuses it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'limits-node', 'http.max_content_length': '1kb' } });
  assert.equal((await node.request('PUT', '/limits', { body: { mappings: { properties: { title: { type: 'text' } } } } })).status, 200);
});

after(async () => {
  await node.stop();
});

/** Sends raw bytes and reads until the server closes or `until` matches what arrived. */
function rawExchange(payload: string | Buffer, until?: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(node.port, '127.0.0.1');
    let received = '';
    const finish = (): void => {
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (until !== undefined && until.test(received)) finish();
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', reject);
    socket.write(payload);
  });
}

function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
}

function bodyOf(response: string): any {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

test('a request line over 4kb is refused with too_long_http_line_exception', async () => {
  const response = await rawExchange(`GET /_search?q=${'a'.repeat(5000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, /\}\s*$/);
  assert.equal(statusOf(response), 400, response.slice(0, 200));
  assert.deepEqual(bodyOf(response), {
    error: {
      root_cause: [{ type: 'too_long_http_line_exception', reason: 'An HTTP line is larger than 4096 bytes.' }],
      type: 'too_long_http_line_exception',
      reason: 'An HTTP line is larger than 4096 bytes.',
    },
    status: 400,
  });
  // A line within the limit is served.
  const fine = await node.request('GET', `/_cluster/health?filter_path=${'status,'.repeat(200)}status`);
  assert.equal(fine.status, 200);
});

test('headers over 16kb are refused with too_long_http_header_exception', async () => {
  const big = await rawExchange(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(17_000)}\r\n\r\n`, /\}\s*$/);
  assert.equal(statusOf(big), 400, big.slice(0, 200));
  assert.equal(bodyOf(big).error.type, 'too_long_http_header_exception');
  assert.equal(bodyOf(big).error.reason, 'HTTP header is larger than 16384 bytes.');
  const huge = await rawExchange(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Huge: ${'h'.repeat(40_000)}\r\n\r\n`, /\}\s*$/);
  assert.equal(statusOf(huge), 400, huge.slice(0, 200));
  assert.equal(bodyOf(huge).error.type, 'too_long_http_header_exception');
  // Headers within the limit are served.
  const fine = await node.request('GET', '/', { headers: { 'x-medium': 'm'.repeat(15_000) } });
  assert.equal(fine.status, 200);
});

test('Expect: 100-continue with a body over http.max_content_length is answered 417 before the body', async () => {
  const refused = await rawExchange(
    'PUT /limits/_doc/1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n',
    /\r\n\r\n/,
  );
  assert.equal(statusOf(refused), 417, refused);
  // Within the limit the client is told to continue, and the document is indexed.
  const doc = '{"title":"fine"}';
  const accepted = await rawExchange(
    `PUT /limits/_doc/2 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${doc.length}\r\nExpect: 100-continue\r\n\r\n${doc}`,
    /"result"/,
  );
  assert.match(accepted, /^HTTP\/1\.1 100 Continue/);
  assert.match(accepted, /HTTP\/1\.1 201 Created/);
});

test('a search body that is not UTF-8 is refused as Jackson refuses it', async () => {
  const body = Buffer.concat([Buffer.from('{"query":{"match":{"title":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}}')]);
  const response = await node.request('POST', '/limits/_search', { raw: body, headers: { 'content-type': 'application/json' } });
  assert.equal(response.status, 400, response.text);
  assert.equal(response.body.error.type, 'x_content_parse_exception');
  assert.equal(response.body.error.reason, '[1:29] Invalid UTF-8 start byte 0xff');
});

test('_nodes reports the limits the node applies', async () => {
  const settings = await node.request('GET', '/_nodes/_local/settings?flat_settings=true');
  assert.equal(settings.status, 200, settings.text);
  const nodeSettings = (Object.values(settings.body.nodes)[0] as any).settings;
  assert.equal(nodeSettings['http.max_initial_line_length'], '4kb');
  assert.equal(nodeSettings['http.max_header_size'], '16kb');
});
