/**
 * The log tells an operator what the node did: index lifecycle, mapping and settings changes, cancellations and
 * deprecations at info/warn as ES logs them, failed requests as one line each, slow logs at the configured
 * thresholds in their own files, and a server log under `path.logs` that rotates by size.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({
    // As in ES, the master logs index and settings changes and the nodes holding the shards log the slow queries.
    oneNode: "reads the master's and the data node's lines in this node's log",
    settings: { 'node.name': 'logs-node', 'cluster.name': 'logs', 'logger.level': 'debug', 'logger.file.max_size': '16kb', 'logger.file.max_files': '3' },
  });
});
after(async () => {
  await node.stop();
});

type Line = Record<string, any>;

/** Every JSON line of the server log and its rotated copies, oldest first. */
function serverLog(): Line[] {
  const files = readdirSync(node.logsPath)
    .filter((name) => /^logs_server(-\d+)?\.json$/.test(name))
    .sort((a, b) => rotation(b) - rotation(a));
  return files.flatMap((name) => readLines(join(node.logsPath, name)));
}

function rotation(name: string): number {
  const match = /-(\d+)\.json$/.exec(name);
  return match ? Number(match[1]) : 0;
}

function readLines(path: string): Line[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

async function eventually(check: () => void, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${what}: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function find(lines: Line[], event: string, predicate: (line: Line) => boolean = () => true): Line {
  const found = lines.find((line) => line.event === event && predicate(line));
  assert.ok(found, `no [${event}] line among:\n${lines.filter((line) => line.event !== undefined).map((line) => `${line.event}: ${line.msg}`).join('\n')}`);
  return found;
}

test('index lifecycle, mapping and settings changes, cancellations and deprecations are logged as ES logs them', async () => {
  assert.equal((await node.request('PUT', '/books', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: { properties: { title: { type: 'text' } } } } })).status, 200);
  assert.equal((await node.request('PUT', '/books/_doc/1?refresh=true', { body: { title: 'Dune', year: 1965 } })).status, 201);
  assert.equal((await node.request('PUT', '/books/_settings', { body: { index: { refresh_interval: '5s' } } })).status, 200);
  assert.equal((await node.request('PUT', '/_cluster/settings', { body: { transient: { 'search.max_buckets': 5000 } } })).status, 200);
  assert.equal((await node.request('POST', '/books/_close')).status, 200);
  assert.equal((await node.request('POST', '/books/_open?wait_for_active_shards=1')).status, 200);
  // A write to a missing index creates it: the cause says so.
  assert.equal((await node.request('PUT', '/typo-index/_doc/1', { body: { a: 1 } })).status, 201);
  const reindex = await node.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=1', { body: { source: { index: 'books', size: 1 }, dest: { index: 'books-copy' } } });
  const taskId = reindex.body.task as string;
  assert.equal((await node.request('POST', `/_tasks/${taskId}/_cancel?wait_for_completion=true`)).status, 200);
  assert.equal((await node.request('DELETE', '/typo-index')).status, 200);

  await eventually(() => {
    const lines = serverLog();
    assert.equal(find(lines, 'index_created', (l) => l.index === 'books').msg, '[books] creating index, cause [api], templates [], shards [2]/[0]');
    assert.match(find(lines, 'index_created', (l) => l.index === 'typo-index').msg, /^\[typo-index\] creating index, cause \[auto\(/);
    assert.match(find(lines, 'mapping_updated', (l) => l.index === 'books').msg, /^\[books\/[\w-]+\] update_mapping \[_doc\]$/);
    assert.match(find(lines, 'index_settings_updated', (l) => l.setting === 'index.refresh_interval').msg, /^\[books\/[\w-]+\] updating \[index\.refresh_interval\] from \[\] to \[5s\]$/);
    assert.equal(find(lines, 'cluster_settings_updated').msg, 'updating [search.max_buckets] from [] to [5000]');
    assert.match(find(lines, 'indices_closed').msg, /^closing indices \[books\/[\w-]+\]$/);
    assert.match(find(lines, 'indices_opened').msg, /^opening indices \[books\/[\w-]+\]$/);
    assert.match(find(lines, 'task_cancelled', (l) => l.task === taskId).msg, new RegExp(`^cancelling task \\[${taskId}\\] \\[indices:data/write/reindex\\] and its \\[\\d+\\] descendants, reason \\[by user request\\]$`));
    assert.match(find(lines, 'index_deleted', (l) => l.index === 'typo-index').msg, /^\[typo-index\/[\w-]+\] deleting index$/);
    const deprecation = find(lines, 'deprecation');
    assert.equal(deprecation.level, 'warn');
    assert.match(deprecation.msg, /^\[transient settings removal\] Updating cluster settings through transient settings is deprecated/);
    for (const line of lines) assert.equal(line.node, 'logs-node');
  }, 'operational events');
  // An index deleted while the node runs is deleted by the node as it applies the delete; the graveyard's "deleted
  // while this node was away" is for a node that was stopped or cut off then (it logged that for every delete).
  const typoUuid = find(serverLog(), 'index_deleted', (l) => l.index === 'typo-index').index_uuid as string;
  await eventually(() => assert.ok(!existsSync(join(node.dataPath, 'indices', typoUuid)), 'the deleted index is gone from disk'), 'deleted index files');
  assert.deepEqual(serverLog().filter((line) => line.event === 'index_store_deleted' || /while this node was away/.test(line.msg ?? '')).map((line) => line.msg), []);
});

test('a failed request is one structured line (type, reason, status, X-Opaque-Id); the stack only because the level is debug', async () => {
  const answer = await node.request('GET', '/no-such-index/_search', { headers: { 'x-opaque-id': 'ops-probe-7' } });
  assert.equal(answer.status, 404);
  await eventually(() => {
    const failed = serverLog().filter((line) => line.event === 'request_failed' && line.x_opaque_id === 'ops-probe-7');
    assert.equal(failed.length, 1, 'logged once');
    const line = failed[0]!;
    assert.equal(line.level, 'debug', '4xx is the caller’s mistake: debug');
    assert.equal(line.status, 404);
    assert.equal(line.method, 'GET');
    assert.equal(line.uri, '/no-such-index/_search');
    assert.equal(line.err.type, 'index_not_found_exception');
    assert.equal(line.err.reason, 'no such index [no-such-index]');
    assert.equal(typeof line.err.stack, 'string', 'at debug the stack is there, inside the one JSON line');
  }, 'request_failed line');
});

test('slow logs: each phase at the level of the threshold it passed, in their own files; -1 turns them off', async () => {
  await node.request('PUT', '/slow', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
  const thresholds = {
    'index.search.slowlog.threshold.query.warn': '1h',
    'index.search.slowlog.threshold.query.info': '0ms',
    'index.search.slowlog.threshold.fetch.warn': '1h',
    'index.search.slowlog.threshold.fetch.info': '1h',
    'index.search.slowlog.threshold.fetch.debug': '0ms',
    'index.indexing.slowlog.threshold.index.trace': '0ms',
    'index.indexing.slowlog.source': '12',
  };
  assert.equal((await node.request('PUT', '/slow/_settings', { body: thresholds })).status, 200);
  const got = await node.request('GET', '/slow/_settings?flat_settings=true');
  assert.equal(got.body.slow.settings['index.search.slowlog.threshold.query.info'], '0ms');
  assert.equal((await node.request('PUT', '/slow/_doc/d1?refresh=true&routing=r1', { body: { title: 'a rather long title', n: 1 } })).status, 201);
  const search = await node.request('POST', '/slow/_search', { body: { query: { match: { title: 'long' } } }, headers: { 'x-opaque-id': 'slow-client' } });
  assert.equal(search.body.hits.total.value, 1);

  const searchLog = () => readLines(join(node.logsPath, 'logs_index_search_slowlog.json'));
  const indexingLog = () => readLines(join(node.logsPath, 'logs_index_indexing_slowlog.json'));
  await eventually(() => {
    const query = searchLog().find((line) => line['log.logger'] === 'index.search.slowlog.query');
    assert.ok(query, 'a query phase line');
    assert.equal(query['log.level'], 'INFO');
    assert.equal(query['elasticsearch.slowlog.message'], '[slow][0]');
    assert.equal(query['elasticsearch.slowlog.total_hits'], '1 hits');
    assert.equal(query['elasticsearch.slowlog.total_shards'], 1);
    assert.equal(query['elasticsearch.slowlog.search_type'], 'QUERY_THEN_FETCH');
    assert.equal(query['elasticsearch.slowlog.source'], '{"query":{"match":{"title":"long"}}}');
    assert.equal(query['elasticsearch.slowlog.id'], 'slow-client');
    assert.match(query['elasticsearch.slowlog.took'], /^\d+(\.\d+)?(nanos|micros|ms|s)$/);
    assert.equal(typeof query['elasticsearch.slowlog.took_millis'], 'number');
    assert.equal(query['elasticsearch.cluster.name'], 'logs');
    assert.equal(query['elasticsearch.node.name'], 'logs-node');
    const fetch = searchLog().find((line) => line['log.logger'] === 'index.search.slowlog.fetch');
    assert.ok(fetch, 'a fetch phase line');
    assert.equal(fetch['log.level'], 'DEBUG');
    const indexing = indexingLog().find((line) => line['elasticsearch.slowlog.id'] === 'd1');
    assert.ok(indexing, 'an indexing line');
    assert.equal(indexing['log.level'], 'TRACE');
    assert.equal(indexing['log.logger'], 'index.indexing.slowlog.index');
    assert.match(indexing['elasticsearch.slowlog.message'], /^\[slow\/[\w-]+\]$/);
    assert.equal(indexing['elasticsearch.slowlog.routing'], 'r1');
    assert.equal(indexing['elasticsearch.slowlog.source'], '{"title":"a ', 'the first 12 characters of the source');
  }, 'slow log lines');
  // Slow log lines stay out of the server log, as ES's slow log loggers do.
  assert.equal(serverLog().some((line) => line['log.logger'] !== undefined), false);

  const off = Object.fromEntries(Object.keys(thresholds).map((key) => [key, null]));
  assert.equal((await node.request('PUT', '/slow/_settings', { body: off })).status, 200);
  const before = searchLog().length + indexingLog().length;
  await node.request('PUT', '/slow/_doc/d2?refresh=true', { body: { title: 'another' } });
  await node.request('POST', '/slow/_search', { body: { query: { match_all: {} } } });
  assert.equal(searchLog().length + indexingLog().length, before, 'thresholds back at -1: nothing more');
  // A bad threshold is ES's 400.
  const bad = await node.request('PUT', '/slow/_settings', { body: { 'index.search.slowlog.threshold.query.warn': 'soon' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.reason, 'failed to parse setting [index.search.slowlog.threshold.query.warn] with value [soon] as a time value: unit is missing or unrecognized');
});

test('the server log rotates by size and keeps logger.file.max_files copies', async () => {
  for (let i = 0; i < 25; i++) {
    await node.request('PUT', `/rotate-${i}`, { body: { settings: { number_of_replicas: 0 } } });
    await node.request('DELETE', `/rotate-${i}`);
  }
  await eventually(() => {
    const names = readdirSync(node.logsPath).filter((name) => name.startsWith('logs_server'));
    assert.ok(names.includes('logs_server-1.json'), `rotated: ${names.join(', ')}`);
    assert.ok(!names.includes('logs_server-4.json'), `at most 3 rotated copies: ${names.join(', ')}`);
    for (const name of names) {
      const size = readFileSync(join(node.logsPath, name)).length;
      assert.ok(size <= 16 * 1024, `${name} is ${size} bytes`);
    }
    // No line was split: every line of every file parses.
    assert.ok(serverLog().length > 0);
  }, 'rotation');
});
