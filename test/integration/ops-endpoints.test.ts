/**
 * The endpoints ops tools call on a routine day, driven with curl as an operator types them: segments, the plural
 * mappings routes, `_resolve/index`, synced flush, index blocks, hot threads, rollover, shrink/split/clone, and
 * index allocation filtering honoured by the allocator.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';
import { curl } from '../helpers/curl.js';
import { threadsAtWorkerNice } from '../helpers/thread-nice.js';

let node: NodeProcess;
const JSON_HEADER = ['-H', 'Content-Type: application/json'];

before(async () => {
  node = await NodeProcess.start({ oneNode: "asserts one node's copies (unassigned replicas in _shards), pools, attributes, hot threads, and filters that exclude its only node", settings: { 'node.name': 'ops-node', 'node.attr.rack': 'r1', 'node.processors': '2' } });
});
after(async () => {
  await node.stop();
});

async function bulk(index: string, count: number, from = 0): Promise<void> {
  const lines: string[] = [];
  for (let i = from; i < from + count; i++) lines.push(JSON.stringify({ index: { _id: String(i) } }), JSON.stringify({ n: i, title: `doc ${i}` }));
  const answer = await node.request('POST', `/${index}/_bulk?refresh=true`, { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(answer.body.errors, false, answer.text);
}

test('GET /{index}/_segments and /_segments: ES shape, one entry per copy, segments with their counts', async () => {
  await curl(node.url, ['/seg', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_shards":2,"number_of_replicas":1}}']);
  await bulk('seg', 20);
  await curl(node.url, ['/seg/_flush', '-X', 'POST']);
  const answer = await curl(node.url, ['/seg/_segments']);
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body._shards, { total: 4, successful: 2, failed: 0 }, 'unassigned replicas count in total');
  const shards = answer.body.indices.seg.shards;
  assert.deepEqual(Object.keys(shards).sort(), ['0', '1']);
  let docs = 0;
  for (const copies of Object.values(shards) as any[]) {
    assert.equal(copies.length, 1);
    const copy = copies[0];
    assert.deepEqual(copy.routing, { state: 'STARTED', primary: true, node: node.nodeId });
    assert.equal(copy.num_search_segments, Object.keys(copy.segments).length);
    for (const segment of Object.values(copy.segments) as any[]) {
      assert.deepEqual(Object.keys(segment), ['generation', 'num_docs', 'deleted_docs', 'size_in_bytes', 'committed', 'search', 'version', 'compound']);
      assert.equal(segment.committed, true, 'flushed');
      docs += segment.num_docs;
    }
  }
  assert.equal(docs, 20);
  const all = await curl(node.url, ['/_segments?human']);
  assert.ok(all.body.indices.seg);
  const anySegment = Object.values(all.body.indices.seg.shards['0'][0].segments)[0] as any;
  assert.match(anySegment.size, /^\d+(\.\d+)?[kmg]?b$/);
  assert.equal((await curl(node.url, ['/missing/_segments'])).body.error.type, 'index_not_found_exception');
});

test('GET /_all/_mappings and the other plural mapping routes', async () => {
  const all = await curl(node.url, ['/_all/_mappings']);
  assert.equal(all.status, 200);
  assert.deepEqual(all.body.seg.mappings.properties.n, { type: 'long' });
  assert.deepEqual((await curl(node.url, ['/_mappings'])).body, all.body);
  assert.deepEqual((await curl(node.url, ['/seg/_mappings'])).body, { seg: all.body.seg });
  const put = await curl(node.url, ['/seg/_mappings', '-X', 'PUT', ...JSON_HEADER, '-d', '{"properties":{"tag":{"type":"keyword"}}}']);
  assert.deepEqual(put.body, { acknowledged: true });
});

test('GET /_resolve/index/{name}: indices with aliases and attributes, aliases with indices, no data streams', async () => {
  await curl(node.url, ['/res-a', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0},"aliases":{"res":{}}}']);
  await curl(node.url, ['/res-b', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0,"index.hidden":true},"aliases":{"res":{}}}']);
  await curl(node.url, ['/res-b/_close', '-X', 'POST']);
  const answer = await curl(node.url, ['/_resolve/index/res*?expand_wildcards=all']);
  assert.deepEqual(answer.body, {
    indices: [
      { name: 'res-a', aliases: ['res'], attributes: ['open'] },
      { name: 'res-b', aliases: ['res'], attributes: ['closed', 'hidden'] },
    ],
    aliases: [{ name: 'res', indices: ['res-a', 'res-b'] }],
    data_streams: [],
  });
  const open = await curl(node.url, ['/_resolve/index/res*']);
  assert.deepEqual(open.body.indices.map((index: { name: string }) => index.name), ['res-a']);
  const missing = await curl(node.url, ['/_resolve/index/nope']);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.type, 'index_not_found_exception');
  assert.deepEqual((await curl(node.url, ['/_resolve/index/nope?ignore_unavailable=true'])).body, { indices: [], aliases: [], data_streams: [] });
});

test('POST /_flush/synced answers as ES 7 did, with the deprecation warning', async () => {
  const answer = await curl(node.url, ['/seg/_flush/synced', '-X', 'POST', '-D', '-']);
  assert.equal(answer.status, 200);
  assert.match(answer.text, /^Warning: 299 Elasticsearch-\S+ "Synced flush is deprecated and will be removed in 8\.0\. Use flush at \/_flush or \/\{index\}\/_flush instead\."/m);
  const body = JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4));
  assert.deepEqual(body, { _shards: { total: 4, successful: 2, failed: 0 }, seg: { total: 4, successful: 2, failed: 0 } });
  assert.equal((await curl(node.url, ['/_flush/synced'])).status, 200, 'GET and every index');
});

test('PUT /{index}/_block/{block}: the block acts at once with ES messages; wildcards need destructive_requires_name false', async () => {
  await curl(node.url, ['/blk', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0}}']);
  const added = await curl(node.url, ['/blk/_block/write', '-X', 'PUT']);
  assert.deepEqual(added.body, { acknowledged: true, shards_acknowledged: true, indices: [{ name: 'blk', blocked: true }] });
  const write = await curl(node.url, ['/blk/_doc/1', '-X', 'PUT', ...JSON_HEADER, '-d', '{"a":1}']);
  assert.equal(write.status, 403);
  assert.equal(write.body.error.reason, 'index [blk] blocked by: [FORBIDDEN/8/index write (api)];');
  assert.equal((await curl(node.url, ['/blk/_settings/index.blocks.write?flat_settings'])).body.blk.settings['index.blocks.write'], 'true');
  assert.equal((await curl(node.url, ['/blk/_block/read', '-X', 'PUT'])).status, 200);
  assert.equal((await curl(node.url, ['/blk/_search'])).body.error.reason, 'index [blk] blocked by: [FORBIDDEN/7/index read (api)];');
  const unknown = await curl(node.url, ['/blk/_block/frozen', '-X', 'PUT']);
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.reason, 'No block found with name frozen');
  const wildcard = await curl(node.url, ['/bl*/_block/metadata', '-X', 'PUT']);
  assert.equal(wildcard.body.error.reason, 'Wildcard expressions or all indices are not allowed');
  assert.equal((await curl(node.url, ['/nope/_block/write', '-X', 'PUT'])).status, 404);
});

