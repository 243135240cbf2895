/**
 * `_cat/allocation` against a real node: ES's YAML checklist (rest-api-spec cat.allocation/10_basic.yml,
 * with the 13 columns of ES 8.16+), formats, errors, node selectors, and figures checked against the file
 * system the node's data path lives on.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'asserts the one row of a one-node cluster (three-node rows: test/cluster/three-nodes)', settings: { 'node.name': 'alloc-node' } });
});
after(async () => {
  await node.stop();
});

const BYTES = String.raw`\d+(\.\d+)?[kmgtp]?b`;
const HEADER =
  'shards shards.undesired write_load.forecast disk.indices.forecast disk.indices disk.used disk.avail disk.total disk.percent host ip node node.role';
/** One node row: shards, undesired, write-load forecast, disk forecast, indices, used, avail, total, percent, host, ip, name, roles. */
const NODE_ROW = String.raw`\s*\d+\s+\d+\s+\d+\.\d+\s+${BYTES}\s+${BYTES}\s+${BYTES}\s+${BYTES}\s+${BYTES}\s+\d+\s+[-\w.]+\s+\d+(\.\d+){3}\s+[-\w.]+\s+[cdfhilmrstvw]+\n`;

async function cat(path: string) {
  const res = await node.request('GET', path);
  return res;
}

test('help lists every column in order, each followed by aliases and a description', async () => {
  const res = await cat('/_cat/allocation?help');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
  const names = res.text.split('\n').filter(Boolean).map((line) => line.split(' ')[0]);
  assert.deepEqual(names, HEADER.split(' '));
  assert.match(res.text, /^shards {16}\| s {23}\| number of shards on node {48}\n/);
  assert.match(res.text, /\ndisk\.indices {10}\| di,diskIndices {10}\| disk used by ES indices {49}\n/);
  assert.match(res.text, /\nip {20}\| {25}\| ip of node {62}\n/);
  assert.match(res.text, /\nnode\.role {13}\| r,role,nodeRole {9}\| node roles {62}\n$/);
  const help = await cat('/_cat/allocation?help=true&format=json');
  assert.equal(help.text, res.text, 'help ignores format');
});

test('no parameters: one row per data node, right-aligned numbers', async () => {
  const res = await cat('/_cat/allocation');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
  assert.match(res.text, new RegExp(`^(${NODE_ROW})+(\\s*\\d+\\s+UNASSIGNED\\s*\\n)?$`));
  assert.match(res.text, /alloc-node/);
});

test('v=true: the 8.19 header line, then rows', async () => {
  const res = await cat('/_cat/allocation?v=true');
  const [header, ...rows] = res.text.split('\n');
  assert.equal(header!.split(/\s+/).join(' '), HEADER);
  assert.match(rows.join('\n'), new RegExp(`^(${NODE_ROW})+$`));
  const bare = await cat('/_cat/allocation?v');
  assert.equal(bare.text.split('\n')[0], header, 'a bare ?v means true');
});

test('node_id selectors: _master, _local, *, a name, an id, a non-existent node', async () => {
  for (const selector of ['_master', '_local', '*', 'alloc-node', node.nodeId, 'data:true', 'alloc-*']) {
    const res = await cat(`/_cat/allocation/${encodeURIComponent(selector)}`);
    assert.equal(res.status, 200, selector);
    assert.match(res.text, new RegExp(`^${NODE_ROW}$`), selector);
  }
  for (const selector of ['non_existent', 'master:false', 'data:false']) {
    const res = await cat(`/_cat/allocation/${encodeURIComponent(selector)}`);
    assert.equal(res.status, 200, selector);
    assert.equal(res.text, '', `${selector} gives an empty body`);
  }
  const header = await cat('/_cat/allocation/non_existent?v');
  assert.equal(header.text.split(/\s+/).join(' ').trim(), HEADER, 'with v, only the header');
});

