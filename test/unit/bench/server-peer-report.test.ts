/**
 * The server-to-server report: rows with the same case are compared with each other (Gannet against each peer),
 * in-process peers without a case are compared within every case, counts are shown but never turned into ratios,
 * and a skipped peer is a line that says why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable, type TrackResult } from '../../../bench/lib/report.js';
import { jsonDifferences } from '../../../bench/answers/compare-answers.js';

function result(rows: TrackResult['results']): TrackResult {
  return { track: 't', commit: 'c', command: 'x', date: 'd', machine: { cpus: 2, model: 'm', node: 'v' }, runs: 1, higherIsBetter: ['qps'], results: rows };
}

test('ratios pair rows by case; rows without a case join every case; counts are not ratios', () => {
  const table = renderTable(
    result([
      { engine: 'gannet (HTTP)', case: '1 client', metrics: { qps: 200, p99_ms: 5, requests: 10 } },
      { engine: 'opensearch 2.19.6 (HTTP)', case: '1 client', metrics: { qps: 100, p99_ms: 10, requests: 10 } },
      { engine: 'gannet (HTTP)', case: '8 clients', metrics: { qps: 300 } },
      { engine: 'opensearch 2.19.6 (HTTP)', case: '8 clients', metrics: { qps: 600 } },
      { engine: 'lucene 8 (in process)', metrics: { qps: 1000 } },
    ]),
  );
  assert.match(table, /1 client: vs opensearch 2\.19\.6 \(HTTP\): qps 2\.00x, p99_ms 2\.00x\n/);
  assert.match(table, /8 clients: vs opensearch 2\.19\.6 \(HTTP\): qps 0\.50x\n/);
  assert.match(table, /1 client: vs lucene 8 \(in process\): qps 0\.20x/);
  assert.match(table, /8 clients: vs lucene 8 \(in process\): qps 0\.30x/);
  assert.doesNotMatch(table, /requests 1\.00x/);
});

test('a skipped peer is listed with its reason; zero values have no ratio', () => {
  const table = renderTable(
    result([
      { engine: 'gannet', case: 'cancel', metrics: { last_write_ms: 0, qps: 1 } },
      { engine: 'opensearch 2.19.6', case: 'cancel', metrics: { last_write_ms: 5, qps: 2 } },
      { engine: 'opensearch 2.19.6', metrics: {}, unavailable: 'skipped: Maven could not fetch OpenSearch 2.19.6 from Maven Central: Unknown host' },
    ]),
  );
  assert.match(table, /^opensearch 2\.19\.6  unavailable: skipped: Maven could not fetch/m);
  assert.match(table, /cancel: vs opensearch 2\.19\.6: qps 0\.50x$/m);
});

test('answer differences: keys on one side, other types, other values; per-run values and node-id keys are not differences', () => {
  const gannet = { status: 'green', took: 3, unassigned_primary_shards: 0, nodes: { AAAAAAAAAAAAAAAAAAAAAA: { roles: ['data'], name: 'a' } } };
  const peer = { status: 'yellow', took: 9, discovered_master: true, nodes: { BBBBBBBBBBBBBBBBBBBBBB: { roles: 'data', name: 'b' } } };
  assert.deepEqual(jsonDifferences(gannet, peer, 'os'), [
    '`(body)`: only gannet has `unassigned_primary_shards`',
    '`(body)`: only os has `discovered_master`',
    '`status`: gannet "green", os "yellow"',
    '`nodes.<node 0>.roles`: gannet array ["data"], os string "data"',
  ]);
  // A running task's progress counters depend on timing; its rate does not.
  assert.deepEqual(jsonDifferences({ task: { status: { created: 2, requests_per_second: 1 } } }, { task: { status: { created: 1, requests_per_second: -1 } } }, 'os'), [
    '`task.status.requests_per_second`: gannet 1, os -1',
  ]);
});
