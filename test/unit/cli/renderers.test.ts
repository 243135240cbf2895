import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHealth } from '../../../src/cli/health-command.js';
import { renderNodesTable } from '../../../src/cli/nodes-command.js';
import { renderAllocationTable } from '../../../src/cli/allocation-command.js';

const yellowHealth = {
  cluster_name: 'logs',
  status: 'yellow',
  timed_out: false,
  number_of_nodes: 3,
  number_of_data_nodes: 2,
  active_primary_shards: 5,
  active_shards: 8,
  relocating_shards: 1,
  initializing_shards: 0,
  unassigned_shards: 2,
  delayed_unassigned_shards: 0,
  number_of_pending_tasks: 0,
  number_of_in_flight_fetch: 0,
  task_max_waiting_in_queue_millis: 0,
  active_shards_percent_as_number: 80,
};

test('health summary names the cluster, status, nodes, every shard count and active %', () => {
  const text = renderHealth(yellowHealth, false);
  assert.equal(
    text,
    'cluster  logs\n' +
      'status   yellow\n' +
      'nodes    3 (2 data)\n' +
      'shards   8 active (5 primary), 1 relocating, 0 initializing, 2 unassigned\n' +
      'active   80.0%\n',
  );
});

test('health summary colours the status only when asked, and flags a timed-out wait', () => {
  assert.match(renderHealth({ ...yellowHealth, status: 'red' }, true), /status {3}\u001b\[31mred\u001b\[0m/);
  assert.doesNotMatch(renderHealth(yellowHealth, false), /\u001b/);
  assert.match(renderHealth({ ...yellowHealth, timed_out: true }, false), /status {3}yellow \(timed out waiting\)/);
});

test('health summary says ? for a missing counter rather than inventing 0, and shows pending tasks', () => {
  const { relocating_shards: _dropped, ...partial } = yellowHealth;
  assert.match(renderHealth(partial, false), /, \? relocating,/);
  assert.match(
    renderHealth({ ...yellowHealth, number_of_pending_tasks: 4, task_max_waiting_in_queue_millis: 1500 }, false),
    /pending +4 cluster tasks, oldest waiting 1.5s/,
  );
  assert.match(renderHealth({ ...yellowHealth, unassigned_primary_shards: 1, delayed_unassigned_shards: 1 }, false), /2 unassigned \(1 primary, 1 delayed\)/);
});

test('--level indices adds a table with the worst indices first', () => {
  const text = renderHealth(
    {
      ...yellowHealth,
      indices: {
        'b-ok': { status: 'green', number_of_shards: 1, number_of_replicas: 0, active_primary_shards: 1, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 0 },
        'a-ok': { status: 'green', number_of_shards: 1, number_of_replicas: 0, active_primary_shards: 1, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 0 },
        broken: { status: 'red', number_of_shards: 2, number_of_replicas: 1, active_primary_shards: 1, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 3 },
        half: { status: 'yellow', number_of_shards: 1, number_of_replicas: 1, active_primary_shards: 1, active_shards: 1, relocating_shards: 0, initializing_shards: 0, unassigned_shards: 1 },
      },
    },
    false,
  );
  const table = text.split('\n\n')[1]!.trimEnd().split('\n');
  assert.match(table[0]!, /^index +status +pri +rep +active\.pri +active +relocating +initializing +unassigned$/);
  assert.deepEqual(
    table.slice(1).map((line) => line.split(/\s+/)[0]),
    ['broken', 'half', 'a-ok', 'b-ok'],
  );
  assert.match(table[1]!, /^broken +red +2 +1 +1 +1 +0 +0 +3$/);
});

test('nodes table: sorted by name, percentages marked, disk in human units, master marker kept', () => {
  const text = renderNodesTable([
    { name: 'node-b', id: 'bbbb', ip: '10.0.0.2', 'node.role': 'dim', master: '-', 'heap.percent': '7', 'ram.percent': '99', cpu: '3', load_1m: '0.50', load_5m: '0.40', load_15m: '0.30', 'disk.used_percent': '46.23', 'disk.avail': '53687091200', 'disk.total': '107374182400' },
    { name: 'node-a', id: 'aaaa', ip: '10.0.0.1', 'node.role': 'cdfhilmrstw', master: '*', 'heap.percent': '42', 'ram.percent': '80', cpu: '12', load_1m: '1.25', load_5m: null, load_15m: null, 'disk.used_percent': '5.00', 'disk.avail': '1023', 'disk.total': '2048' },
  ]);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'name    id    ip        role         master  heap  ram  cpu  load_1m  load_5m  load_15m    disk  disk.avail  disk.total');
  assert.equal(lines[1], 'node-a  aaaa  10.0.0.1  cdfhilmrstw  *        42%  80%  12%     1.25                      5.00%       1023b         2kb');
  assert.equal(lines[2], 'node-b  bbbb  10.0.0.2  dim          -         7%  99%   3%     0.50     0.40      0.30  46.23%        50gb       100gb');
});

test('allocation table: human sizes, UNASSIGNED row last with blank cells', () => {
  const text = renderAllocationTable([
    { shards: '3', node: 'UNASSIGNED', 'disk.indices': null, 'disk.used': null, 'disk.avail': null, 'disk.total': null, 'disk.percent': null, host: null, ip: null, 'node.role': null },
    { shards: '12', node: 'n2', 'disk.indices': '270', 'disk.used': '50787547955', 'disk.avail': '56586634445', 'disk.total': '107374182400', 'disk.percent': '47', host: '10.0.0.2', ip: '10.0.0.2', 'node.role': 'dim' },
    { shards: '11', node: 'n1', 'disk.indices': '1572864', 'disk.used': '1', 'disk.avail': '2', 'disk.total': '3', 'disk.percent': '33', host: 'h1', ip: '10.0.0.1', 'node.role': 'm' },
  ]);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines[0], 'node        shards  disk.indices  disk.used  disk.avail  disk.total  disk  host      ip        role');
  assert.equal(lines[1], 'n1              11         1.5mb         1b          2b          3b   33%  h1        10.0.0.1  m');
  assert.equal(lines[2], 'n2              12          270b     47.2gb      52.7gb       100gb   47%  10.0.0.2  10.0.0.2  dim');
  assert.equal(lines[3], 'UNASSIGNED       3');
});

test('cat cells that are not plain byte counts are shown as the node sent them', () => {
  const text = renderAllocationTable([{ shards: '1', node: 'n1', 'disk.indices': '260b', 'disk.used': '47.3gb' }]);
  assert.match(text, /n1 +1 +260b +47\.3gb/);
});
