#!/usr/bin/env node
// The acceptance walk of issues 12 and 13, run by hand against a cluster that `bin/gannet cluster start --nodes 3`
// started: every API of docs/compat.md is called through each of the three nodes and the answers compared (same
// hits, scores and aggregations from every node; the operational commands list all three nodes; tasks and cancels
// across nodes), then (issue 13) an index of one replica takes concurrent bulk/update/delete while a node is killed
// with -9 and started again: _cat/recovery and _recovery must tell its recovery as it happened, and every copy must
// hold every acknowledged write.
//
// Usage: node scripts/acceptance-walk.mjs --dir DIR [--docs N] [--only api,ops,tasks,recovery]
//   DIR: the folder given to `gannet cluster start --dir` (its cluster.json names the nodes and how they started).
//   --docs: npm corpus records loaded for the search comparisons (default 20000; ../shared/corpus/npm.ndjson.gz).
// Prints one line per check (ok / FAIL with the difference) and a summary; exits 1 when a check failed.
// It creates indices named walk-* and deletes them first; it leaves the cluster running.
import { readFileSync, writeFileSync, existsSync, createReadStream } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const take = (flag, fallback) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const dir = take('--dir');
const docCount = Number(take('--docs', '20000'));
const only = take('--only', 'api,ops,tasks,recovery').split(',');
const corpusDir = take('--corpus', join(root, '..', 'shared', 'corpus'));
if (dir === undefined || !existsSync(join(dir, 'cluster.json'))) {
  console.error('usage: node scripts/acceptance-walk.mjs --dir DIR (a folder of `gannet cluster start --dir DIR`)');
  process.exit(2);
}
const clusterFile = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
/** @type {Array<{name: string, url: string, id?: string, pid: number, entry: any}>} */
const nodes = clusterFile.nodes.map((entry) => ({ name: entry.name, url: `http://${entry.http}`, pid: entry.pid, entry }));

// ---------------------------------------------------------------------------------------------------------------
// HTTP and reporting

async function call(node, method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['content-type'] ??= typeof body === 'string' && path.includes('_bulk') ? 'application/x-ndjson' : 'application/json';
  }
  const started = Date.now();
  const response = await fetch(node.url + path, init);
  const text = await response.text();
  let parsed;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed, ms: Date.now() - started, headers: response.headers };
}