test('GET /_nodes/hot_threads: the event loop\'s busy share and hottest stacks, as text', async () => {
  // Keep the event loop busy while it is sampled.
  let searching = true;
  const load = (async () => {
    while (searching) await node.request('POST', '/seg/_search', { body: { query: { match: { title: 'doc' } }, aggs: { n: { terms: { field: 'n' } } } } });
  })();
  const answer = await curl(node.url, ['/_nodes/hot_threads?interval=500ms&threads=2']);
  searching = false;
  await load;
  assert.equal(answer.status, 200);
  const lines = answer.text.split('\n');
  assert.match(lines[0]!, new RegExp(`^::: \\{ops-node\\}\\{${node.nodeId}\\}\\{[^}]+\\}\\{127\\.0\\.0\\.1\\}\\{127\\.0\\.0\\.1:\\d+\\}\\{[a-z]+\\}\\{rack=r1\\}$`));
  assert.match(lines[1]!, /^ {3}Hot threads at \d{4}-\d\d-\d\dT[\d:.]+Z, interval=500ms, busiestThreads=2, ignoreIdleThreads=true:$/);
  const usage = lines.find((line) => line.includes("cpu usage by thread 'gannet[ops-node][event_loop]'"));
  assert.ok(usage, answer.text);
  assert.match(usage, /^ {3} *\d+\.\d% \[cpu= *\d+\.\d%, other= 0\.0%\] \(\S+ out of 500ms\) cpu usage by thread/);
  const stacks = lines.filter((line) => / samples in .*, most often reached through these \d+ elements$/.test(line));
  assert.ok(stacks.length >= 1 && stacks.length <= 2, answer.text);
  assert.ok(lines.some((line) => line.includes('worker threads (indexing, segment writes, merges)')));
  const wait = await curl(node.url, ['/_nodes/_local/hot_threads?type=wait']);
  assert.match(wait.text, /\[wait\] is not measured by Gannet/);
  assert.equal((await curl(node.url, ['/_nodes/hot_threads?type=gpu'])).body.error.reason, 'type not supported [gpu]');
});

