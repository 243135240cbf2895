import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';
import { HANDSHAKE_ACTION, TRANSPORT_VERSION, TransportService, handshake, registerHandshake } from '../../../src/transport/index.js';
import { EsError } from '../../../src/common/errors.js';
import { encodeFrame, encodeFrameChunks, FrameDecoder, FrameKind, TrailingBytesBody } from '../../../src/transport/frame.js';

async function pair(): Promise<{ a: TransportService; b: TransportService; bAddress: string; close: () => Promise<void> }> {
  const a = new TransportService('127.0.0.1', [0, 0]);
  const b = new TransportService('127.0.0.1', [0, 0]);
  await a.start();
  const port = await b.start();
  return { a, b, bAddress: `127.0.0.1:${port}`, close: async () => { await a.stop(); await b.stop(); } };
}

test('frames survive any chunking', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ id: fc.nat(), action: fc.string(), body: fc.jsonValue() }), { minLength: 1, maxLength: 5 }), fc.nat({ max: 50 }), (requests, cut) => {
      const bytes = Buffer.concat(requests.map((r) => encodeFrame({ kind: FrameKind.Request, ...r })));
      const decoder = new FrameDecoder();
      const step = Math.max(1, cut);
      const frames = [];
      for (let i = 0; i < bytes.length; i += step) frames.push(...decoder.push(bytes.subarray(i, i + step)));
      assert.equal(frames.length, requests.length);
      frames.forEach((frame, i) => {
        assert.equal(frame.kind, FrameKind.Request);
        assert.deepEqual(JSON.parse(JSON.stringify(frame.kind === FrameKind.Request ? frame.body : null)), JSON.parse(JSON.stringify(requests[i]!.body)));
      });
    }),
    { numRuns: 100 },
  );
  assert.throws(() => new FrameDecoder().push(Buffer.from('GET / HTTP/1.1\r\n\r\n')), /bad frame magic/);
});

test('an encoded frame keeps its bytes while later frames are encoded (frames queue until the turn\'s write)', () => {
  // The header is written into space the packer leaves in front of the payload, in the packer's shared buffer:
  // a later encode must never write over a frame still waiting to be sent.
  const bodies = Array.from({ length: 400 }, (_, i) => ({ i, text: 'x'.repeat((i * 37) % 3000) }));
  const frames = bodies.map((body, i) => encodeFrame({ kind: FrameKind.Response, id: i, body }));
  const copies = frames.map((frame) => Buffer.from(frame));
  encodeFrame({ kind: FrameKind.Response, id: 999, body: 'y'.repeat(200_000) });
  frames.forEach((frame, i) => assert.ok(frame.equals(copies[i]!), `frame ${i} changed`));
  const decoded = new FrameDecoder().push(Buffer.concat(frames));
  assert.deepEqual(decoded.map((frame) => (frame.kind === FrameKind.Response ? frame.body : undefined)), bodies);
  assert.equal(frames[0]!.readUInt16BE(0), 0x4754);
});

test('a large frame arriving in many small chunks is joined once, not at every chunk', () => {
  // 8 MiB in 1 KiB chunks: joining the pending bytes at every chunk copied ~34 GB here (minutes); once, 8 MiB.
  const body = Buffer.alloc(8 * 1024 * 1024, 7);
  const bytes = Buffer.concat([encodeFrame({ kind: FrameKind.Response, id: 9, body }), encodeFrame({ kind: FrameKind.Response, id: 10, body: 'next' })]);
  const decoder = new FrameDecoder();
  const started = performance.now();
  const frames = [];
  for (let i = 0; i < bytes.length; i += 1024) frames.push(...decoder.push(bytes.subarray(i, i + 1024)));
  const millis = performance.now() - started;
  assert.equal(frames.length, 2);
  const first = frames[0]!;
  assert.ok(first.kind === FrameKind.Response && Buffer.from(first.body as Uint8Array).equals(body));
  assert.ok(frames[1]!.kind === FrameKind.Response && frames[1]!.body === 'next');
  assert.ok(millis < 5000, `decoding took ${millis} ms`);
});