const results = [];
function record(ok, label, detail = '') {
  results.push({ ok, label, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${ok || detail === '' ? '' : `\n     ${detail.slice(0, 1500).replace(/\n/g, '\n     ')}`}`);
}
function check(condition, label, detail) {
  record(Boolean(condition), label, typeof detail === 'function' ? detail() : (detail ?? ''));
  return Boolean(condition);
}

/** The first path where two JSON values differ, for a readable failure. */
function firstDifference(a, b, path = '') {
  if (a === b) return undefined;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object' || Array.isArray(a) !== Array.isArray(b)) {
    return `${path || '.'}: ${JSON.stringify(a)?.slice(0, 300)} vs ${JSON.stringify(b)?.slice(0, 300)}`;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const found = firstDifference(a[key], b[key], `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

const VOLATILE = new Set(['took', 'took_in_millis', 'running_time_in_nanos', 'start_time_in_millis', 'timestamp']);
function dropVolatile(value, extra = []) {
  if (Array.isArray(value)) return value.map((item) => dropVolatile(item, extra));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    if (VOLATILE.has(key) || extra.includes(key)) continue;
    out[key] = dropVolatile(item, extra);
  }
  return out;
}

/**
 * Sends the same request through every node and checks the answers are equal once `normalize` ran on each body
 * (by default: the answer without timings). Returns the answers.
 */
async function same(label, method, path, body, { normalize = (b) => dropVolatile(b), status, text = false, headers } = {}) {
  const answers = [];
  for (const node of nodes) answers.push(await call(node, method, path, body, headers));
  const shaped = (answer) => {
    try {
      return text ? normalize(answer.text) : normalize(answer.body);
    } catch {
      return answer.text.slice(0, 800); // not the expected shape: compare (and show) the raw answer
    }
  };
  const shapes = answers.map((answer) => ({ status: answer.status, body: shaped(answer) }));
  let detail = '';
  for (let i = 1; i < shapes.length && detail === ''; i++) {
    const difference = firstDifference(shapes[0], shapes[i]);
    if (difference !== undefined) detail = `${nodes[0].name} vs ${nodes[i].name}: ${difference}`;
  }
  const expected = status ?? 200;
  const wrongStatus = answers.findIndex((answer) => answer.status !== expected);
  if (detail === '' && wrongStatus >= 0) detail = `${nodes[wrongStatus].name} answered ${answers[wrongStatus].status}: ${answers[wrongStatus].text.slice(0, 600)}`;
  record(detail === '', `${method} ${path} through ${nodes.map((node) => node.name).join(', ')}`, detail);
  return answers;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(what, probe, timeoutMs = 60_000, everyMs = 200) {
  const until = Date.now() + timeoutMs;
  let last;
  while (Date.now() < until) {
    last = await probe();
    if (last) return last;
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}`);
}
const catRows = (text) => text.trim().split('\n').filter((line) => line.length > 0).map((line) => line.trim().split(/\s+/));

// ---------------------------------------------------------------------------------------------------------------
// Data

async function loadCorpus(index, count) {
  await call(nodes[0], 'DELETE', `/${index}?ignore_unavailable=true`);
  const created = await call(nodes[1], 'PUT', `/${index}?wait_for_active_shards=all`, {
    settings: { number_of_shards: 3, number_of_replicas: 1, refresh_interval: -1 },
    mappings: { properties: { name: { type: 'keyword' }, version: { type: 'keyword' }, downloads: { type: 'long' }, summary: { type: 'text' } } },
  });
  if (created.status !== 200) throw new Error(`create ${index}: ${created.text}`);
  const lines = createInterface({ input: createReadStream(join(corpusDir, 'npm.ndjson.gz')).pipe(createGunzip()) });
  let batch = [];
  let n = 0;
  let sent = 0;
  const flush = async () => {
    const answer = await call(nodes[sent++ % nodes.length], 'POST', `/${index}/_bulk`, batch.join('\n') + '\n');
    if (answer.status !== 200 || answer.body.errors) throw new Error(`bulk into ${index}: ${answer.text.slice(0, 500)}`);
    batch = [];
  };
  for await (const line of lines) {
    if (n >= count) break;
    batch.push(JSON.stringify({ index: { _id: String(n) } }), line);
    n++;
    if (batch.length >= 4000) await flush();
  }
  if (batch.length > 0) await flush();
  lines.close();
  await call(nodes[2], 'POST', `/${index}/_refresh`);
  return n;
}

function queriesFromCorpus(limit) {
  const text = readFileSync(join(corpusDir, 'queries-npm.jsonl'), 'utf8');
  return text.trim().split('\n').slice(0, limit).map((line) => {
    const q = JSON.parse(line);
    const words = q.terms.join(' ');
    if (q.type === 'phrase') return { match_phrase: { summary: words } };
    return { match: { summary: { query: words, ...(q.type === 'and' && { operator: 'and' }) } } };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 12: every API of docs/compat.md through every node

async function walkApis() {
  const docs = await loadCorpus('walk-npm', docCount);
  console.log(`# loaded ${docs} npm records into walk-npm (3 shards, 1 replica)`);

  // Cluster and cat (cluster-level answers are the same whichever node is asked).
  await same('root', 'GET', '/', undefined, { normalize: (b) => ({ ...b, name: undefined }) });
  await same('head root', 'HEAD', '/');
  await same('health', 'GET', '/_cluster/health');
  await same('health index', 'GET', '/_cluster/health/walk-npm?level=shards');
  await same('cat', 'GET', '/_cat', undefined, { text: true, normalize: (t) => t });
  await same('cat allocation', 'GET', '/_cat/allocation?v&h=node,shards,shards.undesired,disk.indices.forecast,host,ip,node.role&s=node', undefined, { text: true, normalize: (t) => t });
  await same('allocation explain (none unassigned)', 'GET', '/_cluster/allocation/explain', undefined, { status: 400 });
  await same('allocation explain shard', 'POST', '/_cluster/allocation/explain', { index: 'walk-npm', shard: 0, primary: true }, {
    normalize: (b) => dropVolatile(b, ['weight_ranking']),
  });
  await same('reroute dry run', 'POST', '/_cluster/reroute?dry_run=true&metric=none', { commands: [] });
  await same('cat nodes', 'GET', '/_cat/nodes?v&h=name,ip,node.role,master&s=name', undefined, { text: true, normalize: (t) => t });
  await same('cat health', 'GET', '/_cat/health?v&h=cluster,status,node.total,node.data,shards,pri,relo,init,unassign', undefined, { text: true, normalize: (t) => t });
  await same('cat nodeattrs', 'GET', '/_cat/nodeattrs?v&s=node', undefined, { text: true, normalize: (t) => t });
  await same('cat thread_pool', 'GET', '/_cat/thread_pool/search,write?v&h=node_name,name,size,type&s=node_name,name', undefined, { text: true, normalize: (t) => t });

  // Indices, created and changed through different nodes, read through all.
  for (const [i, node] of nodes.entries()) {
    await call(node, 'DELETE', `/walk-made-${i}?ignore_unavailable=true`);
    const made = await call(node, 'PUT', `/walk-made-${i}`, { settings: { number_of_shards: 2, number_of_replicas: 1 }, mappings: { properties: { t: { type: 'text' } } }, aliases: { [`walk-alias-${i}`]: {} } });
    check(made.status === 200 && made.body.acknowledged && made.body.shards_acknowledged, `PUT /walk-made-${i} through ${node.name}`, made.text);
    const mapped = await call(node, 'PUT', `/walk-made-${i}/_mapping`, { properties: { k: { type: 'keyword' } } });
    check(mapped.status === 200, `PUT /walk-made-${i}/_mapping through ${node.name}`, mapped.text);
    const settings = await call(node, 'PUT', `/walk-made-${i}/_settings`, { index: { refresh_interval: '2s' } });
    check(settings.status === 200, `PUT /walk-made-${i}/_settings through ${node.name}`, settings.text);
  }
  await same('get indices', 'GET', '/walk-made-*', undefined, { normalize: (b) => b });
  await same('head index', 'HEAD', '/walk-made-0');
  await same('get mapping', 'GET', '/_mapping');
  await same('get mappings', 'GET', '/walk-made-*/_mappings');
  await same('get settings', 'GET', '/walk-made-*/_settings?flat_settings=true');
  await same('get settings name', 'GET', '/_settings/index.number_of_*');
  await same('field caps', 'GET', '/walk-*/_field_caps?fields=*');
  await same('resolve index', 'GET', '/_resolve/index/walk-*');
  await same('aliases', 'GET', '/_aliases');
  await same('alias by name', 'GET', '/_alias/walk-alias-*');
  await same('head alias', 'HEAD', '/_alias/walk-alias-1');
  await same('cat aliases', 'GET', '/_cat/aliases/walk-*?v&s=alias', undefined, { text: true, normalize: (t) => t });
  const block = await call(nodes[2], 'PUT', '/walk-made-0/_block/write');
  check(block.status === 200 && block.body.acknowledged, 'PUT /walk-made-0/_block/write through node-3', block.text);
  await same('write refused by the block', 'PUT', '/walk-made-0/_doc/1', { t: 'x' }, { status: 403 });
  await call(nodes[0], 'PUT', '/walk-made-0/_settings', { index: { 'blocks.write': false } });
  const aliased = await call(nodes[1], 'POST', '/_aliases', { actions: [{ add: { index: 'walk-npm', alias: 'walk-popular', filter: { range: { downloads: { gte: 1000 } } } } }] });
  check(aliased.status === 200, 'POST /_aliases through node-2', aliased.text);

  // Documents: each node writes, every node reads.
  for (const [i, node] of nodes.entries()) {
    const put = await call(node, 'PUT', `/walk-made-1/_doc/d${i}?refresh=wait_for`, { t: `written through ${node.name}`, k: node.name });
    check(put.status === 201 && put.body._shards.total === 2 && put.body._shards.successful === 2, `PUT _doc through ${node.name} (both copies)`, put.text);
    const created = await call(node, 'PUT', `/walk-made-1/_create/c${i}`, { t: 'created' });
    check(created.status === 201, `PUT _create through ${node.name}`, created.text);
    const auto = await call(node, 'POST', '/walk-made-1/_doc?refresh=true', { t: 'auto id' });
    check(auto.status === 201 && typeof auto.body._id === 'string', `POST _doc (auto id) through ${node.name}`, auto.text);
    const updated = await call(node, 'POST', `/walk-made-1/_update/d${i}`, { script: { source: 'ctx._source.n = params.n', params: { n: i } } });
    check(updated.status === 200 && updated.body.result === 'updated', `POST _update (script) through ${node.name}`, updated.text);
  }
  for (const i of nodes.keys()) {
    await same(`get d${i}`, 'GET', `/walk-made-1/_doc/d${i}`);
    await same(`source d${i}`, 'GET', `/walk-made-1/_source/d${i}`);
    await same(`head d${i}`, 'HEAD', `/walk-made-1/_doc/d${i}`);
  }
  await same('mget', 'POST', '/walk-made-1/_mget', { ids: ['d0', 'd1', 'd2', 'nope'] });
  await same('get missing', 'GET', '/walk-made-1/_doc/nope', undefined, { status: 404 });
  const deleted = await call(nodes[2], 'DELETE', '/walk-made-1/_doc/c0?refresh=true');
  check(deleted.status === 200 && deleted.body.result === 'deleted', 'DELETE _doc through node-3', deleted.text);
  await same('deleted is gone', 'GET', '/walk-made-1/_doc/c0', undefined, { status: 404 });
  await same('bulk refusal', 'POST', '/_bulk', '{"index":{"_index":"walk-made-1","_id":"b"}}\n{"t":1}\n{"bogus":{}}\n', { status: 400 });

  // Search: the same hits, scores and aggregations whichever node coordinates.
  const queries = queriesFromCorpus(20);
  for (const query of queries) {
    await same(`search ${JSON.stringify(query)}`, 'POST', '/walk-npm/_search', { query, size: 10 });
  }
  await same('search q=', 'GET', '/walk-npm/_search?q=summary:react&size=5');
  await same('search sort + search_after', 'POST', '/walk-npm/_search', { size: 5, sort: [{ downloads: 'desc' }, { name: 'asc' }], search_after: [1000, 'a'] });
  await same('search aggregations', 'POST', '/walk-npm/_search', {
    size: 0,
    query: { match: { summary: 'library' } },
    aggs: {
      versions: { terms: { field: 'version', size: 10 }, aggs: { top: { max: { field: 'downloads' } } } },
      downloads: { histogram: { field: 'downloads', interval: 100000, min_doc_count: 1 } },
      ranges: { range: { field: 'downloads', ranges: [{ to: 100 }, { from: 100, to: 10000 }, { from: 10000 }] } },
      stats: { extended_stats: { field: 'downloads' } },
      distinct: { cardinality: { field: 'version' } },
      pct: { percentiles: { field: 'downloads', percents: [50, 99] } },
    },
  });
  await same('search highlight + fields', 'POST', '/walk-npm/_search', { query: { match: { summary: 'fast json parser' } }, highlight: { fields: { summary: {} } }, _source: ['name'], fields: ['downloads'], size: 5 });
  await same('search dfs', 'POST', '/walk-npm/_search?search_type=dfs_query_then_fetch', { query: { match: { summary: 'react component' } }, size: 10 });
  await same('search through filtered alias', 'POST', '/walk-popular/_search', { query: { match: { summary: 'react' } }, size: 5 });
  // Which copy of shard 0 failed first (so its node) depends on the coordinating node's copy choice, as in ES.
  await same('search 400', 'POST', '/walk-npm/_search', { query: { match: { downloads: 'abc' } } }, { status: 400, normalize: (b) => dropVolatile(b, ['node']) });
  await same('count', 'GET', '/walk-npm/_count?q=summary:react');
  await same('count body', 'POST', '/walk-npm/_count', { query: { range: { downloads: { gte: 500 } } } });
  await same('msearch', 'POST', '/_msearch', [
    '{"index":"walk-npm"}', '{"query":{"match":{"summary":"vue"}},"size":3}',
    '{"index":"walk-nothing"}', '{"query":{"match_all":{}}}',
  ].join('\n') + '\n', { headers: { 'content-type': 'application/x-ndjson' } });
  await same('explain', 'POST', '/walk-npm/_explain/5', { query: { match: { summary: 'module' } } });
  await same('terms enum', 'POST', '/walk-npm/_terms_enum', { field: 'version', string: '1.0' });
  await same('analyze', 'POST', '/walk-npm/_analyze', { field: 'summary', text: 'The Quick Brown Fox' });
  await same('validate-free: unknown param', 'GET', '/walk-npm/_search?bogus=1', undefined, { status: 400 });

  // Scroll and point in time: opened through one node, continued through another, closed through the third.
  const scrolled = await call(nodes[0], 'POST', '/walk-npm/_search?scroll=1m', { size: 50, sort: ['_doc'], query: { match: { summary: 'react' } } });
  const seen = new Set(scrolled.body.hits.hits.map((hit) => hit._id));
  let scrollId = scrolled.body._scroll_id;
  for (let page = 1; page <= 4; page++) {
    const next = await call(nodes[page % 3], 'POST', '/_search/scroll', { scroll: '1m', scroll_id: scrollId });
    if (!check(next.status === 200, `scroll page ${page} through ${nodes[page % 3].name}`, next.text)) break;
    for (const hit of next.body.hits.hits) seen.add(hit._id);
    scrollId = next.body._scroll_id;
  }
  check(seen.size === Math.min(250, scrolled.body.hits.total.value), `scroll pages hold distinct hits (${seen.size})`);
  const cleared = await call(nodes[2], 'DELETE', '/_search/scroll', { scroll_id: scrollId });
  check(cleared.status === 200 && cleared.body.num_freed > 0, 'clear scroll through node-3', cleared.text);
  const pit = await call(nodes[1], 'POST', '/walk-npm/_pit?keep_alive=1m');
  check(pit.status === 200, 'open pit through node-2', pit.text);
  await same('search pit', 'POST', '/_search', { pit: { id: pit.body.id, keep_alive: '1m' }, size: 5, sort: [{ _shard_doc: 'asc' }], query: { match: { summary: 'angular' } } }, {
    normalize: (b) => dropVolatile(b, ['pit_id']),
  });
  const closed = await call(nodes[2], 'DELETE', '/_pit', { id: pit.body.id });
  check(closed.status === 200 && closed.body.succeeded === true && closed.body.num_freed === 3, 'close pit through node-3 frees the 3 shard contexts', closed.text);

  // Broadcast and cat over the data.
  await same('refresh', 'POST', '/walk-npm/_refresh');
  await same('flush', 'POST', '/walk-npm/_flush');
  await same('forcemerge', 'POST', '/walk-made-2/_forcemerge?max_num_segments=1');
  await same('synced flush', 'POST', '/walk-npm/_flush/synced');
  await same('stats docs', 'GET', '/walk-npm/_stats/docs', undefined, { normalize: (b) => ({ shards: b._shards, primaries: b._all.primaries.docs.count, total: b._all.total.docs.count }) });
  await same('stats shards level', 'GET', '/walk-npm/_stats/docs?level=shards', undefined, {
    normalize: (b) => Object.entries(b.indices['walk-npm'].shards).map(([shard, copies]) => [shard, copies.map((copy) => [copy.routing.node, copy.routing.primary, copy.docs.count, copy.seq_no]).sort()]),
  });
  await same('segments', 'GET', '/walk-made-2/_segments', undefined, { normalize: (b) => b._shards });
  await same('cat indices', 'GET', '/_cat/indices/walk-*?v&h=health,status,index,pri,rep,docs.count&s=index', undefined, { text: true, normalize: (t) => t });
  await same('cat shards', 'GET', '/_cat/shards/walk-npm?v&h=index,shard,prirep,state,docs,node&s=shard,prirep', undefined, { text: true, normalize: (t) => t });
  await same('cat segments', 'GET', '/_cat/segments/walk-made-2?v&h=index,shard,prirep,docs.count&s=shard,prirep', undefined, { text: true, normalize: (t) => t });
  await same('cat count', 'GET', '/_cat/count/walk-npm?h=count', undefined, { text: true, normalize: (t) => t });
  await same('recovery', 'GET', '/walk-npm/_recovery', undefined, { normalize: (b) => dropVolatile(b, ['start_time', 'start_time_in_millis', 'stop_time', 'stop_time_in_millis', 'total_time', 'total_time_in_millis', 'throttle_time_in_millis', 'source_throttle_time_in_millis', 'target_throttle_time_in_millis', 'check_index_time_in_millis']) });
  await same('cat recovery', 'GET', '/_cat/recovery/walk-npm?v&h=index,shard,type,stage,source_node,target_node,files,files_recovered,bytes,bytes_recovered,translog_ops,translog_ops_recovered&s=shard,target_node', undefined, { text: true, normalize: (t) => t });

  // Templates: put through one node, read through all.
  check((await call(nodes[0], 'PUT', '/_component_template/walk-ct', { template: { settings: { number_of_shards: 1 } } })).status === 200, 'PUT component template through node-1');
  check((await call(nodes[1], 'PUT', '/_index_template/walk-it', { index_patterns: ['walk-tpl-*'], composed_of: ['walk-ct'], priority: 300 })).status === 200, 'PUT index template through node-2');
  check((await call(nodes[2], 'PUT', '/_template/walk-legacy', { index_patterns: ['walk-legacy-*'], order: 1 })).status === 200, 'PUT legacy template through node-3');
  await same('get component template', 'GET', '/_component_template/walk-ct');
  await same('get index template', 'GET', '/_index_template/walk-it');
  await same('get legacy template', 'GET', '/_template/walk-legacy');
  await same('head legacy template', 'HEAD', '/_template/walk-legacy');
  await same('simulate index', 'POST', '/_index_template/_simulate_index/walk-tpl-1');
  await same('cat templates', 'GET', '/_cat/templates/walk-*?v&s=name', undefined, { text: true, normalize: (t) => t });
  await same('cat component templates', 'GET', '/_cat/component_templates/walk-*?v', undefined, { text: true, normalize: (t) => t });
  await call(nodes[0], 'DELETE', '/walk-tpl-1?ignore_unavailable=true');
  const auto = await call(nodes[2], 'PUT', '/walk-tpl-1/_doc/1?refresh=true', { a: 1 });
  check(auto.status === 201, 'write auto-creates walk-tpl-1 from the template through node-3', auto.text);
  await same('auto-created index settings', 'GET', '/walk-tpl-1/_settings/index.number_of_shards');

  // Reindex and by-query, each started through another node.
  await call(nodes[0], 'DELETE', '/walk-copy?ignore_unavailable=true');
  const reindexed = await call(nodes[1], 'POST', '/_reindex?refresh=true', { source: { index: 'walk-npm', query: { match: { summary: 'react' } } }, dest: { index: 'walk-copy' } });
  const reactCount = (await call(nodes[0], 'GET', '/walk-npm/_count?q=summary:react')).body.count;
  check(reindexed.status === 200 && reindexed.body.created === reactCount, `reindex through node-2 copies ${reactCount}`, reindexed.text.slice(0, 500));
  const ubq = await call(nodes[2], 'POST', '/walk-copy/_update_by_query?refresh=true&conflicts=proceed', { script: { source: 'ctx._source.downloads += 1' } });
  check(ubq.status === 200 && ubq.body.updated === reactCount, 'update_by_query through node-3', ubq.text.slice(0, 500));
  const dbq = await call(nodes[0], 'POST', '/walk-copy/_delete_by_query?refresh=true', { query: { range: { downloads: { lt: 100 } } } });
  check(dbq.status === 200, 'delete_by_query through node-1', dbq.text.slice(0, 500));
  await same('after by-query', 'GET', '/walk-copy/_count');

  // Open/close, cache, alias removal, split/clone, deletes: through another node each time.
  const closedIdx = await call(nodes[1], 'POST', '/walk-made-2/_close');
  check(closedIdx.status === 200 && closedIdx.body.acknowledged && closedIdx.body.indices?.['walk-made-2']?.closed === true, 'POST /walk-made-2/_close through node-2', closedIdx.text);
  await same('search a closed index', 'POST', '/walk-made-2/_search', {}, { status: 400 });
  await same('cat indices closed', 'GET', '/_cat/indices/walk-made-2?h=status,index', undefined, { text: true, normalize: (t) => t });
  const opened = await call(nodes[2], 'POST', '/walk-made-2/_open?wait_for_active_shards=all');
  check(opened.status === 200 && opened.body.shards_acknowledged === true, 'POST /walk-made-2/_open through node-3', opened.text);
  await same('cache clear', 'POST', '/walk-npm/_cache/clear');
  const unaliased = await call(nodes[2], 'DELETE', '/walk-made-1/_alias/walk-alias-1');
  check(unaliased.status === 200, 'DELETE /walk-made-1/_alias/walk-alias-1 through node-3', unaliased.text);
  await same('alias gone', 'GET', '/_alias/walk-alias-1', undefined, { status: 404 });
  for (const index of ['walk-split', 'walk-clone']) await call(nodes[0], 'DELETE', `/${index}?ignore_unavailable=true`);
  await call(nodes[0], 'GET', '/_cluster/health/walk-made-1?wait_for_status=green&timeout=30s');
  await call(nodes[0], 'PUT', '/walk-made-1/_settings', { index: { 'blocks.write': true } });
  const split = await call(nodes[1], 'POST', '/walk-made-1/_split/walk-split?wait_for_active_shards=all', { settings: { 'index.number_of_shards': 4, 'index.blocks.write': null } });
  check(split.status === 200 && split.body.acknowledged, 'split through node-2', split.text);
  const cloned = await call(nodes[0], 'POST', '/walk-made-1/_clone/walk-clone?wait_for_active_shards=all', { settings: { 'index.blocks.write': null } });
  check(cloned.status === 200 && cloned.body.acknowledged, 'clone through node-1', cloned.text);
  await call(nodes[0], 'PUT', '/walk-made-1/_settings', { index: { 'blocks.write': false } });
  await call(nodes[0], 'POST', '/walk-split,walk-clone,walk-made-1/_refresh');
  await same('split and clone hold the source documents', 'GET', '/walk-split,walk-clone,walk-made-1/_search?size=0', undefined, {
    normalize: (b) => ({ total: b.hits.total, shards: b._shards }),
  });
  await same('search after split', 'POST', '/walk-split/_search', { query: { match: { t: 'written' } } }, { normalize: (b) => b.hits.hits.map((hit) => [hit._id, hit._score, hit._source]).sort() });
  const dropped = await call(nodes[2], 'DELETE', '/walk-clone');
  check(dropped.status === 200, 'DELETE /walk-clone through node-3', dropped.text);
  await same('deleted index is gone', 'GET', '/walk-clone', undefined, { status: 404 });
  await same('simulate template', 'POST', '/_index_template/_simulate/walk-it');
  await same('cat allocation of one node', 'GET', `/_cat/allocation/${nodes[2].name}?h=node,shards`, undefined, { text: true, normalize: (t) => t });
  await same('nodes stats of one node', 'GET', `/_nodes/${nodes[1].name}/stats/indices/docs`, undefined, { normalize: (b) => ({ header: b._nodes, docs: Object.entries(b.nodes).map(([id, n]) => [id, n.name, n.indices.docs.count]) }) });
  await same('nodes info metric', 'GET', `/_nodes/${nodes[0].name}/info/transport`, undefined, { normalize: (b) => ({ header: b._nodes, nodes: b.nodes }) });
  await same('cluster stats of one node', 'GET', `/_cluster/stats/nodes/${nodes[2].name}`, undefined, { normalize: (b) => ({ nodes: b._nodes, count: b.nodes.count }) });

  // Cluster state, settings, nodes.
  const putSettings = await call(nodes[2], 'PUT', '/_cluster/settings', { persistent: { 'search.max_buckets': 20000 } });
  check(putSettings.status === 200, 'PUT _cluster/settings through node-3', putSettings.text);
  await same('cluster settings', 'GET', '/_cluster/settings');
  await same('cluster state metadata', 'GET', '/_cluster/state/metadata,routing_table/walk-npm', undefined, { normalize: (b) => dropVolatile(b, ['cluster_uuid']) });
  await same('cluster state nodes', 'GET', '/_cluster/state/master_node,nodes');
  await same('cluster stats', 'GET', '/_cluster/stats', undefined, { normalize: (b) => ({ nodes: b.nodes.count, indices: { count: b.indices.count, shards: b.indices.shards.total, docs: b.indices.docs.count } }) });
  await same('nodes info', 'GET', '/_nodes/settings', undefined, { normalize: (b) => ({ header: b._nodes, ids: Object.keys(b.nodes).sort() }) });
  await same('nodes stats', 'GET', '/_nodes/stats/indices/docs', undefined, { normalize: (b) => ({ header: b._nodes, docs: Object.entries(b.nodes).map(([id, n]) => [id, n.indices.docs.count]).sort() }) });
  await same('hot threads', 'GET', '/_nodes/hot_threads?interval=50ms', undefined, { text: true, normalize: (t) => [...t.matchAll(/^::: \{([^}]+)\}/gm)].map((m) => m[1]).sort() });
  await same('unsupported family 501', 'GET', '/_snapshot', undefined, { status: 501 });

  // Rollover and resize through other nodes.
  for (const index of ['walk-roll-000001', 'walk-roll-000002', 'walk-shrunk']) await call(nodes[0], 'DELETE', `/${index}?ignore_unavailable=true`);
  await call(nodes[0], 'PUT', '/walk-roll-000001', { aliases: { 'walk-roll': { is_write_index: true } }, settings: { number_of_shards: 2, number_of_replicas: 1 } });
  for (let i = 0; i < 5; i++) await call(nodes[i % 3], 'PUT', `/walk-roll/_doc/${i}`, { n: i });
  await call(nodes[2], 'POST', '/walk-roll/_refresh'); // max_docs counts the primaries' searchable documents, as ES's DocsStats
  const rolled = await call(nodes[1], 'POST', '/walk-roll/_rollover', { conditions: { max_docs: 3 } });
  check(rolled.status === 200 && rolled.body.rolled_over === true, 'rollover (max_docs over primaries on several nodes) through node-2', rolled.text);
  await call(nodes[0], 'PUT', '/walk-made-2/_settings', { index: { 'blocks.write': true } });
  const shrunk = await call(nodes[2], 'POST', '/walk-made-2/_shrink/walk-shrunk?wait_for_active_shards=1', { settings: { 'index.number_of_shards': 1, 'index.blocks.write': null } });
  check(shrunk.status === 200 && shrunk.body.acknowledged, 'shrink through node-3', shrunk.text);
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 12: the seven operational commands tell the truth about all three nodes

async function nodeIds() {
  const answer = await call(nodes[0], 'GET', '/_cat/nodes?h=id,name&full_id=true');
  for (const [id, name] of catRows(answer.text)) {
    const node = nodes.find((candidate) => candidate.name === name);
    if (node !== undefined) node.id = id;
  }
}

async function walkOps() {
  await nodeIds();
  await call(nodes[0], 'GET', '/_cluster/health?wait_for_status=green&wait_for_no_initializing_shards=true&wait_for_no_relocating_shards=true&timeout=60s');
  // Shards per node as _cat/shards lists them: a relocating shard once, on its source (ES's _cat/allocation counts
  // the routing table's copies, where a relocation target is not one of its own).
  const shardsOf = async () => {
    const rows = catRows((await call(nodes[0], 'GET', '/_cat/shards?h=state,node')).text);
    const per = Object.fromEntries(nodes.map((node) => [node.name, 0]));
    for (const row of rows) if (row[0] !== 'UNASSIGNED') per[row[1]] = (per[row[1]] ?? 0) + 1;
    return per;
  };
  for (const node of nodes) {
    const health = await call(node, 'GET', '/_cluster/health');
    check(health.body.number_of_nodes === 3 && health.body.number_of_data_nodes === 3 && health.body.status === 'green', `health through ${node.name}: 3 nodes, green`, health.text);
    // The balancer may move a shard between two requests: the counts must agree on one of a few tries.
    let allocation;
    let perNode;
    let agrees = false;
    for (let attempt = 0; attempt < 10 && !agrees; attempt++) {
      if (attempt > 0) await sleep(500);
      perNode = await shardsOf();
      allocation = await call(node, 'GET', '/_cat/allocation?v');
      const rows = catRows(allocation.text);
      const header = rows[0];
      const byNode = Object.fromEntries(rows.slice(1).map((row) => [row[header.indexOf('node')], row]));
      agrees = rows.length === 4 && nodes.every((n) => byNode[n.name] !== undefined && Number(byNode[n.name][header.indexOf('shards')]) === perNode[n.name]);
    }
    check(agrees, `_cat/allocation?v through ${node.name}: every node with its shard count ${JSON.stringify(perNode)}`, allocation.text);
    const catNodes = await call(node, 'GET', '/_cat/nodes?v');
    const nodeRows = catRows(catNodes.text);
    const masters = nodeRows.slice(1).filter((row) => row.includes('*'));
    check(nodeRows.length === 4 && masters.length === 1 && nodes.every((n) => nodeRows.some((row) => row.at(-1) === n.name)), `_cat/nodes?v through ${node.name}: three nodes, one master`, catNodes.text);
    const tasks = await call(node, 'GET', '/_tasks');
    const listed = Object.keys(tasks.body.nodes ?? {});
    check(tasks.status === 200 && nodes.every((n) => listed.includes(n.id)) && (tasks.body.node_failures ?? []).length === 0, `_tasks through ${node.name}: every node's own list task`, tasks.text.slice(0, 400));
    const catTasks = await call(node, 'GET', '/_cat/tasks?v=true');
    const taskRows = catRows(catTasks.text);
    check(nodes.every((n) => taskRows.some((row) => row.at(-1) === n.name && row[1].startsWith(`${n.id}:`))), `_cat/tasks?v=true through ${node.name}: a row from every node`, catTasks.text);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 12: tasks across nodes, cancel by id through another node, cancel by nodes=+actions=*reindex

async function startSlowReindex(through, dest) {
  await call(nodes[0], 'DELETE', `/${dest}?ignore_unavailable=true`);
  await call(nodes[0], 'PUT', `/${dest}`, { settings: { number_of_shards: 3, number_of_replicas: 1 } });
  const started = await call(through, 'POST', '/_reindex?wait_for_completion=false&requests_per_second=200&slices=3', { source: { index: 'walk-npm', size: 100 }, dest: { index: dest } });
  if (started.status !== 200) throw new Error(`reindex: ${started.text}`);
  return started.body.task;
}

async function walkTasks() {
  await nodeIds();
  // A running sliced reindex started through node-1: listed, got and cat'ed through every node.
  const task = await startSlowReindex(nodes[0], 'walk-rx1');
  const [taskNode] = task.split(':');
  check(taskNode === nodes[0].id, `reindex task ${task} lives on the node it was started through`);
  await waitFor('the reindex to write', async () => (await call(nodes[0], 'GET', `/_tasks/${task}`)).body?.task?.status?.created > 0, 30_000);
  for (const node of nodes) {
    const got = await call(node, 'GET', `/_tasks/${task}`);
    check(got.status === 200 && got.body.completed === false && got.body.task.action === 'indices:data/write/reindex' && got.body.task.status.slices?.length === 3,
      `GET /_tasks/<reindex> through ${node.name}: running, 3 slices`, got.text.slice(0, 500));
    const listed = await call(node, 'GET', '/_tasks?actions=*reindex&detailed=true&group_by=parents');
    const parent = listed.body.tasks?.[task];
    check(parent !== undefined && (parent.children ?? []).length === 3, `GET /_tasks?actions=*reindex&group_by=parents through ${node.name}: the parent with its 3 slices`, listed.text.slice(0, 600));
    const cat = await call(node, 'GET', '/_cat/tasks?v=true&actions=*reindex&detailed');
    check(catRows(cat.text).filter((row) => row[0] === 'indices:data/write/reindex').length === 4, `_cat/tasks?actions=*reindex through ${node.name}: parent and slices`, cat.text);
  }
  // Filters through another node: nodes=, parent_task_id=, and a task id of no node in the cluster.
  const onItsNode = await call(nodes[1], 'GET', `/_tasks?nodes=${taskNode}&actions=*reindex`);
  check(Object.keys(onItsNode.body.nodes ?? {}).join() === taskNode && Object.keys(onItsNode.body.nodes[taskNode].tasks).length === 4, `GET /_tasks?nodes=<node-1>&actions=*reindex through node-2: the reindex and its 3 slices, one node`, onItsNode.text.slice(0, 400));
  const children = await call(nodes[2], 'GET', `/_tasks?parent_task_id=${task}&group_by=none&actions=*reindex`);
  check(children.body.tasks?.length === 3 && children.body.tasks.every((t) => t.parent_task_id === task), `GET /_tasks?parent_task_id=<reindex> through node-3: its 3 slices`, children.text.slice(0, 400));
  const catOnNode = await call(nodes[2], 'GET', `/_cat/tasks?nodes=${taskNode}&actions=*reindex&h=action,node`);
  check(catRows(catOnNode.text).length === 4 && catRows(catOnNode.text).every((row) => row[1] === nodes[0].name), `_cat/tasks?nodes=<node-1> through node-3`, catOnNode.text);
  await same('a task of no node in the cluster', 'GET', '/_tasks/nonode:1', undefined, { status: 404 });
  const rethrottled = await call(nodes[2], 'POST', `/_reindex/${task}/_rethrottle?requests_per_second=150`);
  const rethrottledTask = rethrottled.body?.nodes?.[taskNode]?.tasks?.[task];
  check(rethrottled.status === 200 && rethrottledTask?.status?.requests_per_second === 150, `POST /_reindex/<task>/_rethrottle through node-3 reaches its node`, rethrottled.text.slice(0, 500));
  // Descendants on the other nodes (the shard bulks and searches of the slices' requests) are listed with their parents.
  const descendantsOf = (tasks, root) => {
    const inTree = new Set([root]);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of tasks) {
        const id = `${t.node}:${t.id}`;
        if (!inTree.has(id) && inTree.has(t.parent_task_id)) inTree.add(id), (grew = true);
      }
    }
    return tasks.filter((t) => `${t.node}:${t.id}` !== root && inTree.has(`${t.node}:${t.id}`));
  };
  const elsewhere = await waitFor('a descendant of the reindex on another node', async () => {
    const all = await call(nodes[2], 'GET', '/_tasks?detailed=true&group_by=none');
    const found = descendantsOf(all.body.tasks ?? [], task).filter((t) => t.node !== taskNode);
    return found.length > 0 ? found : undefined;
  }, 20_000, 20).catch(() => undefined);
  check(elsewhere !== undefined, `a descendant of the reindex runs on another node and is listed under it (${elsewhere?.map((t) => t.action).join(', ')})`);

  // Cancel by id through a node that is not the task's.
  const cancelled = await call(nodes[2], 'POST', `/_tasks/${task}/_cancel?wait_for_completion=true`);
  check(cancelled.status === 200 && cancelled.body.nodes?.[taskNode]?.tasks?.[task]?.cancelled === true && (cancelled.body.node_failures ?? []).length === 0,
    `POST /_tasks/${task}/_cancel through node-3`, cancelled.text.slice(0, 600));
  const stored = await waitFor('the cancelled result', async () => {
    const got = await call(nodes[1], 'GET', `/_tasks/${task}`);
    return got.body?.completed === true ? got : undefined;
  }, 30_000);
  check(stored.body.response?.canceled === 'by user request' || stored.body.error !== undefined, `GET /_tasks/${task} through node-2 after cancel: completed, canceled by user request`, stored.text.slice(0, 500));
  const left = await call(nodes[1], 'GET', '/_tasks?detailed=true&group_by=none');
  const descendants = descendantsOf(left.body.tasks ?? [], task).concat((left.body.tasks ?? []).filter((t) => `${t.node}:${t.id}` === task));
  check(descendants.length === 0, 'no task of the cancelled reindex is left on any node', JSON.stringify(descendants).slice(0, 500));

  // Cancel by nodes= (the reindex's node) and actions=*reindex, sent through another node; its children elsewhere stop too.
  const second = await startSlowReindex(nodes[1], 'walk-rx2');
  const secondNode = second.split(':')[0];
  await waitFor('the second reindex to write', async () => (await call(nodes[1], 'GET', `/_tasks/${second}`)).body?.task?.status?.created > 0, 30_000);
  const byFilter = await call(nodes[0], 'POST', `/_tasks/_cancel?nodes=${secondNode}&actions=*reindex&wait_for_completion=true`);
  const cancelledIds = Object.keys(byFilter.body.nodes?.[secondNode]?.tasks ?? {});
  check(byFilter.status === 200 && cancelledIds.includes(second) && Object.keys(byFilter.body.nodes ?? {}).length === 1,
    `POST /_tasks/_cancel?nodes=<node-2>&actions=*reindex through node-1 names the reindex (and its slices)`, byFilter.text.slice(0, 600));
  const countAfter = async () => (await call(nodes[2], 'POST', '/walk-rx2/_refresh').then(() => call(nodes[2], 'GET', '/walk-rx2/_count'))).body.count;
  const afterCancel = await countAfter();
  await sleep(1500);
  const later = await countAfter();
  check(later === afterCancel, `no document is written after the cancel returned (${afterCancel} then ${later})`);
  const remaining = await call(nodes[2], 'GET', '/_tasks?detailed=true&group_by=none');
  const stillThere = (remaining.body.tasks ?? []).filter((t) => t.action.includes('reindex') || t.parent_task_id === second);
  check(stillThere.length === 0, 'no reindex task or child is listed on any node after the cancel', JSON.stringify(stillThere).slice(0, 500));
  const finalSecond = await call(nodes[2], 'GET', `/_tasks/${second}?wait_for_completion=true&timeout=30s`);
  check(finalSecond.body?.completed === true && finalSecond.body?.response?.canceled === 'by user request', `GET /_tasks/${second} through node-3: stored as canceled by user request`, finalSecond.text.slice(0, 500));
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 13: one replica, concurrent writes, kill -9 and restart of a node, recovery reported, every copy equal

function restartNode(node) {
  const e = node.entry;
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '--initial-old-space-size=128', join(root, 'dist', 'src', 'cli', 'run.js'), 'start',
    '--config', join(dir, node.name), '-E', `path.data=${e.dataPath}`, '-E', `path.logs=${join(dir, node.name, 'logs')}`, '-E', `node.name=${node.name}`,
    '-E', `cluster.name=${clusterFile.clusterName}`, '-E', 'cluster.coordination=etcd', '-E', `cluster.etcd.endpoints=${clusterFile.etcd.endpoint}`,
    '-E', `http.port=${e.http.split(':')[1]}`, '-E', `transport.port=${e.transport.split(':')[1]}`], { detached: true, stdio: 'ignore' });
  child.unref();
  node.pid = child.pid;
  // cluster.json names the new process, so `gannet cluster stop` ends it.
  const file = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8'));
  file.nodes.find((entry) => entry.name === node.name).pid = child.pid;
  writeFileSync(join(dir, 'cluster.json'), JSON.stringify(file, null, 2) + '\n');
  return child.pid;
}

/** The last JSON log line of `node` (its <path.logs>/<cluster>_server.json) that `match` accepts. */
function lastLogEvent(node, match) {
  const file = join(dir, node.name, 'logs', `${clusterFile.clusterName}_server.json`);
  if (!existsSync(file)) return undefined;
  let found;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes('"event"')) continue;
    try {
      const event = JSON.parse(line);
      if (match(event)) found = event;
    } catch {
      // a line being written
    }
  }
  return found;
}