test('POST /{alias}/_rollover: conditions, the generated name, the alias moved in one step, dry_run', async () => {
  await curl(node.url, ['/app-000001', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0},"aliases":{"app":{"is_write_index":true}}}']);
  await bulk('app', 3);
  const notYet = await curl(node.url, ['/app/_rollover', '-X', 'POST', ...JSON_HEADER, '-d', '{"conditions":{"max_docs":10,"max_age":"90m","max_size":"5gb"}}']);
  assert.deepEqual(notYet.body, {
    acknowledged: false,
    shards_acknowledged: false,
    old_index: 'app-000001',
    new_index: 'app-000002',
    rolled_over: false,
    dry_run: false,
    lazy: false,
    conditions: { '[max_docs: 10]': false, '[max_age: 1.5h]': false, '[max_size: 5gb]': false },
  });
  const dry = await curl(node.url, ['/app/_rollover?dry_run=true', '-X', 'POST', ...JSON_HEADER, '-d', '{"conditions":{"max_docs":3}}']);
  assert.equal(dry.body.rolled_over, false);
  assert.equal(dry.body.dry_run, true);
  assert.equal(dry.body.conditions['[max_docs: 3]'], true);
  assert.equal((await curl(node.url, ['/app-000002'])).status, 404, 'a dry run changes nothing');
  const rolled = await curl(node.url, ['/app/_rollover', '-X', 'POST', ...JSON_HEADER, '-d', '{"conditions":{"max_docs":3},"settings":{"index.number_of_replicas":0}}']);
  assert.equal(rolled.body.rolled_over, true, rolled.text);
  assert.equal(rolled.body.acknowledged, true);
  assert.equal(rolled.body.new_index, 'app-000002');
  assert.deepEqual((await curl(node.url, ['/_alias/app'])).body, {
    'app-000001': { aliases: { app: { is_write_index: false } } },
    'app-000002': { aliases: { app: { is_write_index: true } } },
  });
  // Writes through the alias go to the new index.
  await curl(node.url, ['/app/_doc/new?refresh=true', '-X', 'PUT', ...JSON_HEADER, '-d', '{"n":99}']);
  assert.equal((await curl(node.url, ['/app-000002/_count'])).body.count, 1);
  const named = await curl(node.url, ['/app/_rollover/app-next', '-X', 'POST']);
  assert.equal(named.body.new_index, 'app-next');
  assert.equal(named.body.rolled_over, true);
  // ES's refusals.
  assert.equal((await curl(node.url, ['/app-000001/_rollover', '-X', 'POST'])).body.error.reason, 'rollover target is a [concrete index] but one of [alias,data_stream] was expected');
  const missing = await curl(node.url, ['/ghost/_rollover', '-X', 'POST']);
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.reason, 'rollover target [ghost] does not exist');
  await curl(node.url, ['/plain', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0},"aliases":{"plain-alias":{}}}']);
  assert.equal((await curl(node.url, ['/plain-alias/_rollover', '-X', 'POST'])).body.error.reason, "index name [plain] does not match pattern '^.*-\\d+$'");
  const minOnly = await curl(node.url, ['/app/_rollover', '-X', 'POST', ...JSON_HEADER, '-d', '{"conditions":{"min_docs":1}}']);
  assert.equal(minOnly.body.error.reason, 'Validation Failed: 1: at least one max_* rollover condition must be set when using min_* conditions;');
});