test('h=disk.percent,node: percent right-aligned under its header', async () => {
  const plain = await cat('/_cat/allocation?h=disk.percent,node&v=false');
  assert.match(plain.text, /^(\d* +[-\w.]+\n)+$/);
  const verbose = await cat('/_cat/allocation?h=disk.percent,node&v=true');
  assert.match(verbose.text, /^disk\.percent\s+node\n(\s+\d*\s+[-\w.]+\n)+$/);
  const aliases = await cat('/_cat/allocation?h=dp,n,r&v');
  assert.match(aliases.text, /^\s*dp n\s+r\n\s*\d+ alloc-node [cdfhilmrstvw]+\n$/);
});

test('bytes=gb prints whole numbers, and disk.indices is 0 with no index data', async () => {
  const res = await cat('/_cat/allocation?bytes=gb');
  assert.match(res.text, /^(\d+\s+0\s+0\.0\s+0\s+0\s+\d+\s+\d+\s+\d+\s+\d+\s+[-\w.]+\s+\d+(\.\d+){3}\s+[-\w.]+\s+\w+\n)+$/);
});

test('h=node,node.role', async () => {
  const res = await cat('/_cat/allocation?h=node,node.role');
  assert.match(res.text, /^([-\w.]+\s+\w+\n)+$/);
});

test('disk figures are the data path file system: total from statfs, used = total - available', async () => {
  // The node's figures are up to a second old and the disk is shared (the other test file running beside this one,
  // other processes on a CI host): its free space can move by more than 64 MB between the node's statfs and this
  // one. Asked again (past the node's 1 s cache) until a reading falls within 64 MB of a statfs taken just after it;
  // a node reporting another file system never does.
  let row: Record<string, string> | undefined;
  let stats = statfsSync(node.dataPath);
  let gap = Number.POSITIVE_INFINITY;
  for (const deadline = Date.now() + 20_000; gap >= 64 * 1024 * 1024 && Date.now() < deadline; ) {
    if (row !== undefined) await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await cat('/_cat/allocation?format=json&bytes=b&h=disk.total,disk.used,disk.avail,disk.percent');
    stats = statfsSync(node.dataPath);
    [row] = res.body as Array<Record<string, string>>;
    gap = Math.abs(Number(row!['disk.avail']) - stats.bavail * stats.bsize);
  }
  assert.equal(Number(row!['disk.total']), stats.blocks * stats.bsize);
  assert.equal(Number(row!['disk.used']), Number(row!['disk.total']) - Number(row!['disk.avail']));
  assert.ok(gap < 64 * 1024 * 1024, `available space matches statfs (within 64mb of churn): ${row!['disk.avail']} vs ${stats.bavail * stats.bsize}`);
  const used = Number(row!['disk.used']);
  assert.equal(Number(row!['disk.percent']), Math.floor((used * 100) / (used + Number(row!['disk.avail']))));
});

test('disk.indices is the store size of the node\'s shards, as _cat/indices reports it', async () => {
  const before = await cat('/_cat/allocation?h=di&bytes=b');
  assert.equal(before.text, '0\n', 'no shards, no store');
  const created = await node.request('PUT', '/disk-test', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } });
  assert.equal(created.status, 200);
  try {
    const lines = Array.from({ length: 200 }, (_, i) => `{"index":{"_id":"${i}"}}\n{"text":"document number ${i} with some words"}\n`).join('');
    const bulk = await node.request('POST', '/disk-test/_bulk?refresh=true', { raw: lines, headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(bulk.status, 200);
    await node.request('POST', '/disk-test/_flush');
    const indices = await cat('/_cat/indices/disk-test?format=json&bytes=b&h=store.size');
    const storeSize = Number((indices.body as Array<Record<string, string>>)[0]!['store.size']);
    assert.ok(storeSize > 0);
    const res = await cat('/_cat/allocation?format=json&bytes=b&h=disk.indices,dif,di');
    assert.deepEqual(res.body, [{ 'disk.indices': String(storeSize), dif: String(storeSize), di: String(storeSize) }]);
  } finally {
    await node.request('DELETE', '/disk-test');
  }
  const after = await cat('/_cat/allocation?h=di&bytes=b');
  assert.equal(after.text, '0\n');
});