/** Each copy's seq_no figures: [{shard, node, primary, max, local, global, docs}]. */
async function seqNoOfCopies(index, through = nodes.find((node) => !node.down)) {
  const stats = await call(through, 'GET', `/${index}/_stats?level=shards`);
  return Object.entries(stats.body.indices[index].shards).flatMap(([shard, copies]) => copies.map((copy) => ({
    shard: Number(shard), node: copy.routing.node, primary: copy.routing.primary, max: copy.seq_no.max_seq_no,
    local: copy.seq_no.local_checkpoint, global: copy.seq_no.global_checkpoint, docs: copy.docs.count,
  })));
}

/** Every entry of _recovery is finished and adds up, and _cat/recovery prints the same through every node. */
async function checkRecoveryReport(index, when) {
  const columns = 'shard,type,stage,source_node,target_node,files,files_recovered,files_total,bytes_total,bytes_recovered,translog_ops,translog_ops_recovered';
  const cats = [];
  for (const node of nodes) cats.push((await call(node, 'GET', `/_cat/recovery/${index}?v&bytes=b&h=${columns}&s=shard,target_node,source_node`)).text);
  check(cats.every((text) => text === cats[0]), `_cat/recovery/${index} ${when}: the same through every node`, cats.join('\n'));
  console.log(cats[0]);
  const rows = catRows(cats[0]).slice(1);
  const recovery = await call(nodes[2], 'GET', `/${index}/_recovery?detailed=true`);
  const entries = recovery.body[index]?.shards ?? [];
  const routing = await seqNoOfCopies(index);
  check(entries.length === routing.length && rows.length === entries.length, `_recovery ${when}: one entry per copy (${entries.length} entries, ${routing.length} copies, ${rows.length} rows)`);
  for (const entry of entries) {
    const files = entry.index.files;
    const size = entry.index.size;
    const ops = entry.translog;
    const details = files.details ?? [];
    const label = `shard ${entry.id} ${entry.type} ${entry.source?.name ?? 'n/a'} -> ${entry.target.name}`;
    const holds = routing.some((copy) => copy.shard === entry.id && copy.node === entry.target.id);
    check(holds && entry.stage === 'DONE', `${label}: ${entry.stage}, the copy is on its target`);
    const sums = files.recovered + files.reused === files.total && size.recovered_in_bytes + size.reused_in_bytes === size.total_in_bytes
      && details.length === files.total && details.reduce((sum, file) => sum + file.length_in_bytes, 0) === size.total_in_bytes
      && details.filter((file) => file.reused).length === files.reused && ops.recovered <= ops.total && ops.recovered >= 0;
    check(sums, `${label}: files ${files.recovered}+${files.reused}/${files.total}, bytes ${size.recovered_in_bytes}+${size.reused_in_bytes}/${size.total_in_bytes}, ops ${ops.recovered}/${ops.total}: the figures and file details add up`,
      JSON.stringify({ files: { ...files, details: details.length }, size, ops }));
    check(entry.type !== 'PEER' || (entry.source?.name !== undefined && entry.source.id !== entry.target.id), `${label}: a peer recovery names its source`);
    const row = rows.find((r) => r[0] === String(entry.id) && r[4] === entry.target.name && r[3] === (entry.source?.name ?? 'n/a'));
    const same = row !== undefined && row[1] === entry.type.toLowerCase() && row[2] === entry.stage.toLowerCase() && Number(row[5]) === files.total
      && Number(row[6]) === files.recovered && Number(row[8]) === size.total_in_bytes && Number(row[9]) === size.recovered_in_bytes && Number(row[10]) === ops.total && Number(row[11]) === ops.recovered;
    check(same, `${label}: its _cat/recovery row says what _recovery says`, row?.join(' '));
  }
}

