import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../../src/http/body-reader.js';

/** Sends requests one after another over one kept-alive connection; the server echoes the body length it read. */
async function exchange(requests: Array<{ method: string; body?: string; headers?: Record<string, string> }>): Promise<string[]> {
  const server = createServer((req, res) => {
    readBody(req, 1 << 20).then(
      (body) => res.end(`${req.method} ${body.length}`),
      (err: Error) => res.end(`error ${err.message}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  try {
    const answers: string[] = [];
    for (const spec of requests) {
      answers.push(
        await new Promise<string>((resolve, reject) => {
          const req = httpRequest({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', method: spec.method, agent, headers: spec.headers }, (res) => {
            sockets.add(res.socket);
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve(text));
          });
          req.on('error', reject);
          req.end(spec.body);
        }),
      );
    }
    assert.equal(sockets.size, 1, 'one connection served every request');
    return answers;
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('requests without a body read as empty at once, and the connection goes on to the next request', async () => {
  const answers = await exchange([
    { method: 'GET' },
    { method: 'GET', headers: { 'content-length': '0' } },
    { method: 'POST', body: '{"a":1}' },
    { method: 'GET' },
    { method: 'PUT', body: 'x'.repeat(70_000), headers: { 'transfer-encoding': 'chunked' } },
    { method: 'GET' },
  ]);
  assert.deepEqual(answers, ['GET 0', 'GET 0', 'POST 7', 'GET 0', 'PUT 70000', 'GET 0']);
});
