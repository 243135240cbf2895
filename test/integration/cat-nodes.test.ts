/**
 * `_cat/nodes` (and `GET /_cat`) against a real node: ES's YAML checklist (rest-api-spec
 * cat.nodes/10_basic.yml), formats, errors, and figures checked against the node process and the machine.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { NODE_RUNTIME_OPTIONS, NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'asserts the one row of a one-node cluster (three-node rows: test/cluster/three-nodes)', settings: { 'node.name': 'nodes-node' } });
});
after(async () => {
  await node.stop();
});

const DEFAULT_HEADER = 'ip heap.percent ram.percent cpu load_1m load_5m load_15m node.role master name';
/** The YAML test's row regex for the default columns. */
const DEFAULT_ROW = String.raw`((\d{1,3}\.){3}\d{1,3}\s+\d+\s+\d*\s+(-)?\d*\s+((-)?\d*(\.\d+)?)?\s+((-)?\d*(\.\d+)?)?\s+((-)?\d*(\.\d+)?)?\s+(-|[cdfhilmrstvwIS]{1,11})\s+[-*x]\s+.*\n)+`;
const BYTES = String.raw`\d+(\.\d+)?[ptgmk]?b`;

const cat = (path: string) => node.request('GET', path);

async function jsonRow(query: string): Promise<Record<string, string | null>> {
  const res = await cat(`/_cat/nodes?format=json&${query}`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.length, 1);
  return res.body[0];
}

test('GET /_cat lists the cat endpoints this node serves after =^.^=', async () => {
  const res = await cat('/_cat');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
  const [first, ...paths] = res.text.split('\n');
  assert.equal(first, '=^.^=');
  assert.equal(paths.pop(), '', 'every line ends with a line feed');
  assert.ok(paths.includes('/_cat/allocation'));
  assert.ok(paths.includes('/_cat/nodes'));
  assert.ok(paths.indexOf('/_cat/allocation') < paths.indexOf('/_cat/nodes'), 'ES registration order');
  for (const path of paths.filter((p) => !p.includes('{'))) {
    assert.equal((await cat(path)).status, 200, `${path} is served`);
  }
});

test('no parameters: the ten default cells', async () => {
  const res = await cat('/_cat/nodes');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
  assert.match(res.text, new RegExp(`^${DEFAULT_ROW}$`));
  assert.match(res.text, /^127\.0\.0\.1 +\d+ +\d+ +\d+ +\d+\.\d\d +\d+\.\d\d +\d+\.\d\d cdfhilmrstw \* nodes-node\n$/);
});

test('v=true: the default header line', async () => {
  const res = await cat('/_cat/nodes?v=true');
  const [header, ...rest] = res.text.split('\n');
  assert.equal(header!.trim().split(/\s+/).join(' '), DEFAULT_HEADER);
  assert.match(rest.join('\n'), new RegExp(`^${DEFAULT_ROW}$`));
});

test('h=heap.current,heap.percent,heap.max and h=heap.* print the same right-aligned table', async () => {
  const listed = await cat('/_cat/nodes?h=heap.current,heap.percent,heap.max&v=true');
  assert.match(listed.text, new RegExp(`^heap\\.current\\s+heap\\.percent\\s+heap\\.max\\n(\\s+${BYTES}\\s+\\d+\\s+${BYTES}\\n)+$`));
  const wildcard = await cat('/_cat/nodes?h=heap.*&v=true');
  assert.match(wildcard.text, new RegExp(`^heap\\.current\\s+heap\\.percent\\s+heap\\.max\\n(\\s+${BYTES}\\s+\\d+\\s+${BYTES}\\n)+$`));
});

test('file descriptors', async () => {
  const res = await cat('/_cat/nodes?h=file_desc.current,file_desc.percent,file_desc.max&v=true');
  assert.match(res.text, /^file_desc\.current\s+file_desc\.percent\s+file_desc\.max\n(\s+(-1|\d+)\s+\d+\s+(-1|\d+)\n)+$/);
});

test('h=http: the HTTP publish address this test is talking to', async () => {
  const res = await cat('/_cat/nodes?h=http&v=true');
  assert.match(res.text, /^http\n((\d{1,3}\.){3}\d{1,3}:\d{1,5}\n)+$/);
  assert.equal(res.text, `http\n127.0.0.1:${node.port}\n`);
});

test('disk columns by camelCase aliases and by short aliases echo the names typed', async () => {
  const camel = await cat('/_cat/nodes?h=diskAvail,diskTotal,diskUsed,diskUsedPercent&v=true');
  assert.match(camel.text, new RegExp(`^\\s*diskAvail\\s+diskTotal\\s+diskUsed\\s+diskUsedPercent\\n(\\s*${BYTES}\\s+${BYTES}\\s+${BYTES}\\s+(100\\.00|\\d{1,2}\\.\\d{2})\\n)+$`));
  const short = await cat('/_cat/nodes?h=disk,dt,du,dup&v=true');
  assert.match(short.text, new RegExp(`^\\s*disk\\s+dt\\s+du\\s+dup\\n(\\s*${BYTES}\\s+${BYTES}\\s+${BYTES}\\s+(100\\.00|\\d{1,2}\\.\\d{2})\\n)+$`));
});

test('h=id gives 4 characters, full_id the whole node id', async () => {
  const short = await cat('/_cat/nodes?h=id');
  assert.match(short.text, /^(\S{4}\n)+$/);
  assert.equal(short.text, `${node.nodeId.slice(0, 4)}\n`);
  const full = await cat('/_cat/nodes?h=id&full_id=true');
  assert.match(full.text, /^(\S{5,}\n)+$/);
  assert.equal(full.text, `${node.nodeId}\n`);
});