async function walkRecovery() {
  await nodeIds();
  const index = 'walk-rep';
  await call(nodes[0], 'DELETE', `/${index}?ignore_unavailable=true`);
  const created = await call(nodes[0], 'PUT', `/${index}?wait_for_active_shards=all`, { settings: { number_of_shards: 3, number_of_replicas: 1, 'index.unassigned.node_left.delayed_timeout': '2m' } });
  check(created.status === 200, `PUT /${index} (3 shards, 1 replica)`, created.text);
  // Write 3,000 documents with files, so a recovery has a commit to compare against.
  for (let b = 0; b < 3; b++) {
    const lines = [];
    for (let i = b * 1000; i < (b + 1) * 1000; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i, v: 0, text: `document ${i}` }));
    await call(nodes[b], 'POST', `/${index}/_bulk`, lines.join('\n') + '\n');
  }
  await call(nodes[0], 'POST', `/${index}/_flush`);

  // The expected state: id -> v of the last acknowledged write (undefined after an acknowledged delete). Each writer
  // owns the ids of one residue mod 3 and sends one bulk at a time, so every id's writes are ordered; an id whose
  // last write was not acknowledged (an error, a timeout) has no certain state and is only compared copy to copy.
  const expected = new Map();
  for (let i = 0; i < 3000; i++) expected.set(String(i), 0);
  const uncertain = new Set();
  const victim = nodes[1];
  let stop = false;
  let acknowledged = 0;
  let failed = 0;
  const writer = async (w) => {
    let round = 0;
    while (!stop) {
      round++;
      const alive = nodes.filter((node) => !node.down);
      const through = alive[(round + w) % alive.length];
      const ops = [];
      const lines = [];
      for (let k = 0; k < 30; k++) {
        const id = String(((round * 37 + k * 101) % 1200) * 3 + w);
        if (ops.some((op) => op.id === id)) continue;
        const kind = (round + k) % 5;
        const v = w * 1_000_000 + round * 100 + k;
        if (kind === 0) {
          lines.push(JSON.stringify({ delete: { _id: id } }));
          ops.push({ id, v: undefined, kind: 'delete' });
        } else if (kind === 1) {
          lines.push(JSON.stringify({ update: { _id: id } }), JSON.stringify({ doc: { v }, doc_as_upsert: true }));
          ops.push({ id, v, kind: 'update' });
        } else {
          lines.push(JSON.stringify({ index: { _id: id } }), JSON.stringify({ n: Number(id), v, text: `document ${id} round ${round}` }));
          ops.push({ id, v, kind: 'index' });
        }
      }
      let answer;
      try {
        answer = await call(through, 'POST', `/${index}/_bulk?timeout=30s`, lines.join('\n') + '\n');
      } catch {
        answer = undefined;
      }
      if (answer?.status !== 200) {
        failed += ops.length;
        for (const op of ops) uncertain.add(op.id);
        if (answer === undefined) await sleep(200);
        continue;
      }
      for (const [k, item] of answer.body.items.entries()) {
        const result = Object.values(item)[0];
        const op = ops[k];
        // Acknowledged: a 2xx item (or a delete's 404: the document is absent either way).
        if (result.status < 300 || (op.kind === 'delete' && result.status === 404)) {
          expected.set(op.id, op.v);
          uncertain.delete(op.id);
          acknowledged++;
        } else {
          failed++;
          uncertain.add(op.id);
        }
      }
    }
  };
  const writers = [0, 1, 2].map((w) => writer(w));
  await sleep(2000);
  console.log(`# killing ${victim.name} (pid ${victim.pid}) with SIGKILL under the writes`);
  process.kill(victim.pid, 'SIGKILL');
  victim.down = true;
  await sleep(3000);
  const yellow = await call(nodes[0], 'GET', `/_cluster/health/${index}`);
  check(yellow.body.status !== 'red', `health after the kill is ${yellow.body.status}, not red (replicas promoted)`, yellow.text);
  restartNode(victim);
  await waitFor(`${victim.name} to answer again`, async () => (await call(victim, 'GET', '/').catch(() => ({ status: 0 }))).status === 200, 60_000, 300);
  victim.down = false;
  // Keep writing while the returning copies recover.
  await waitFor(`${index} green`, async () => (await call(nodes[0], 'GET', `/_cluster/health/${index}`)).body?.status === 'green', 120_000, 100).catch(() => undefined);
  await sleep(1000);
  stop = true;
  await Promise.all(writers);
  console.log(`# writes: ${acknowledged} acknowledged items, ${failed} not acknowledged (${uncertain.size} ids left uncertain)`);
  const green = await call(nodes[0], 'GET', `/_cluster/health/${index}?wait_for_status=green&timeout=60s`);
  check(green.body.status === 'green', `${index} green after ${victim.name} returned`, green.text);

  await call(nodes[0], 'GET', `/_cluster/health/${index}?wait_for_status=green&wait_for_no_relocating_shards=true&wait_for_no_initializing_shards=true&timeout=120s`);
  await checkRecoveryReport(index, 'after the kill under writes');

  // A node killed while nothing is written, written to while it is away and started within the delayed timeout:
  // it gets its copies back and recovers them by operations only; _recovery says how many, and that is exactly the
  // number of operations it missed.
  await nodeIds();
  const master = (await call(nodes[0], 'GET', '/_cat/master?h=node')).text.trim();
  const away = nodes.find((node) => node.name === master) ?? nodes[0];
  const beforeKill = await seqNoOfCopies(index);
  console.log(`# killing the master ${away.name} (pid ${away.pid}) with SIGKILL while idle`);
  process.kill(away.pid, 'SIGKILL');
  away.down = true;
  const alive = nodes.filter((node) => !node.down);
  await waitFor('the others to see it leave', async () => (await call(alive[0], 'GET', '/_cluster/health')).body?.number_of_nodes === 2, 60_000, 200);
  const lines = [];
  for (let i = 0; i < 300; i++) {
    const id = String(i * 3 + 1);
    lines.push(JSON.stringify({ index: { _id: id } }), JSON.stringify({ n: i, v: 5_000_000 + i, text: `written while ${away.name} was away` }));
  }
  const whileAway = await call(alive[0], 'POST', `/${index}/_bulk?timeout=60s`, lines.join('\n') + '\n');
  const acceptedWhileAway = whileAway.status === 200 && whileAway.body.items.every((item) => item.index.status < 300);
  check(acceptedWhileAway, `300 writes acknowledged through ${alive[0].name} while ${away.name} is away`, whileAway.text.slice(0, 400));
  if (acceptedWhileAway) for (let i = 0; i < 300; i++) (expected.set(String(i * 3 + 1), 5_000_000 + i), uncertain.delete(String(i * 3 + 1)));
  const primariesMax = await seqNoOfCopies(index, alive[0]);
  const startedAt = Date.now();
  restartNode(away);
  await waitFor(`${away.name} to answer again`, async () => (await call(away, 'GET', '/').catch(() => ({ status: 0 }))).status === 200, 60_000, 300);
  away.down = false;
  const backGreen = await call(alive[0], 'GET', `/_cluster/health/${index}?wait_for_status=green&wait_for_no_relocating_shards=true&wait_for_no_initializing_shards=true&timeout=120s`);
  check(backGreen.body.status === 'green', `${index} green ${Date.now() - startedAt} ms after ${away.name} was started again`, backGreen.text);
  await nodeIds();
  const recovered = (await call(alive[0], 'GET', `/${index}/_recovery`)).body[index].shards;
  // What the nodes logged they did (the target's local replay, the source's peer recovery) is what _recovery says.
  for (const copy of beforeKill.filter((c) => c.node === away.id)) {
    const entry = recovered.find((e) => e.id === copy.shard && e.target.id === away.id);
    const missed = primariesMax.find((c) => c.shard === copy.shard && c.primary).max - copy.max;
    if (!check(entry !== undefined, `shard ${copy.shard}: its copy is back on ${away.name}`, `the copy was ${copy.primary ? 'the primary' : 'a replica'}; now: ${JSON.stringify(recovered.filter((e) => e.id === copy.shard).map((e) => `${e.type} ${e.source?.name ?? 'n/a'}->${e.target.name}`))}`)) continue;
    const local = lastLogEvent(away, (event) => event.event === 'local_recovery' && event.index === index && event.shard === copy.shard);
    const source = nodes.find((node) => node.id === entry.source?.id);
    const done = source && lastLogEvent(source, (event) => event.event === 'peer_recovery_done' && event.index === index && event.shard === copy.shard && event.target === away.id);
    const logged = (local?.local_operations ?? 0) + (done?.operations ?? NaN);
    check(entry.type === 'PEER' && entry.stage === 'DONE' && entry.translog.recovered === logged && entry.index.files.recovered === done?.files,
      `shard ${copy.shard} back on ${away.name} (was ${copy.primary ? 'primary' : 'replica'}): PEER from ${source?.name}, ${entry.index.files.recovered} files and ${entry.translog.recovered} operations = ${local?.local_operations ?? 0} replayed locally + ${done?.operations} sent (it missed ${missed})`,
      JSON.stringify({ type: entry.type, stage: entry.stage, files: entry.index.files, translog: entry.translog, local: local?.msg, done: done?.msg }));
    check(entry.index.files.recovered === 0, `shard ${copy.shard} back on ${away.name}: operations only, no file copied`, `${entry.index.files.recovered} files copied: ${done?.msg}`);
  }
  await checkRecoveryReport(index, `after ${away.name} returned`);
  await call(alive[0], 'POST', `/${index}/_refresh`);

  // Every copy holds every acknowledged write: seq_no stats equal per shard, and each copy read alone.
  const stats = await call(nodes[2], 'GET', `/${index}/_stats?level=shards`);
  const shardCopies = new Map();
  for (const [shard, copies] of Object.entries(stats.body.indices[index].shards)) {
    shardCopies.set(Number(shard), copies.map((copy) => copy.routing.node));
    const seqs = copies.map((copy) => `${copy.routing.primary ? 'p' : 'r'}@${nodes.find((n) => n.id === copy.routing.node)?.name}:${copy.seq_no.max_seq_no}/${copy.seq_no.local_checkpoint}/${copy.seq_no.global_checkpoint} docs ${copy.docs.count}`);
    const equal = copies.length === 2 && copies.every((copy) => copy.seq_no.max_seq_no === copies[0].seq_no.max_seq_no && copy.seq_no.local_checkpoint === copy.seq_no.max_seq_no
      && copy.seq_no.global_checkpoint === copy.seq_no.max_seq_no && copy.docs.count === copies[0].docs.count);
    check(equal, `shard ${shard}: both copies at the same max_seq_no = local = global checkpoint and doc count (${seqs.join(', ')})`);
  }
  // Each copy read alone (preference=_shards:N|_only_nodes:<its node>): shard -> node id -> (id -> v).
  const readCopy = async (shard, nodeId) => {
    const docs = new Map();
    const through = nodes.find((node) => node.id === nodeId) ?? nodes[0];
    const preference = encodeURIComponent(`_shards:${shard}|_only_nodes:${nodeId}`);
    let page = await call(through, 'POST', `/${index}/_search?scroll=1m&preference=${preference}`, { size: 1000, sort: ['_doc'], _source: ['v'] });
    check(page.status === 200 && page.body._shards.successful === 1, `a scroll of shard ${shard}'s copy on ${through.name} alone`, page.text.slice(0, 300));
    while (page.body?.hits?.hits?.length > 0) {
      for (const hit of page.body.hits.hits) docs.set(hit._id, hit._source.v);
      page = await call(through, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: page.body._scroll_id });
    }
    if (page.body?._scroll_id) await call(through, 'DELETE', '/_search/scroll', { scroll_id: page.body._scroll_id });
    return docs;
  };
  const copiesOf = new Map();
  for (const [shard, copyNodes] of shardCopies) {
    const [a, b] = await Promise.all(copyNodes.map((nodeId) => readCopy(shard, nodeId)));
    copiesOf.set(shard, [a, b]);
    const differences = [];
    for (const [id, v] of a) if (b.get(id) !== v) differences.push(`${id}: ${v} vs ${b.get(id)}`);
    for (const [id, v] of b) if (!a.has(id)) differences.push(`${id}: missing vs ${v}`);
    check(differences.length === 0 && a.size > 0, `shard ${shard}: its two copies hold the same ${a.size} documents and versions`, differences.slice(0, 10).join('; '));
  }
  const mismatches = [];
  let compared = 0;
  for (const [id, v] of expected) {
    if (uncertain.has(id)) continue;
    compared++;
    const holding = [...copiesOf].filter(([, pair]) => pair.some((docs) => docs.has(id)));
    if (v === undefined) {
      if (holding.length > 0) mismatches.push(`${id}: present after its acknowledged delete`);
      continue;
    }
    if (holding.length !== 1) {
      mismatches.push(`${id}: acknowledged (v ${v}) but found in ${holding.length} shards`);
      continue;
    }
    for (const [n, docs] of holding[0][1].entries()) {
      if (docs.get(id) !== v) mismatches.push(`${id} in copy ${n} of shard ${holding[0][0]}: v ${docs.get(id)}, acknowledged ${v}`);
    }
  }
  check(mismatches.length === 0, `every copy holds every acknowledged write (${compared} ids with a certain state, ${uncertain.size} uncertain)`, mismatches.slice(0, 10).join('; '));
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * Peer recoveries per shard over the walk, from the nodes' logs (`peer_recovery_start` on the source): a shard the
 * balancer keeps moving between two nodes shows hundreds (seen: a one-replica shard moved ~4 times a second for two
 * minutes). A handful per shard is what creation, the kills, rebalancing after a node returns and resizes cause.
 */
