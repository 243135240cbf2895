/**
 * Two ops tools' routine call sequences, written from their documented calls (../shared/reference/es-ecosystem.md
 * §2.2 and the tools' sources), against a real node: what Elasticsearch Curator 8 sends to build its index list and
 * run its everyday actions (rollover, replicas, allocation, shrink, force merge, close, alias, reindex, delete), and
 * what the Prometheus elasticsearch_exporter scrapes, with the JSON types its Go structs decode. Each call must
 * answer as the tool expects; a feature Gannet lacks answers an ES error the tool can report.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess, type HttpResult } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'tools-node', 'cluster.name': 'tools', 'node.attr.rack': 'r1' } });
});
after(async () => {
  await node.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<HttpResult> {
  const answer = await node.request(method, path, body === undefined ? {} : { body });
  return answer;
}

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(method, path, body);
  assert.ok(answer.status >= 200 && answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

async function bulk(index: string, count: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify({ index: { _index: index, _id: String(i) } }), JSON.stringify({ n: i, '@timestamp': Date.now() }));
  const answer = await node.request('POST', '/_bulk?refresh=true', { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(answer.body.errors, false, answer.text);
}

test('Curator 8: index list, then rollover, replicas, allocation, shrink, forcemerge, close, alias, reindex, delete', async () => {
  // Setup as an operator's daily indices.
  await ok('PUT', '/logs-000001', { settings: { number_of_shards: 2, number_of_replicas: 1 }, aliases: { logs: { is_write_index: true } } });
  await bulk('logs', 30);
  await ok('PUT', '/metrics-2026.11.01', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
  await bulk('metrics-2026.11.01', 20);

  // The client's product check, then IndexList: names and states, creation dates, sizes, node roles.
  const root = await ok('GET', '/');
  assert.match(root.version.number, /^8\./, 'Curator 8 needs an 8.x server');
  const list = await ok('GET', '/_cat/indices?h=index,status&format=json&expand_wildcards=open,closed');
  assert.deepEqual(list.map((row: { index: string }) => row.index).sort(), ['logs-000001', 'metrics-2026.11.01']);
  assert.ok(list.every((row: { status: string }) => row.status === 'open'));
  const settings = await ok('GET', '/logs-000001,metrics-2026.11.01/_settings?expand_wildcards=open,closed&filter_path=*.settings.index.creation_date,*.settings.index.number_of_shards');
  assert.match(settings['logs-000001'].settings.index.creation_date, /^\d{13}$/);
  const stats = await ok('GET', '/logs-000001,metrics-2026.11.01/_stats/store,docs?filter_path=indices.*.total.store.size_in_bytes,indices.*.total.docs.count');
  assert.equal(stats.indices['metrics-2026.11.01'].total.docs.count, 20);
  const roles = await ok('GET', '/_nodes?filter_path=nodes.*.roles');
  assert.ok((Object.values(roles.nodes)[0] as { roles: string[] }).roles.includes('data_content'));

  // rollover action.
  const rolled = await ok('POST', '/logs/_rollover', { conditions: { max_docs: 10, max_age: '1d' } });
  assert.equal(rolled.rolled_over, true);
  assert.deepEqual(rolled.conditions, { '[max_docs: 10]': true, '[max_age: 1d]': false });
  // replicas action: set, then wait for green.
  await ok('PUT', '/logs-000001/_settings', { index: { number_of_replicas: 0 } });
  assert.equal((await ok('GET', '/_cluster/health/logs-000001?wait_for_status=green&timeout=30s')).status, 'green');
  // allocation action.
  await ok('PUT', '/logs-000001/_settings', { 'index.routing.allocation.require.rack': 'r1' });
  // shrink action: prepare (write block, a node), wait for relocation, check free space, shrink, wait, check recovery.
  await ok('PUT', '/logs-000001/_settings', { 'index.blocks.write': true, 'index.routing.allocation.require._name': 'tools-node' });
  const relocation = await ok('GET', '/_cluster/health?wait_for_no_relocating_shards=true&timeout=30s');
  assert.equal(relocation.relocating_shards, 0);
  const fs = await ok('GET', '/_nodes/stats/fs');
  assert.ok((Object.values(fs.nodes)[0] as any).fs.total.available_in_bytes > 0);
  const shrunk = await ok('POST', '/logs-000001/_shrink/logs-000001-shrink', {
    settings: { 'index.number_of_shards': 1, 'index.routing.allocation.require._name': null, 'index.blocks.write': null },
  });
  assert.equal(shrunk.acknowledged, true);
  assert.equal((await ok('GET', '/_cluster/health/logs-000001-shrink?wait_for_status=green&timeout=30s')).status, 'green');
  const recovery = await ok('GET', '/logs-000001-shrink/_recovery');
  assert.ok(recovery['logs-000001-shrink'].shards.every((shard: { stage: string }) => shard.stage === 'DONE'));
  assert.equal((await ok('GET', '/logs-000001-shrink/_count')).count, 30);
  // forcemerge, close, alias actions.
  await ok('POST', '/metrics-2026.11.01/_forcemerge?max_num_segments=1');
  const segments = await ok('GET', '/metrics-2026.11.01/_segments');
  for (const copies of Object.values(segments.indices['metrics-2026.11.01'].shards) as any[]) assert.ok(Object.keys(copies[0].segments).length <= 1);
  await ok('POST', '/_aliases', { actions: [{ add: { index: 'metrics-2026.11.01', alias: 'metrics' } }, { remove: { index: 'logs-000001', alias: 'logs' } }] });
  await ok('POST', '/logs-000001/_close?ignore_unavailable=true');
  assert.equal((await ok('GET', '/_cat/indices/logs-000001?h=status&format=json&expand_wildcards=open,closed'))[0].status, 'close');
  // reindex action, waited on through the tasks API as Curator does.
  const started = await ok('POST', '/_reindex?wait_for_completion=false', { source: { index: 'metrics-2026.11.01' }, dest: { index: 'metrics-copy' } });
  let record: any;
  for (let attempt = 0; attempt < 200; attempt++) {
    record = await ok('GET', `/_tasks/${started.task}`);
    if (record.completed) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(record.completed, true);
  assert.equal(record.task.action, 'indices:data/write/reindex');
  assert.equal(typeof record.task.running_time_in_nanos, 'number');
  assert.equal(record.task.description, 'reindex from [metrics-2026.11.01] to [metrics-copy]');
  // snapshot action: Gannet has none; the error is one Curator can print.
  const snapshot = await call('PUT', '/_snapshot/backups/curator-snap?wait_for_completion=false', { indices: 'metrics-*' });
  assert.equal(snapshot.status, 501);
  assert.match(snapshot.body.error.reason, /^snapshot and restore: not available in Gannet/);
  // delete_indices action.
  await ok('DELETE', '/metrics-copy,logs-000001-shrink');
  assert.equal((await call('HEAD', '/metrics-copy')).status, 404);
});

function isInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value);
}

/** What blang/semver's strict parse accepts: MAJOR.MINOR.PATCH with optional pre-release and build. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

test('Prometheus elasticsearch_exporter: one scrape with every collector, decoded as its Go structs decode it', async () => {
  await ok('PUT', '/scraped', { settings: { number_of_shards: 2, number_of_replicas: 0 }, aliases: { scraped_alias: {} } });
  await bulk('scraped', 12);

  // cluster_info: labels from GET /, both versions parsed as strict semver.
  const info = await ok('GET', '/');
  assert.match(info.version.number, SEMVER);
  assert.match(info.version.lucene_version, SEMVER);
  for (const key of ['build_date', 'build_hash']) assert.equal(typeof info.version[key], 'string');
  assert.equal(info.cluster_name, 'tools');
  assert.equal(typeof info.cluster_uuid, 'string');
  // cluster_health: ints and a float.
  const health = await ok('GET', '/_cluster/health');
  for (const key of ['number_of_nodes', 'number_of_data_nodes', 'active_primary_shards', 'active_shards', 'relocating_shards', 'initializing_shards', 'unassigned_shards', 'delayed_unassigned_shards', 'number_of_pending_tasks', 'number_of_in_flight_fetch', 'task_max_waiting_in_queue_millis']) {
    assert.ok(isInteger(health[key]), key);
  }
  assert.equal(typeof health.active_shards_percent_as_number, 'number');
  // nodes: the local node's stats (default), and every node's with --es.all.
  for (const path of ['/_nodes/_local/stats', '/_nodes/stats']) {
    const nodes = await ok('GET', path);
    assert.equal(nodes.cluster_name, 'tools');
    const stats = Object.values(nodes.nodes)[0] as any;
    assert.ok(isInteger(stats.jvm.mem.heap_used_in_bytes));
    assert.ok(isInteger(stats.indices.docs.count));
    assert.ok(isInteger(stats.fs.total.total_in_bytes));
    assert.ok(isInteger(stats.process.open_file_descriptors));
    assert.ok(typeof stats.os.cpu.percent === 'number');
  }
  // indices (--es.indices, --es.shards), aliases, shards (_cat/shards as JSON strings).
  const indices = await ok('GET', '/_all/_stats?ignore_unavailable=true');
  assert.ok(isInteger(indices._all.primaries.docs.count));
  assert.equal(indices.indices.scraped.primaries.docs.count, 12);
  const shardLevel = await ok('GET', '/_all/_stats?ignore_unavailable=true&level=shards');
  const shardCopies = shardLevel.indices.scraped.shards as Record<string, any[]>;
  assert.deepEqual(Object.keys(shardCopies).sort(), ['0', '1']);
  assert.ok(shardCopies['0']![0].routing.primary === true && typeof shardCopies['0']![0].routing.node === 'string');
  const aliases = await ok('GET', '/_alias');
  assert.deepEqual(aliases.scraped, { aliases: { scraped_alias: {} } });
  const catShards = await ok('GET', '/_cat/shards?format=json');
  const row = catShards.find((candidate: { index: string }) => candidate.index === 'scraped');
  assert.equal(typeof row.docs, 'string');
  assert.equal(row.state, 'STARTED');
  // cluster_settings (--es.cluster_settings), indices_settings, indices_mappings.
  const clusterSettings = await ok('GET', '/_cluster/settings?include_defaults=true');
  assert.equal(typeof clusterSettings.defaults, 'object');
  assert.equal(clusterSettings.defaults.cluster.routing.allocation.enable, 'all');
  const indexSettings = await ok('GET', '/_all/_settings');
  assert.equal(indexSettings.scraped.settings.index.number_of_replicas, '0');
  const mappings = await ok('GET', '/_all/_mappings');
  assert.deepEqual(mappings.scraped.mappings.properties.n, { type: 'long' });
  // tasks (--es.tasks).
  const tasks = await ok('GET', '/_tasks?group_by=none&actions=indices:*');
  assert.ok(Array.isArray(tasks.tasks));
  // Collectors for features Gannet lacks get an ES error each (the exporter logs it and goes on), never a 200 of the wrong shape.
  for (const path of ['/_snapshot', '/_license', '/_slm/policy', '/_ilm/status', '/_all/_ilm/explain', '/_data_stream/_stats', '/_remote/info', '/_health_report']) {
    const answer = await call('GET', path);
    assert.equal(answer.status, 501, path);
    assert.equal(answer.body.error.type, 'unsupported_operation_exception', path);
  }
});