test('figures are the node process and machine: pid, heap limit, RAM, file system, file descriptors', async () => {
  const row = await jsonRow('bytes=b&time=ms&h=pid,heap.max,heap.current,heap.percent,ram.max,disk.total,file_desc.max,uptime,port,version,name,master');
  assert.equal(row['pid'], String(node.child.pid));
  // Started with the node's runtime options (config/node.options): the young generation's size is part of the limit.
  const heapLimit = execFileSync(process.execPath, [...NODE_RUNTIME_OPTIONS, '-e', "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))"]).toString();
  assert.equal(row['heap.max'], heapLimit, 'heap.max is the V8 heap limit of a node process');
  const heapUsed = Number(row['heap.current']);
  assert.ok(heapUsed > 0 && heapUsed < Number(heapLimit));
  assert.equal(Number(row['heap.percent']), Math.round((heapUsed * 100) / Number(heapLimit)));
  assert.equal(row['ram.max'], String(totalmem()));
  const fs = statfsSync(node.dataPath);
  assert.equal(row['disk.total'], String(fs.blocks * fs.bsize));
  const limits = readFileSync(`/proc/${node.child.pid}/limits`, 'utf8');
  assert.equal(row['file_desc.max'], /Max open files\s+(\d+)/.exec(limits)![1]);
  assert.ok(Number(row['uptime']) > 0 && Number(row['uptime']) < 10 * 60_000, 'uptime in ms since the node started');
  assert.match(row['port']!, /^\d+$/);
  assert.equal(row['version'], '8.19.2');
  assert.equal(row['name'], 'nodes-node');
  assert.equal(row['master'], '*');
});

test('load averages are the OS ones with two decimals, cpu a whole percent', async () => {
  const row = await jsonRow('h=load_1m,load_5m,load_15m,cpu,ram.percent');
  for (const key of ['load_1m', 'load_5m', 'load_15m']) assert.match(row[key]!, /^\d+\.\d\d$/);
  assert.match(row['cpu']!, /^\d{1,3}$/);
  assert.ok(Number(row['ram.percent']) > 0 && Number(row['ram.percent']) <= 100);
});

test('statistics Gannet does not have yet are zero for a node with no indices', async () => {
  const row = await jsonRow(
    'h=shard_stats.total_count,fielddata.memory_size,query_cache.hit_count,indexing.index_total,search.query_time,segments.count,segments.memory,merges.total_size,flush.total_time,bulk.total_size_in_bytes,mappings.total_count',
  );
  assert.deepEqual(row, {
    'shard_stats.total_count': '0',
    'fielddata.memory_size': '0b',
    'query_cache.hit_count': '0',
    'indexing.index_total': '0',
    'search.query_time': '0s',
    'segments.count': '0',
    'segments.memory': '0b',
    'merges.total_size': '0b',
    'flush.total_time': '0s',
    'bulk.total_size_in_bytes': '0',
    'mappings.total_count': '0',
  });
});

test('format=json: default columns as keys, values strings', async () => {
  const res = await cat('/_cat/nodes?format=json');
  assert.equal(res.headers['content-type'], 'application/json');
  const [row] = res.body as Array<Record<string, unknown>>;
  assert.deepEqual(Object.keys(row!), DEFAULT_HEADER.split(' '));
  for (const value of Object.values(row!)) assert.equal(typeof value, 'string');
  const aliases = await jsonRow('h=hp,l,m,n');
  assert.deepEqual(Object.keys(aliases), ['hp', 'l', 'm', 'n']);
  assert.equal(aliases['n'], 'nodes-node');
});

test('help lists every column with aliases; the default ones and ES\'s stats columns are there', async () => {
  const res = await cat('/_cat/nodes?help');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
  const lines = res.text.split('\n').filter(Boolean);
  const names = lines.map((line) => line.split(' ')[0]);
  assert.equal(names[0], 'id');
  assert.ok(names.indexOf('ip') < names.indexOf('heap.percent') && names.indexOf('name') < names.indexOf('completion.size'));
  for (const name of DEFAULT_HEADER.split(' ')) assert.ok(names.includes(name), name);
  assert.equal(names.at(-1), 'mappings.total_estimated_overhead_in_bytes');
  assert.ok(lines.every((line) => line.length === lines[0]!.length), 'every part is padded, so all lines have one length');
  assert.match(res.text, /\nheap\.percent +\| hp,heapPercent +\| used heap ratio +\n/);
  assert.match(res.text, /\nload_1m +\| l +\| 1m load avg +\n/);
});

test('sorting, units, and ES\'s errors', async () => {
  assert.equal((await cat('/_cat/nodes?s=name:desc,heap.percent&h=name')).text, 'nodes-node\n');
  const unknownSort = await cat('/_cat/nodes?s=bogus');
  assert.equal(unknownSort.status, 500);
  assert.equal(unknownSort.body.error.type, 'unsupported_operation_exception');
  const local = await cat('/_cat/nodes?local=true');
  assert.equal(local.status, 400);
  assert.equal(local.body.error.reason, 'request [/_cat/nodes] contains unrecognized parameter: [local]');
  const typo = await cat('/_cat/nodes?full_ids=true');
  assert.equal(typo.body.error.reason, 'request [/_cat/nodes] contains unrecognized parameter: [full_ids] -> did you mean [full_id]?');
  assert.equal((await cat('/_cat/nodes?include_unloaded_segments=true&master_timeout=10s&full_id')).status, 200);
  assert.equal((await cat('/_cat/nodes?full_id=maybe')).status, 400);
  const seconds = await jsonRow('h=uptime&time=s');
  assert.match(seconds['uptime']!, /^\d+$/);
});