test('a body ending in a large byte string goes out as two chunks, the bytes as they are, and reads back as one msgpack bin', () => {
  fc.assert(
    fc.property(fc.nat({ max: 300_000 }), fc.jsonValue(), fc.nat({ max: 5000 }), (size, other, cut) => {
      const bytes = Buffer.alloc(size, 0x61 + (size % 26));
      const body = new TrailingBytesBody(bytes, (last) => ({ other, listing: { count: 3, bytes: last } }));
      const chunks = encodeFrameChunks({ kind: FrameKind.Response, id: 9, body });
      // From 1 KB the bytes are a chunk of their own, never copied; below it the frame is one buffer.
      if (size >= 1024) {
        assert.equal(chunks.length, 2);
        assert.equal(chunks[1], bytes);
      } else {
        assert.equal(chunks.length, 1);
      }
      const whole = Buffer.concat(chunks);
      const decoder = new FrameDecoder();
      const frames = [];
      const step = Math.max(1, cut);
      for (let i = 0; i < whole.length; i += step) frames.push(...decoder.push(whole.subarray(i, i + step)));
      assert.equal(frames.length, 1);
      const frame = frames[0]!;
      assert.ok(frame.kind === FrameKind.Response && frame.id === 9);
      const read = frame.body as { other: unknown; listing: { count: number; bytes: Uint8Array } };
      assert.equal(read.listing.count, 3);
      assert.ok(Buffer.from(read.listing.bytes).equals(bytes));
      assert.deepEqual(JSON.parse(JSON.stringify(read.other)), JSON.parse(JSON.stringify(other)));
      // The same frame as an ordinary msgpack body decodes to the same value.
      const plain = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Response, id: 9, body: { other, listing: { count: 3, bytes } } }))[0]!;
      assert.deepEqual(plain, frame);
    }),
    { numRuns: 40 },
  );
  // A body whose builder does not put the bytes last is written whole, and still reads back right.
  const misbuilt = new TrailingBytesBody(Buffer.alloc(4000, 0x62), (last) => ({ listing: last, after: 'x' }));
  const chunks = encodeFrameChunks({ kind: FrameKind.Response, id: 1, body: misbuilt });
  assert.equal(chunks.length, 1);
  const read = new FrameDecoder().push(chunks[0]!)[0]!;
  assert.ok(read.kind === FrameKind.Response && Buffer.from((read.body as { listing: Uint8Array }).listing).equals(misbuilt.bytes));
});

test('frames fed a byte at a time decode in linear time: 1 MB then a small frame, each whole and in order', () => {
  // Removing a frame's chunks one shift at a time was quadratic in the chunk count: a 300 KB frame fed a byte at a
  // time took 83 s, 1 MB would take many minutes. Linear, it is well under a second; 60 s leaves a loaded host room.
  const big = Buffer.alloc(1_000_000, 0x63);
  const whole = Buffer.concat([
    ...encodeFrameChunks({ kind: FrameKind.Response, id: 1, body: new TrailingBytesBody(big, (last) => ({ bytes: last })) }),
    encodeFrame({ kind: FrameKind.Request, id: 2, action: 'x', body: { n: 2 } }),
  ]);
  const decoder = new FrameDecoder();
  const frames = [];
  const started = performance.now();
  for (let i = 0; i < whole.length; i++) frames.push(...decoder.push(whole.subarray(i, i + 1)));
  const millis = performance.now() - started;
  assert.ok(millis < 60_000, `decoding took ${Math.round(millis)} ms`);
  assert.equal(frames.length, 2);
  assert.ok(Buffer.from(((frames[0] as { body: unknown }).body as { bytes: Uint8Array }).bytes).equals(big));
  assert.ok(frames[1]!.kind === FrameKind.Request && frames[1]!.id === 2);
  assert.deepEqual((frames[1] as { body: unknown }).body, { n: 2 });
});

test('a "__proto__" key crosses the wire as a plain key, never as a prototype', () => {
  const body = JSON.parse('{"__proto__":{"polluted":true},"a":[{"__proto__":1}]}') as Record<string, unknown>;
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Request, id: 1, action: 'x', body }));
  const decoded = (frame as { body: Record<string, unknown> }).body;
  assert.deepEqual(Object.keys(decoded), ['__proto__', 'a']);
  assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
  assert.deepEqual(JSON.stringify(decoded), JSON.stringify(body));
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});

test('64-bit integers cross the wire exactly: BigInts beyond 2^53 stay BigInts, small ones become numbers', () => {
  const body = { nanos: 1540815132123456789n, max: 9223372036854775807n, min: -9223372036854775808n, small: 5n, safe: 2 ** 40, float: 1e20 };
  const [frame] = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Response, id: 1, body }));
  assert.deepEqual((frame as { body: unknown }).body, { nanos: 1540815132123456789n, max: 9223372036854775807n, min: -9223372036854775808n, small: 5, safe: 2 ** 40, float: 1e20 });
});

