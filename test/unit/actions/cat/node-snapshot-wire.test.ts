import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame, FrameDecoder, FrameKind } from '../../../../src/transport/frame.js';
import { snapshotFromWire, snapshotToWire, type NodeSnapshot } from '../../../../src/actions/cat/node-snapshot.js';
import { NodeMonitor } from '../../../../src/monitor/node-monitor.js';
import { zeroIndicesStats, zeroScriptStats } from '../../../../src/monitor/index.js';

/** What crosses a real frame: msgpack out and back in. */
function acrossTheWire(value: unknown): unknown {
  const frames = new FrameDecoder().push(encodeFrame({ kind: FrameKind.Response, id: 1, body: value }));
  assert.equal(frames.length, 1);
  return (frames[0] as { body: unknown }).body;
}

async function snapshot(dataNode: boolean): Promise<NodeSnapshot> {
  const figures = await new NodeMonitor(process.cwd()).figures();
  const indices = { ...zeroIndicesStats(), shardCount: 3, storeSizeBytes: 12_345, search: { ...zeroIndicesStats().search, queryTotal: 7, queryTimeMillis: 1.5 } };
  return {
    info: { pid: process.pid, buildType: 'tar', buildHash: 'abc123', runtimeVersion: '20.0.0', heapMaxBytes: 2 ** 32, httpPublishAddress: dataNode ? '127.0.0.1:9200' : undefined },
    stats: {
      ...figures,
      indices,
      script: { ...zeroScriptStats(), compilations: 2 },
      allocation: dataNode ? { undesiredShards: 0, forecastedIngestLoad: 0, forecastedDiskUsageBytes: 12_345 } : undefined,
    },
  };
}

test('a node snapshot crosses the transport as flat values and comes back equal, absent parts included', async () => {
  for (const dataNode of [true, false]) {
    const original = await snapshot(dataNode);
    const wire = snapshotToWire(original);
    assert.ok(Array.isArray(wire) && wire.every((value) => typeof value !== 'object' || value === null || Array.isArray(value) || !('os' in (value as object))), 'flat');
    assert.deepStrictEqual(snapshotFromWire(acrossTheWire(wire)), original);
  }
});

test('a snapshot of another layout (another build) is refused, never misread', async () => {
  const wire = snapshotToWire(await snapshot(true));
  assert.throws(() => snapshotFromWire([12345, ...wire.slice(1)]), /another layout/);
  assert.throws(() => snapshotFromWire(wire.slice(0, -1)), /another layout/);
  assert.throws(() => snapshotFromWire({ json: '{}' }), /another layout/);
});
