/**
 * `GET /_nodes`, `GET /_nodes/stats` and `GET /_cluster/stats` against a real node: ES's path disambiguation
 * (metrics vs node ids), node selectors, field order, the sections' figures checked against the node process
 * and the machine, and ES's messages for unknown metrics.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statfsSync } from 'node:fs';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ oneNode: 'asserts a one-node _nodes and _cluster/stats (several nodes: test/cluster/three-nodes, compat/nodes-clients)', settings: { 'node.name': 'stats-node', 'cluster.name': 'nodes-apis', 'node.attr.zone': 'z1' } });
  assert.equal((await node.request('PUT', '/books', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 } } })).status, 200);
  assert.equal((await node.request('PUT', '/books/_doc/1?refresh=true', { body: { title: 'one' } })).status, 201);
  assert.equal((await node.request('PUT', '/books/_doc/2?refresh=true', { body: { title: 'two' } })).status, 201);
});
after(async () => {
  await node.stop();
});

const get = (path: string) => node.request('GET', path);

function onlyNode(body: { nodes: Record<string, Record<string, any>> }): [string, Record<string, any>] {
  const entries = Object.entries(body.nodes);
  assert.equal(entries.length, 1);
  return entries[0]!;
}

test('GET /_nodes: header, identity in ES order, every section this node can fill', async () => {
  const res = await get('/_nodes');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body._nodes, { total: 1, successful: 1, failed: 0 });
  assert.equal(res.body.cluster_name, 'nodes-apis');
  const [id, info] = onlyNode(res.body);
  assert.match(id, /^[\w-]{22}$/);
  assert.deepEqual(Object.keys(info), [
    'name', 'transport_address', 'host', 'ip', 'version', 'build_flavor', 'build_type', 'build_hash', 'roles', 'attributes', 'settings',
    'os', 'process', 'jvm', 'transport', 'http', 'plugins', 'modules', 'ingest',
  ]);
  assert.equal(info.name, 'stats-node');
  assert.deepEqual(info.attributes, { zone: 'z1' });
  assert.equal(info.settings.cluster.name, 'nodes-apis');
  assert.equal(info.settings.node.attr.zone, 'z1');
  assert.equal(info.http.publish_address, `127.0.0.1:${node.port}`);
  assert.deepEqual(info.http.bound_address, [`127.0.0.1:${node.port}`]);
  assert.equal(info.http.max_content_length_in_bytes, 100 * 1024 * 1024);
  assert.equal(info.transport.publish_address, info.transport_address);
  assert.equal(info.process.id, node.child.pid);
  assert.equal(info.process.mlockall, false);
});

test('jvm tells the truth about the runtime: V8, Node.js, the process flags', async () => {
  const [, info] = onlyNode((await get('/_nodes/jvm')).body);
  const jvm = info.jvm;
  assert.deepEqual(Object.keys(jvm), [
    'pid', 'version', 'vm_name', 'vm_version', 'vm_vendor', 'using_bundled_jdk', 'start_time_in_millis', 'mem', 'gc_collectors', 'memory_pools',
    'using_compressed_ordinary_object_pointers', 'input_arguments',
  ]);
  assert.equal(jvm.vm_name, 'V8');
  assert.match(jvm.version, /^\d+\.\d+\.\d+$/);
  assert.equal(jvm.pid, node.child.pid);
  assert.ok(Array.isArray(jvm.input_arguments));
  assert.ok(jvm.input_arguments.every((arg: unknown) => typeof arg === 'string'));
  assert.ok(jvm.mem.heap_max_in_bytes > jvm.mem.heap_init_in_bytes && jvm.mem.heap_init_in_bytes > 0);
  assert.ok(jvm.memory_pools.includes('old_space'));
});

test('/_nodes/{x}: metric names select sections, anything else selects nodes', async () => {
  const [, osOnly] = onlyNode((await get('/_nodes/os,jvm')).body);
  assert.ok('os' in osOnly && 'jvm' in osOnly && !('settings' in osOnly) && !('http' in osOnly));
  const local = (await get('/_nodes/_local')).body;
  assert.ok('settings' in onlyNode(local)[1], '_local is a node selector: every section');
  // Unknown metrics after a node id are ignored, as ES ignores them.
  const [, bare] = onlyNode((await get('/_nodes/_local/foo')).body);
  assert.ok(!('os' in bare) && bare.name === 'stats-node');
  const [, viaInfo] = onlyNode((await get('/_nodes/_all/info/http')).body);
  assert.ok('http' in viaInfo && !('os' in viaInfo));
  const none = (await get('/_nodes/no-such-node')).body;
  assert.deepEqual(none._nodes, { total: 0, successful: 0, failed: 0 });
  assert.deepEqual(none.nodes, {});
});

test('node selectors: ids, names, roles, attributes, _master', async () => {
  const [id] = onlyNode((await get('/_nodes/_local/none')).body);
  for (const selector of [id, 'stats-node', 'stats-*', '_master', 'master:true', 'zone:z1', '_all', '_local,_master']) {
    const res = await get(`/_nodes/${selector}/process`);
    assert.equal(Object.keys(res.body.nodes).length, 1, selector);
  }
  assert.equal(Object.keys((await get('/_nodes/master:false/process')).body.nodes).length, 0);
  assert.equal(Object.keys((await get('/_nodes/zone:z2/process')).body.nodes).length, 0);
});

test('human=true adds the readable twins before the raw fields; flat_settings flattens', async () => {
  const [, info] = onlyNode((await get('/_nodes/_local/jvm,http,os,settings?human=true&flat_settings=true')).body);
  assert.deepEqual(Object.keys(info.jvm.mem).slice(0, 2), ['heap_init', 'heap_init_in_bytes']);
  assert.match(info.jvm.mem.heap_max, /^\d+(\.\d)?[kmg]?b$/);
  assert.equal(info.http.max_content_length, '100mb');
  assert.equal(info.os.refresh_interval, '1s');
  assert.equal(info.settings['node.name'], 'stats-node');
  assert.equal(info.settings['cluster.name'], 'nodes-apis');
});

test('filter_path as Kibana and Curator use it', async () => {
  const res = await get('/_nodes?filter_path=nodes.*.version,nodes.*.http.publish_address,nodes.*.ip,nodes.*.roles');
  const [, info] = onlyNode(res.body);
  assert.deepEqual(Object.keys(res.body), ['nodes']);
  assert.deepEqual(Object.keys(info).sort(), ['http', 'ip', 'roles', 'version']);
  assert.equal(info.version, '8.19.2');
});

test('GET /_nodes/stats: identity, then sections in NodeStats order, with real figures', async () => {
  const res = await get('/_nodes/stats');
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body._nodes, { total: 1, successful: 1, failed: 0 });
  const [, stats] = onlyNode(res.body);
  assert.deepEqual(Object.keys(stats), [
    'timestamp', 'name', 'transport_address', 'host', 'ip', 'roles', 'attributes', 'indices', 'os', 'process', 'jvm', 'thread_pool', 'fs',
    'breakers', 'ingest', 'adaptive_selection',
  ]);
  assert.equal(stats.ip, stats.transport_address, 'NodeStats prints the address as ip');
  assert.equal(stats.indices.docs.count, 2);
  assert.equal(stats.indices.shard_stats.total_count, 2);
  assert.ok(stats.indices.indexing.index_total >= 2);
  assert.ok(stats.os.mem.total_in_bytes > 0 && stats.os.mem.used_percent >= 0 && stats.os.mem.used_percent <= 100);
  assert.ok(stats.process.open_file_descriptors > 0);
  assert.ok(stats.jvm.mem.heap_used_in_bytes > 0 && stats.jvm.mem.heap_used_in_bytes <= stats.jvm.mem.heap_max_in_bytes);
  assert.ok(stats.jvm.mem.heap_used_percent >= 0 && stats.jvm.mem.heap_used_percent <= 100);
  assert.equal(typeof stats.jvm.gc.collectors.old.collection_count, 'number');
  const fs = statfsSync(stats.fs.data[0].path);
  assert.equal(stats.fs.total.total_in_bytes, fs.blocks * fs.bsize);
  assert.equal(stats.fs.data.length, 1);
});

test('/_nodes/_local/stats/{metric}/{index_metric} and level', async () => {
  const [, only] = onlyNode((await get('/_nodes/_local/stats/jvm,fs,os,process?human=true')).body);
  assert.deepEqual(Object.keys(only).slice(7), ['os', 'process', 'jvm', 'fs']);
  assert.equal(typeof only.jvm.mem.heap_used, 'string');
  const [, docsOnly] = onlyNode((await get('/_nodes/stats/indices/docs,store')).body);
  assert.deepEqual(Object.keys(docsOnly.indices), ['docs', 'store']);
  const [, byIndex] = onlyNode((await get('/_nodes/stats/indices/docs?level=indices')).body);
  assert.equal(byIndex.indices.indices.books.docs.count, 2);
  const [, byShard] = onlyNode((await get('/_nodes/stats/indices/docs?level=shards')).body);
  assert.equal(byShard.indices.shards.books.length, 2);
  assert.equal(byShard.indices.shards.books[0]['0'].routing.primary, true);
});

test('ES messages for unknown or conflicting metrics and levels', async () => {
  const cases: Array<[string, string]> = [
    ['/_nodes/stats/foo', 'request [/_nodes/stats/foo] contains unrecognized metric: [foo]'],
    ['/_nodes/stats/os,transprot,unrecognized', 'request [/_nodes/stats/os,transprot,unrecognized] contains unrecognized metrics: [transprot] -> did you mean [transport]?, [unrecognized]'],
    ['/_nodes/stats/indices/stroe', 'request [/_nodes/stats/indices/stroe] contains unrecognized index metric: [stroe] -> did you mean [store]?'],
    ['/_nodes/stats/_all,os', 'request [/_nodes/stats/_all,os] contains _all and individual metrics [_all,os]'],
    ['/_nodes/stats/_all/docs', 'request [/_nodes/stats/_all/docs] contains index metrics [docs] but all stats requested'],
    ['/_nodes/stats/os/docs', 'request [/_nodes/stats/os/docs] contains index metrics [docs] but indices stats not requested'],
    ['/_nodes/stats?level=cluster', 'level parameter must be one of [node] or [indices] or [shards] but was [cluster]'],
  ];
  for (const [path, reason] of cases) {
    const res = await get(path);
    assert.equal(res.status, 400, path);
    assert.equal(res.body.error.type, 'illegal_argument_exception');
    assert.equal(res.body.error.reason, reason);
  }
  const unknownParam = await get('/_nodes/stats?bogus=1');
  assert.equal(unknownParam.status, 400);
  assert.match(unknownParam.body.error.reason, /contains unrecognized parameter: \[bogus\]/);
});

test('GET /_cluster/stats: what elasticvue and ElasticHQ read, in ClusterStatsResponse order', async () => {
  const res = await get('/_cluster/stats');
  assert.equal(res.status, 200, res.text);
  const body = res.body;
  assert.deepEqual(Object.keys(body), ['_nodes', 'cluster_name', 'cluster_uuid', 'timestamp', 'status', 'indices', 'nodes']);
  assert.equal(body.cluster_name, 'nodes-apis');
  assert.equal(body.cluster_uuid, (await get('/')).body.cluster_uuid);
  assert.equal(body.status, 'green');
  assert.equal(body.indices.count, 1);
  assert.equal(body.indices.shards.total, 2);
  assert.equal(body.indices.shards.primaries, 2);
  assert.equal(body.indices.docs.count, 2);
  assert.ok(body.indices.store.size_in_bytes > 0);
  assert.equal(body.nodes.count.total, 1);
  assert.equal(body.nodes.count.master, 1);
  assert.equal(body.nodes.count.data, 1);
  assert.equal(body.nodes.count.coordinating_only, 0);
  assert.deepEqual(body.nodes.versions, ['8.19.2']);
  assert.ok(body.nodes.fs.total_in_bytes > 0);
  assert.ok(body.nodes.jvm.mem.heap_max_in_bytes > 0);
  const [id] = onlyNode((await get('/_nodes/_local/none')).body);
  const scoped = await get(`/_cluster/stats/nodes/${id}`);
  assert.equal(scoped.body._nodes.total, 1);
  const noNodes = await get('/_cluster/stats/nodes/nobody');
  assert.equal(noNodes.body._nodes.total, 0);
  assert.equal(noNodes.body.indices.count, 0);
  assert.deepEqual(noNodes.body.indices.shards, {});
});