test('format=json: an array of objects keyed by column, every value a string', async () => {
  const res = await cat('/_cat/allocation?format=json');
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/json');
  assert.ok(Array.isArray(res.body));
  assert.equal(res.body.length, 1);
  const [row] = res.body as Array<Record<string, unknown>>;
  assert.deepEqual(Object.keys(row!), HEADER.split(' '));
  for (const value of Object.values(row!)) assert.equal(typeof value, 'string');
  assert.equal(row!['node'], 'alloc-node');
  assert.equal(row!['shards'], '0');
  assert.equal(row!['write_load.forecast'], '0.0');
  assert.match(String(row!['disk.total']), new RegExp(`^${BYTES}$`));
  const pretty = await cat('/_cat/allocation?format=json&pretty&h=node');
  assert.equal(pretty.text, '[\n  {\n    "node" : "alloc-node"\n  }\n]\n');
  const filtered = await cat('/_cat/allocation?format=json&filter_path=node');
  assert.deepEqual(filtered.body, [{ node: 'alloc-node' }]);
  const accept = await node.request('GET', '/_cat/allocation?h=node', { headers: { accept: 'application/json' } });
  assert.deepEqual(accept.body, [{ node: 'alloc-node' }]);
  const yaml = await cat('/_cat/allocation?format=yaml&h=node,shards');
  assert.match(yaml.text, /^---\n- node: "?alloc-node"?\n  shards: "0"\n$/);
});

test('s sorts, and an unknown sort key is a 500 unsupported_operation_exception', async () => {
  const sorted = await cat('/_cat/allocation?s=disk.avail:desc,node&h=node');
  assert.equal(sorted.text, 'alloc-node\n');
  const res = await cat('/_cat/allocation?s=nope');
  assert.equal(res.status, 500);
  assert.deepEqual(res.body.error.root_cause, [{ type: 'unsupported_operation_exception', reason: 'Unable to sort by unknown sort key `nope`' }]);
});

test('local and master_timeout are accepted; unknown parameters are ES\'s 400', async () => {
  assert.equal((await cat('/_cat/allocation?local=true&master_timeout=5s')).status, 200);
  assert.equal((await cat('/_cat/allocation/_local?local')).status, 200);
  const unknown = await cat('/_cat/allocation?foo=bar');
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, {
    error: {
      root_cause: [{ type: 'illegal_argument_exception', reason: 'request [/_cat/allocation] contains unrecognized parameter: [foo]' }],
      type: 'illegal_argument_exception',
      reason: 'request [/_cat/allocation] contains unrecognized parameter: [foo]',
    },
    status: 400,
  });
  const typo = await cat('/_cat/allocation?formt=json');
  assert.equal(typo.body.error.reason, 'request [/_cat/allocation] contains unrecognized parameter: [formt] -> did you mean [format]?');
  const badTimeout = await cat('/_cat/allocation?master_timeout=soon');
  assert.equal(badTimeout.status, 400);
  assert.equal(badTimeout.body.error.type, 'illegal_argument_exception');
  const badBool = await cat('/_cat/allocation?v=yes');
  assert.equal(badBool.status, 400);
  assert.equal(badBool.body.error.reason, 'Failed to parse value [yes] as only [true] or [false] are allowed.');
});

test('help with a node selector is refused as ES refuses it (the path parameter goes unread)', async () => {
  const res = await cat('/_cat/allocation/_master?help');
  assert.equal(res.status, 400);
  assert.equal(res.body.error.reason, 'request [/_cat/allocation/_master] contains unrecognized parameter: [nodes]');
  const withLocal = await cat('/_cat/allocation?help&local=true');
  assert.equal(withLocal.status, 400);
  assert.equal(withLocal.body.error.reason, 'request [/_cat/allocation] contains unrecognized parameter: [local]');
});
