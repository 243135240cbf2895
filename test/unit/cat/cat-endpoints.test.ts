import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCatTable, type CatParamSource } from '../../../src/cat/index.js';
import { allocationColumns, allocationRows, diskUsage } from '../../../src/actions/cat/allocation-action.js';
import { nodeRow } from '../../../src/actions/cat/nodes-action.js';
import { nodesColumns } from '../../../src/actions/cat/nodes-columns.js';
import { shardCopiesOn, type NodeSnapshot } from '../../../src/actions/cat/node-snapshot.js';
import { catOutputMode } from '../../../src/actions/cat/cat-response.js';
import { zeroIndicesStats, zeroScriptStats } from '../../../src/monitor/indices-stats.js';
import type { RestRequest } from '../../../src/actions/rest.js';
import { clusterState, index, node, relocating, relocationTarget, started, unassigned } from '../../helpers/cluster-state-builder.js';

const GB = 1024 ** 3;

function snapshot(overrides: { total?: number; available?: number; store?: number; data?: boolean } = {}): NodeSnapshot {
  const total = overrides.total ?? 100 * GB;
  const available = overrides.available ?? 40 * GB;
  return {
    info: { pid: 42, buildType: 'tar', buildHash: 'abc', runtimeVersion: '20.0.0', heapMaxBytes: 4 * GB, httpPublishAddress: '127.0.0.1:9200' },
    stats: {
      os: {
        timestampMillis: 0,
        cpuPercent: 7,
        loadAverage: [1.005, 0.5, -1],
        memTotalBytes: 16 * GB,
        memFreeBytes: 4 * GB,
        memUsedBytes: 12 * GB,
        memFreePercent: 25,
        memUsedPercent: 75,
        swapTotalBytes: 0,
        swapFreeBytes: 0,
        availableProcessors: 2,
      },
      process: {
        timestampMillis: 0,
        pid: 42,
        uptimeMillis: 3.4 * 3_600_000,
        startTimeMillis: 0,
        heapUsedBytes: GB,
        heapCommittedBytes: GB,
        heapMaxBytes: 4 * GB,
        heapUsedPercent: 25,
        nonHeapUsedBytes: 0,
        rssBytes: 0,
        cpuPercent: 1,
        cpuTotalMillis: 0,
        openFileDescriptors: 333,
        maxFileDescriptors: 1000,
        nodeVersion: 'v20.0.0',
        v8Version: '11',
      },
      fs: { path: '/data', totalBytes: total, freeBytes: available, availableBytes: available },
      indices: { ...zeroIndicesStats(), storeSizeBytes: overrides.store ?? 260 },
      script: zeroScriptStats(),
      allocation: overrides.data === false ? undefined : { undesiredShards: 0, forecastedIngestLoad: 0, forecastedDiskUsageBytes: overrides.store ?? 260 },
    },
  };
}

const params = (values: Record<string, string>): CatParamSource => ({ param: (name) => values[name] });

function text(table: Parameters<typeof renderCatTable>[0], values: Record<string, string> = {}): string {
  const output = renderCatTable(table, params(values), 'text');
  return output.kind === 'text' ? output.text : '';
}

test('allocation: shard copies per node from the routing table, then an UNASSIGNED row', () => {
  const state = clusterState({
    nodes: [node('n1'), node('n2')],
    indices: [
      index('a', [[started(true, { nodeId: 'n1' }), started(false, { nodeId: 'n2' })], [started(true, { nodeId: 'n1' }), unassigned(false)]]),
      index('b', [[relocating(true, { nodeId: 'n1', relocatingNodeId: 'n2' }), relocationTarget(true, { nodeId: 'n2', relocatingNodeId: 'n1' })]]),
      index('c', [[unassigned(true)]]),
    ],
  });
  const rows = allocationRows(state, ['n1', 'n2'], new Map([['n1', snapshot()], ['n2', snapshot({ store: 3 * 1024 })]]));
  assert.equal(
    text({ columns: allocationColumns, rows }, { v: 'true' }),
    [
      'shards shards.undesired write_load.forecast disk.indices.forecast disk.indices disk.used disk.avail disk.total disk.percent host      ip        node       node.role',
      '     3                0                 0.0                  260b         260b      60gb       40gb      100gb           60 127.0.0.1 127.0.0.1 node-n1    dim',
      '     1                0                 0.0                   3kb          3kb      60gb       40gb      100gb           60 127.0.0.1 127.0.0.1 node-n2    dim',
      '     2                                                                                                                                          UNASSIGNED ',
    ].join('\n') + '\n',
  );
});

test('allocation: nodes that did not answer have no row; the UNASSIGNED row stays', () => {
  const state = clusterState({ nodes: [node('n1')], indices: [index('a', [[unassigned(true)]])] });
  assert.equal(text({ columns: allocationColumns, rows: allocationRows(state, ['n1'], new Map()) }, { h: 'shards,node' }), '1 UNASSIGNED\n');
  assert.equal(text({ columns: allocationColumns, rows: allocationRows(clusterState(), [], new Map()) }), '');
});

test('allocation: a node that holds no data has no forecast figures', () => {
  const state = clusterState({ nodes: [node('m1', ['master'])] });
  const rows = allocationRows(state, ['m1'], new Map([['m1', snapshot({ data: false })]]));
  assert.equal(text({ columns: allocationColumns, rows }, { h: 'shards.undesired,wlf,dif,node.role' }), '   m\n');
});