test('requests get responses; parent task ids travel with them', async () => {
  const { a, b, bAddress, close } = await pair();
  try {
    b.registerHandler('test:echo', async (body, context) => ({ echoed: body, parent: context.parentTaskId }));
    const results = await Promise.all([1, 2, 3].map((n) => a.send(bAddress, 'test:echo', { n }, { parentTaskId: 'node:7' })));
    assert.deepEqual(results, [1, 2, 3].map((n) => ({ echoed: { n }, parent: 'node:7' })));
  } finally {
    await close();
  }
});

test('remote errors come back as the same EsError, causes included', async () => {
  const { a, b, bAddress, close } = await pair();
  try {
    b.registerHandler('test:fail', async () => {
      throw new EsError('resource_not_found_exception', 'task [x:1] is not found', { causedBy: new EsError('index_not_found_exception', 'no such index [.tasks]') });
    });
    await assert.rejects(a.send(bAddress, 'test:fail', {}), (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(err.type, 'resource_not_found_exception');
      assert.equal(err.status, 404);
      assert.equal(err.causedBy?.type, 'index_not_found_exception');
      return true;
    });
    await assert.rejects(a.send(bAddress, 'test:missing', {}), /No handler for action \[test:missing\]/);
  } finally {
    await close();
  }
});