test('shrink, split and clone: ES checks and messages, every document on the shard ES would put it, versions kept', async () => {
  await curl(node.url, ['/big-src', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_shards":4,"number_of_replicas":0},"mappings":{"properties":{"title":{"type":"text"}}}}']);
  await bulk('big-src', 60);
  await curl(node.url, ['/big-src/_doc/7', '-X', 'PUT', ...JSON_HEADER, '-d', '{"n":7,"title":"doc 7 again"}']);
  const notReadOnly = await curl(node.url, ['/big-src/_shrink/small', '-X', 'POST']);
  assert.equal(notReadOnly.status, 500);
  assert.equal(notReadOnly.body.error.type, 'illegal_state_exception');
  assert.equal(notReadOnly.body.error.reason, 'index big-src must be read-only to resize index. use "index.blocks.write=true"');
  await curl(node.url, ['/big-src/_block/write', '-X', 'PUT']);

  const shrunk = await curl(node.url, ['/big-src/_shrink/small', '-X', 'POST', ...JSON_HEADER, '-d', '{"settings":{"index.number_of_shards":2,"index.number_of_replicas":0}}']);
  assert.deepEqual(shrunk.body, { acknowledged: true, shards_acknowledged: true, index: 'small' });
  const split = await curl(node.url, ['/big-src/_split/large', '-X', 'POST', ...JSON_HEADER, '-d', '{"settings":{"index.number_of_shards":8,"index.number_of_replicas":0,"index.blocks.write":null}}']);
  assert.equal(split.body.acknowledged, true, split.text);
  const cloned = await curl(node.url, ['/big-src/_clone/twin', '-X', 'PUT']);
  assert.equal(cloned.body.acknowledged, true, cloned.text);

  for (const [index, shards] of [['small', 2], ['large', 8], ['twin', 4]] as const) {
    const settings = (await curl(node.url, [`/${index}/_settings?flat_settings`])).body[index].settings;
    assert.equal(settings['index.number_of_shards'], String(shards));
    assert.equal(settings['index.resize.source.name'], 'big-src');
    assert.equal((await curl(node.url, [`/${index}/_count`])).body.count, 60, index);
    assert.deepEqual((await curl(node.url, [`/${index}/_mapping`])).body[index].mappings, (await curl(node.url, ['/big-src/_mapping'])).body['big-src'].mappings);
    const doc = (await curl(node.url, [`/${index}/_doc/7`])).body;
    assert.equal(doc._version, 2, 'the version survives the resize');
    assert.equal(doc._source.title, 'doc 7 again');
  }
  // Every id is found by a get on the target (its shard comes from the target's routing).
  for (let i = 0; i < 60; i += 7) assert.equal((await curl(node.url, [`/large/_doc/${i}`])).body.found, true, `large ${i}`);
  // The copied write block: kept on the shrink and clone targets, cleared where the request said null.
  assert.equal((await curl(node.url, ['/twin/_doc/x', '-X', 'PUT', ...JSON_HEADER, '-d', '{}'])).status, 403);
  assert.equal((await curl(node.url, ['/large/_doc/x', '-X', 'PUT', ...JSON_HEADER, '-d', '{}'])).status, 201);

  const refusals: Array<[string[], number, string]> = [
    [['/big-src/_split/bad', '-X', 'POST', ...JSON_HEADER, '-d', '{"settings":{"index.number_of_shards":6}}'], 400, 'the number of source shards [4] must be a factor of [6]'],
    [['/big-src/_shrink/bad', '-X', 'POST', ...JSON_HEADER, '-d', '{"settings":{"index.number_of_shards":3}}'], 400, 'the number of source shards [4] must be a multiple of [3]'],
    [['/big-src/_clone/bad', '-X', 'POST', ...JSON_HEADER, '-d', '{"settings":{"index.number_of_shards":2}}'], 400, 'the number of target shards (2) must be the same as the source shards (4)'],
    [['/big-src/_split/bad', '-X', 'POST'], 400, 'Validation Failed: 1: index.number_of_shards is required for split operations;'],
    [['/big-src/_clone/bad', '-X', 'POST', ...JSON_HEADER, '-d', '{"mappings":{"properties":{"x":{"type":"long"}}}}'], 400, 'mappings are not allowed when resizing indices, all mappings are copied from the source index'],
  ];
  for (const [args, status, reason] of refusals) {
    const answer = await curl(node.url, args);
    assert.equal(answer.status, status, args.join(' '));
    assert.equal(answer.body.error.reason, reason);
  }
  assert.equal((await curl(node.url, ['/big-src/_clone/twin', '-X', 'POST'])).body.error.type, 'resource_already_exists_exception');
});

test('index allocation filters are honoured: no matching node leaves the shards unassigned (red), a matching one allocates', async () => {
  // `timeout` bounds the wait for active shards (as ES's ackTimeout does): a shard that cannot start is known at once.
  const create = await curl(node.url, ['/placed?timeout=1s', '-X', 'PUT', ...JSON_HEADER, '-d', '{"settings":{"number_of_replicas":0,"index.routing.allocation.require.rack":"r2"}}']);
  assert.equal(create.body.shards_acknowledged, false);
  const shards = await curl(node.url, ['/_cat/shards/placed?h=state']);
  assert.equal(shards.text.trim(), 'UNASSIGNED');
  assert.equal((await curl(node.url, ['/_cluster/health/placed'])).body.status, 'red');
  // Another attribute of the node, by wildcard: it qualifies now and the shard starts.
  await curl(node.url, ['/placed/_settings', '-X', 'PUT', ...JSON_HEADER, '-d', '{"index.routing.allocation.require.rack":"r*"}']);
  assert.equal((await curl(node.url, ['/_cluster/health/placed?wait_for_status=green&timeout=20s'])).body.status, 'green');
  // exclude by name and include by a non-matching id keep a new index off this node as well.
  for (const filter of ['"index.routing.allocation.exclude._name":"ops-node"', '"index.routing.allocation.include._id":"someone-else"']) {
    const name = `placed-${filter.includes('exclude') ? 'x' : 'i'}`;
    await curl(node.url, [`/${name}?timeout=1s`, '-X', 'PUT', ...JSON_HEADER, '-d', `{"settings":{"number_of_replicas":0,${filter}}}`]);
    assert.equal((await curl(node.url, [`/_cat/shards/${name}?h=state`])).text.trim(), 'UNASSIGNED', filter);
  }
  await curl(node.url, ['/placed-i/_settings', '-X', 'PUT', ...JSON_HEADER, '-d', `{"index.routing.allocation.include._id":"${node.nodeId},someone-else"}`]);
  assert.equal((await curl(node.url, ['/_cluster/health/placed-i?wait_for_status=green&timeout=20s'])).body.status, 'green');
});

test('a shard copy of a node with node.processors 2 inverts and writes every buffer in one indexing worker (decision 0028)', { skip: process.platform !== 'linux' ? 'thread priorities are read from /proc on Linux only' : false }, async () => {
  assert.equal((await node.request('PUT', '/one-worker', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } })).status, 200);
  try {
    const before = threadsAtWorkerNice(node.child.pid!);
    // Two buffers written as segments: with two workers per copy, each would have started one.
    for (const id of ['1', '2']) assert.equal((await node.request('PUT', `/one-worker/_doc/${id}?refresh=true`, { body: { text: `document ${id}` } })).status, 201);
    assert.equal(threadsAtWorkerNice(node.child.pid!), before + 1);
    assert.equal((await node.request('GET', '/one-worker/_count')).body.count, 2);
  } finally {
    await node.request('DELETE', '/one-worker');
  }
});