test('disk arithmetic: used is total - available, percent truncated, unknown total means 0 used', () => {
  assert.deepEqual(diskUsage(100, 33), { usedBytes: 67, percent: 67 });
  assert.deepEqual(diskUsage(3, 1), { usedBytes: 2, percent: 66 });
  assert.deepEqual(diskUsage(-1, -1), { usedBytes: 0, percent: undefined });
  assert.deepEqual(diskUsage(0, 0), { usedBytes: 0, percent: undefined });
});

test('shard copies on a node include a relocation target', () => {
  const state = clusterState({
    nodes: [node('n1'), node('n2')],
    indices: [index('b', [[relocating(true, { nodeId: 'n1', relocatingNodeId: 'n2' }), relocationTarget(true, { nodeId: 'n2', relocatingNodeId: 'n1' })], [unassigned(true)]])],
  });
  assert.equal(shardCopiesOn(state, 'n1'), 1);
  assert.equal(shardCopiesOn(state, 'n2'), 1);
});

test('nodes: default columns, master marks, load with two decimals and blank when unknown', () => {
  const state = clusterState({ nodes: [node('abcdef1'), node('zyx2', [])] });
  const rows = [nodeRow(state, state.nodes.get('abcdef1')!, snapshot(), false), nodeRow(state, state.nodes.get('zyx2')!, undefined, false)];
  assert.equal(
    text({ columns: nodesColumns, rows }, { v: 'true' }),
    [
      'ip        heap.percent ram.percent cpu load_1m load_5m load_15m node.role master name',
      '127.0.0.1           25          75   7    1.01    0.50          dim       *      node-abcdef1',
      '127.0.0.1                                                       -         -      node-zyx2',
    ].join('\n') + '\n',
  );
  const noMaster = { ...state, masterNodeId: undefined };
  assert.equal(text({ columns: nodesColumns, rows: [nodeRow(noMaster, state.nodes.get('zyx2')!, undefined, false)] }, { h: 'm' }), 'x\n');
});

test('nodes: identity, resource and zeroed index statistics columns', () => {
  const state = clusterState({ nodes: [node('abcdef1')] });
  const rows = [nodeRow(state, state.nodes.get('abcdef1')!, snapshot(), false)];
  const show = (h: string, extra: Record<string, string> = {}) => text({ columns: nodesColumns, rows }, { h, ...extra });
  assert.equal(show('id'), 'abcd\n');
  assert.equal(text({ columns: nodesColumns, rows: [nodeRow(state, state.nodes.get('abcdef1')!, snapshot(), true)] }, { h: 'id' }), 'abcdef1\n');
  assert.equal(show('pid,port,http,v,type,b,jdk'), '42 9300 127.0.0.1:9200 8.19.2 tar abc 20.0.0\n');
  assert.equal(show('heap.*'), '1gb 25 4gb\n');
  assert.equal(show('disk,dt,du,dup'), '40gb 100gb 60gb 60.00\n');
  assert.equal(show('file_desc.*'), '333 33 1000\n');
  assert.equal(show('ram.*'), '12gb 75 16gb\n');
  assert.equal(show('uptime'), '3.4h\n');
  assert.equal(show('uptime', { time: 's' }), '12240\n');
  assert.equal(show('shards,segments.memory,flush.total_time,bulk.total_size_in_bytes,mteo,iifvc'), '0 0b 0s 0 0b 0\n');
  assert.equal(show('l'), '\n', 'the l alias resolves to load_15m, unknown here');
});

test('nodes: a node that did not answer keeps its identity and gets blank figures', () => {
  const state = clusterState({ nodes: [node('abcdef1')] });
  const row = nodeRow(state, state.nodes.get('abcdef1')!, undefined, false);
  const output = renderCatTable({ columns: nodesColumns, rows: [row] }, params({ h: 'name,pid,http,heap.max,flush.total,segments.memory' }), 'rows');
  assert.deepEqual(output, {
    kind: 'rows',
    rows: [{ name: 'node-abcdef1', pid: null, http: '-', 'heap.max': null, 'flush.total': null, 'segments.memory': null }],
  });
});

test('output mode: format decides, else an Accept header naming one XContent type, else text', () => {
  const request = (query: Record<string, string>, accept?: string) =>
    ({ hasParam: (name: string) => name in query, param: (name: string) => query[name], headers: { accept } }) as unknown as RestRequest;
  assert.equal(catOutputMode(request({})), 'text');
  assert.equal(catOutputMode(request({ format: 'json' })), 'rows');
  assert.equal(catOutputMode(request({ format: 'yaml' })), 'rows');
  assert.equal(catOutputMode(request({ format: 'txt' }, 'application/json')), 'text');
  assert.equal(catOutputMode(request({}, 'application/json')), 'rows');
  assert.equal(catOutputMode(request({}, 'application/vnd.elasticsearch+json; compatible-with=8')), 'rows');
  assert.equal(catOutputMode(request({}, 'application/vnd.elasticsearch+json; compatible-with=8,text/plain')), 'text');
  assert.equal(catOutputMode(request({}, '*/*')), 'text');
  assert.equal(catOutputMode(request({}, 'text/plain')), 'text');
});