test('timeouts, refused connections and dropped peers fail the request, not the process', async () => {
  const { a, b, bAddress, close } = await pair();
  try {
    b.registerHandler('test:slow', () => new Promise((resolve) => setTimeout(() => resolve('late'), 300)));
    await assert.rejects(a.send(bAddress, 'test:slow', {}, { timeoutMillis: 20 }), (err: unknown) => (err as EsError).type === 'receive_timeout_transport_exception');
    await assert.rejects(a.send('127.0.0.1:1', 'test:echo', {}), (err: unknown) => (err as EsError).type === 'connect_transport_exception');
    b.registerHandler('test:hang', () => new Promise(() => undefined));
    const hanging = a.send(bAddress, 'test:hang', {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    await b.stop();
    await assert.rejects(hanging, (err: unknown) => ['node_disconnected_exception', 'node_closed_exception'].includes((err as EsError).type));
  } finally {
    await close();
  }
});

test('handshake checks the cluster name; garbage on the port is dropped', async () => {
  const { a, b, bAddress, close } = await pair();
  try {
    registerHandshake(b, () => ({ nodeId: 'b', nodeName: 'node-b', clusterName: 'prod', version: '8.19.2' }));
    assert.equal((await handshake(a, bAddress, 'prod')).nodeName, 'node-b');
    await assert.rejects(handshake(a, bAddress, 'other'), /does not match local cluster name \[other\]/);
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect(b.port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\n\r\n'));
      socket.on('close', () => resolve(true));
      socket.on('error', () => undefined);
    });
    assert.ok(closed);
    assert.equal((await handshake(a, bAddress, 'prod')).nodeId, 'b', 'still serving after garbage');
  } finally {
    await close();
  }
});

test('the local shortcut runs the handler in-process with the same value; a socket encodes and decodes the answer', async () => {
  const { a, b, bAddress, close } = await pair();
  try {
    const identity = (nodeId: string) => ({ nodeId, nodeName: `node-${nodeId}`, clusterName: 'c', version: '8.19.2' });
    a.setLocalIdentity(identity('a'));
    b.setLocalIdentity(identity('b'));
    registerHandshake(b, () => identity('b'));
    const seen: Array<{ local: boolean; headers: Readonly<Record<string, string>>; sameBody: boolean }> = [];
    const request = { ids: new Set(['x']) };
    for (const service of [a, b]) {
      service.registerHandler(
        'test:codec',
        async (body, context) => {
          seen.push({ local: context.local, headers: context.headers, sameBody: body === request });
          return { found: new Map([['k', 1]]) };
        },
        { encodeResponse: (value) => ({ entries: [...(value as { found: Map<string, number> }).found] }) },
      );
    }
    const decodeResponse = (wire: unknown) => ({ found: new Map((wire as { entries: Array<[string, number]> }).entries), decoded: true });
    const options = { headers: { 'X-Opaque-Id': 'op-1' }, decodeResponse };
    const local = await a.sendRequest({ id: 'a', name: 'node-a', address: 'unused:0' }, 'test:codec', request, options);
    assert.deepEqual(local, { found: new Map([['k', 1]]) }, 'no encoding, no decoding on the local shortcut');
    assert.equal(a.localRequests, 1);
    const remote = await a.sendRequest({ id: 'b', name: 'node-b', address: bAddress }, 'test:codec', { ids: ['x'] }, options);
    assert.deepEqual(remote, { found: new Map([['k', 1]]), decoded: true });
    assert.deepEqual(seen, [
      { local: true, headers: { 'X-Opaque-Id': 'op-1' }, sameBody: true },
      { local: false, headers: { 'X-Opaque-Id': 'op-1' }, sameBody: false },
    ]);
  } finally {
    await close();
  }
});

test('a stopped service opens no connection: work still running at shutdown gets node_closed_exception', async () => {
  // A peer recovery retrying while its node shut down opened a connection after stop(); nothing closed it, and
  // the stopped node's process never exited (found by the cluster-mode audit, issue 12).
  const { a, b, bAddress, close } = await pair();
  try {
    const identity = (nodeId: string) => ({ nodeId, nodeName: `node-${nodeId}`, clusterName: 'c', version: '8.19.2' });
    a.setLocalIdentity(identity('a'));
    b.setLocalIdentity(identity('b'));
    registerHandshake(b, () => identity('b'));
    let served = 0;
    b.registerHandler('test:after-stop', async () => ++served);
    const target = { id: 'b', name: 'node-b', address: bAddress };
    assert.equal(await a.sendRequest(target, 'test:after-stop', {}), 1);
    await a.stop();
    await assert.rejects(a.sendRequest(target, 'test:after-stop', {}), (err: EsError) => {
      assert.equal(err.type, 'node_not_connected_exception');
      assert.equal(err.causedBy?.type, 'node_closed_exception');
      return true;
    });
    await assert.rejects(a.send(bAddress, 'test:after-stop', {}), (err: EsError) => err.type === 'node_closed_exception');
    assert.equal(served, 1, 'nothing reached the other node after stop');
  } finally {
    await close();
  }
});

test('a node of another transport version is refused at the handshake, whichever end opens the connection', async () => {
  // A node built before the replica operations' byte string (transport version 1) would misread this node's replica
  // requests, and this node its columns: the handshake refuses the pair with a message that says so.
  const { a, b, bAddress, close } = await pair();
  try {
    const identity = (nodeId: string) => ({ nodeId, nodeName: `node-${nodeId}`, clusterName: 'c', version: '8.19.2' });
    a.setLocalIdentity(identity('a'));
    b.setLocalIdentity(identity('b'));
    // b answers as an older build does: its identity, no transport version.
    b.registerHandler(HANDSHAKE_ACTION, async () => identity('b'));
    b.registerHandler('test:echo', async (body) => body);
    await assert.rejects(a.sendRequest({ id: 'b', name: 'node-b', address: bAddress }, 'test:echo', {}), (err: EsError) => {
      assert.equal(err.type, 'illegal_state_exception');
      assert.match(err.reason, new RegExp(`node \\[b\\] at \\[127\\.0\\.0\\.1:\\d+\\] speaks transport version \\[1\\] and this node \\[${TRANSPORT_VERSION}\\]; every node of a cluster must run the same Gannet build`));
      return true;
    });
    assert.equal(a.isConnected('b'), false, 'the refused connection is not kept');

    // An older build opening a connection to this node sends its hello without a transport version.
    const { a: c, b: d, bAddress: dAddress, close: closeOther } = await pair();
    try {
      registerHandshake(d, () => identity('d'));
      await assert.rejects(c.send(dAddress, HANDSHAKE_ACTION, { clusterName: 'c', version: '8.19.2', nodeId: 'old' }), new RegExp(`handshake failed: node \\[old\\] speaks transport version \\[1\\] and this node \\[${TRANSPORT_VERSION}\\]`));
      await assert.rejects(c.send(dAddress, HANDSHAKE_ACTION, { clusterName: 'c', version: '8.19.2', nodeId: 'newer', transportVersion: TRANSPORT_VERSION + 1 }), new RegExp(`transport version \\[${TRANSPORT_VERSION + 1}\\]`));
      assert.equal((await c.send(dAddress, HANDSHAKE_ACTION, { clusterName: 'c', version: '8.19.2', nodeId: 'same', transportVersion: TRANSPORT_VERSION })) !== undefined, true);
      assert.equal((await handshake(c, dAddress, 'c')).transportVersion, TRANSPORT_VERSION);
    } finally {
      await closeOther();
    }
  } finally {
    await close();
  }
});