test('GET /_cat/thread_pool: ES columns, one row per pool of the node, ES sizes, the counts nodes stats prints', async () => {
  const table = await curl(node.url, ['/_cat/thread_pool?v']);
  assert.equal(table.status, 200);
  const lines = table.text.trim().split('\n');
  assert.match(lines[0]!, /^node_name +name +active +queue +rejected$/);
  const names = lines.slice(1).map((line) => line.split(/\s+/)[1]);
  for (const pool of ['get', 'management', 'search', 'write']) assert.ok(names.includes(pool), `${pool} in ${names.join(',')}`);
  assert.deepEqual([...names].sort(), names, 'pools in name order');
  assert.ok(lines.slice(1).every((line) => line.startsWith('ops-node ')));
  const searches = async () => {
    const rows = (await curl(node.url, ['/_cat/thread_pool/search?format=json&h=name,active,completed,queue_size,pool_size,type'])).body;
    assert.equal(rows.length, 1);
    return rows[0];
  };
  const before = await searches();
  assert.deepEqual(Object.keys(before), ['name', 'active', 'completed', 'queue_size', 'pool_size', 'type']);
  await curl(node.url, ['/seg/_search']);
  const after = await searches();
  assert.ok(Number(after.completed) > Number(before.completed), `completed ${before.completed} -> ${after.completed}`);
  const wildcard = (await curl(node.url, ['/_cat/thread_pool/s*,w*?h=name&format=json'])).body.map((row: { name: string }) => row.name);
  assert.ok(wildcard.every((name: string) => name.startsWith('s') || name.startsWith('w')) && wildcard.includes('write'));
  // The node's real pools, sized as ES sizes them for 2 processors (ThreadPool: search int(2*3/2)+1, write 2).
  const config = (await curl(node.url, ['/_cat/thread_pool?format=json&h=name,type,size,queue_size,core,max,keep_alive'])).body as Array<Record<string, string | null>>;
  const pool = (name: string) => config.find((row) => row.name === name);
  assert.deepEqual(pool('search'), { name: 'search', type: 'fixed', size: '4', queue_size: '1000', core: null, max: null, keep_alive: null });
  assert.deepEqual(pool('write'), { name: 'write', type: 'fixed', size: '2', queue_size: '10000', core: null, max: null, keep_alive: null });
  assert.deepEqual(pool('management'), { name: 'management', type: 'scaling', size: null, queue_size: null, core: '1', max: '2', keep_alive: '5m' });
  assert.equal(pool('force_merge')!.queue_size, '-1', 'an unbounded fixed queue is -1');
  // The same counts as nodes stats: a get runs on the get pool, once.
  await curl(node.url, ['/seg/_doc/1']);
  const catGet = (await curl(node.url, ['/_cat/thread_pool/get?format=json&h=completed,rejected,largest,pool_size'])).body[0];
  const statsGet = Object.values((await curl(node.url, ['/_nodes/_local/stats/thread_pool'])).body.nodes as Record<string, any>)[0].thread_pool.get;
  assert.deepEqual(catGet, { completed: String(statsGet.completed), rejected: String(statsGet.rejected), largest: String(statsGet.largest), pool_size: String(statsGet.threads) });
  assert.ok(statsGet.completed >= 1);
  const help = await curl(node.url, ['/_cat/thread_pool?help']);
  assert.match(help.text, /^keep_alive +\| ka +\| thread keep alive time *$/m);
});