function checkRelocationChurn(sinceMillis) {
  const counts = new Map();
  for (const node of nodes) {
    const file = join(dir, node.name, 'logs', `${clusterFile.clusterName}_server.json`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"peer_recovery_start"')) continue;
      try {
        const event = JSON.parse(line);
        if (Date.parse(event.time) < sinceMillis) continue;
        const key = `[${event.index}][${event.shard}]`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      } catch {
        // a line being written
      }
    }
  }
  const churning = [...counts].filter(([, count]) => count > 25).sort((a, b) => b[1] - a[1]);
  check(churning.length === 0, `no shard recovered more than 25 times during the walk (most: ${JSON.stringify([...counts].sort((a, b) => b[1] - a[1]).slice(0, 3))})`,
    `relocation churn: ${JSON.stringify(churning)}`);
}

const started = Date.now();
try {
  if (only.includes('api')) await walkApis();
  if (only.includes('ops')) await walkOps();
  if (only.includes('tasks')) await walkTasks();
  if (only.includes('recovery')) await walkRecovery();
  checkRelocationChurn(started);
} catch (error) {
  record(false, 'the walk stopped', error.stack ?? String(error));
}
const failures = results.filter((result) => !result.ok);
console.log(`\n# ${results.length} checks, ${failures.length} failed, ${Math.round((Date.now() - started) / 1000)} s`);
for (const failure of failures) console.log(`#   FAIL ${failure.label}`);
process.exit(failures.length > 0 ? 1 : 0);