test('GET /_cat/nodeattrs: one row per node attribute, ES columns, full_id', async () => {
  const table = await curl(node.url, ['/_cat/nodeattrs?v']);
  assert.equal(table.status, 200, table.text);
  const lines = table.text.trim().split('\n');
  assert.match(lines[0]!, /^node +host +ip +attr +value$/);
  assert.equal(lines.length, 2, 'the one attribute the node was started with');
  assert.match(lines[1]!, /^ops-node +\S+ +127\.0\.0\.1 +rack +r1$/);
  const rows = (await curl(node.url, ['/_cat/nodeattrs?format=json&h=id,attr.name,attr.value,port&full_id=true'])).body;
  const port = (await curl(node.url, ['/_cat/nodes?format=json&h=port'])).body[0].port;
  assert.deepEqual(rows, [{ id: node.nodeId, 'attr.name': 'rack', 'attr.value': 'r1', port }], 'an alias in h names its JSON key, as ES prints it');
  assert.equal((await curl(node.url, ['/_cat/nodeattrs?format=json&h=id'])).body[0].id, node.nodeId.slice(0, 4));
  assert.match((await curl(node.url, ['/_cat'])).text, /^\/_cat\/nodeattrs$/m);
});

test('GET /_cat/component_templates: counts per component template and the index templates composed of it', async () => {
  const put = (path: string, body: object) => curl(node.url, [path, '-X', 'PUT', ...JSON_HEADER, '-d', JSON.stringify(body)]);
  assert.equal((await put('/_component_template/ct-mappings', { version: 3, template: { mappings: { dynamic: false, properties: { a: { type: 'keyword' }, b: { type: 'long' } } } }, _meta: { team: 'ops', tier: 1 } })).status, 200);
  assert.equal((await put('/_component_template/ct-settings', { template: { settings: { number_of_shards: 1, 'index.refresh_interval': '5s' }, aliases: { 'ct-alias': {} } } })).status, 200);
  assert.equal((await put('/_index_template/it-b', { index_patterns: ['ctb-*'], composed_of: ['ct-mappings', 'ct-settings'] })).status, 200);
  assert.equal((await put('/_index_template/it-a', { index_patterns: ['cta-*'], composed_of: ['ct-mappings'] })).status, 200);
  const table = await curl(node.url, ['/_cat/component_templates/ct-*?v']);
  assert.equal(table.status, 200, table.text);
  const lines = table.text.trim().split('\n');
  assert.match(lines[0]!, /^name +version +alias_count +mapping_count +settings_count +metadata_count +included_in$/);
  const rows = (await curl(node.url, ['/_cat/component_templates/ct-*?format=json'])).body;
  assert.deepEqual(rows, [
    // mapping_count as ES counts it: `dynamic` 1, `properties` its 2 fields.
    { name: 'ct-mappings', version: '3', alias_count: '0', mapping_count: '3', settings_count: '0', metadata_count: '2', included_in: '[it-a, it-b]' },
    { name: 'ct-settings', version: null, alias_count: '1', mapping_count: '0', settings_count: '2', metadata_count: '0', included_in: '[it-b]' },
  ]);
  assert.deepEqual((await curl(node.url, ['/_cat/component_templates/nothing*?format=json'])).body, []);
  assert.match((await curl(node.url, ['/_cat'])).text, /^\/_cat\/component_templates$/m);
});
