/**
 * Index aliases against a real node, after rest-api-spec's indices.update_aliases, indices.put_alias,
 * indices.get_alias, indices.delete_alias, indices.exists_alias and cat.aliases YAML tests: the APIs' shapes and
 * errors, and aliases as targets of searches (filters, search routing), writes (write index, index routing) and reads.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'aliases-node' } });
});
after(async () => {
  await node.stop();
});

async function createIndex(name: string, body: Record<string, unknown> = {}): Promise<void> {
  const res = await node.request('PUT', `/${name}`, { body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, ...body } });
  assert.equal(res.status, 200, res.text);
}

async function deleteIndex(name: string): Promise<void> {
  await node.request('DELETE', `/${name}`);
}

test('update_aliases: add with routing and filter, get it back, exists', async () => {
  await createIndex('ua_index');
  assert.equal((await node.request('HEAD', '/_alias/ua_alias')).status, 404);
  const res = await node.request('POST', '/_aliases', {
    body: { actions: [{ add: { index: 'ua_index', alias: 'ua_alias', routing: 'routing_value', filter: { ids: { values: ['1', '2', '3'] } } } }] },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.text, '{"acknowledged":true,"errors":false}');
  assert.equal((await node.request('HEAD', '/_alias/ua_alias')).status, 200);
  const got = await node.request('GET', '/ua_index/_alias/ua_alias');
  assert.deepEqual(got.body, {
    ua_index: { aliases: { ua_alias: { filter: { ids: { values: ['1', '2', '3'] } }, index_routing: 'routing_value', search_routing: 'routing_value' } } },
  });
  await deleteIndex('ua_index');
  assert.equal((await node.request('HEAD', '/_alias/ua_alias')).status, 404, 'deleting the index removes its aliases');
});

test('update_aliases: several aliases, remove and add in one request, must_exist', async () => {
  await createIndex('multi');
  await node.request('POST', '/_aliases', { body: { actions: [{ add: { indices: ['multi'], aliases: ['m1', 'm2'], routing: 'r' } }] } });
  const got = await node.request('GET', '/multi/_alias');
  assert.deepEqual(got.body, { multi: { aliases: { m1: { index_routing: 'r', search_routing: 'r' }, m2: { index_routing: 'r', search_routing: 'r' } } } });

  await node.request('POST', '/_aliases', { body: { actions: [{ remove: { index: 'multi', alias: 'm1' } }, { add: { index: 'multi', alias: 'm3' } }] } });
  assert.deepEqual(Object.keys((await node.request('GET', '/multi/_alias')).body.multi.aliases), ['m2', 'm3']);

  // must_exist: a required alias that is gone fails the whole request (nothing applied).
  const missing = await node.request('POST', '/_aliases', {
    body: { actions: [{ remove: { index: 'multi', alias: 'm1', must_exist: true } }, { add: { index: 'multi', alias: 'm4' } }] },
  });
  assert.equal(missing.status, 404, missing.text);
  assert.equal(missing.body.error.type, 'resource_not_found_exception');
  assert.equal(missing.body.error.reason, 'required alias [m1] does not exist');
  assert.equal((await node.request('HEAD', '/_alias/m4')).status, 404);

  // must_exist is only for remove.
  const badAdd = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: 'multi', alias: 'x', must_exist: true } }] } });
  assert.equal(badAdd.status, 400);
  const badRemoveIndex = await node.request('POST', '/_aliases', { body: { actions: [{ remove_index: { index: 'multi', must_exist: true } }] } });
  assert.equal(badRemoveIndex.status, 400);

  // A removal that finds nothing beside one that works: errors and per-action results (8.14+).
  const partial = await node.request('POST', '/_aliases', {
    body: { actions: [{ add: { index: 'mult*', aliases: 'm5' } }, { remove: { index: 'mult*', aliases: 'not_there' } }] },
  });
  assert.equal(partial.status, 200, partial.text);
  assert.equal(partial.body.errors, true);
  assert.deepEqual(partial.body.action_results[0], { action: { type: 'add', indices: ['mult*'], aliases: ['m5'] }, status: 200 });
  assert.deepEqual(partial.body.action_results[1].action, { type: 'remove', indices: ['mult*'], aliases: ['not_there'] });
  assert.equal(partial.body.action_results[1].status, 404);
  assert.deepEqual(partial.body.action_results[1].error, { type: 'aliases_not_found_exception', reason: 'aliases [not_there] missing', 'resource.type': 'aliases', 'resource.id': 'not_there' });

  // Only removals that find nothing: the request is a 404 aliases_not_found_exception.
  const none = await node.request('POST', '/_aliases', { body: { actions: [{ remove: { index: 'multi', alias: 'nope' } }] } });
  assert.equal(none.status, 404);
  assert.equal(none.body.error.type, 'aliases_not_found_exception');
  assert.equal(none.body.error.reason, 'aliases [nope] missing');
  await deleteIndex('multi');
});

test('update_aliases: request validation as ES words it', async () => {
  await createIndex('val');
  const cases: Array<[unknown, number, string, string]> = [
    [{ actions: [] }, 400, 'illegal_argument_exception', 'No action specified'],
    [{ actions: [{ add: { alias: 'a' } }] }, 400, 'illegal_argument_exception', 'One of [index] or [indices] is required'],
    [{ actions: [{ add: { index: 'val' } }] }, 400, 'illegal_argument_exception', 'One of [alias] or [aliases] is required'],
    [{ actions: [{ add: { index: 'val', indices: ['val'], alias: 'a' } }] }, 400, 'illegal_argument_exception', 'Only one of [index] and [indices] is supported'],
    [{ actions: [{ add: { index: 'val', alias: 'a', aliases: ['b'] } }] }, 400, 'illegal_argument_exception', 'Only one of [alias] and [aliases] is supported'],
    [{ actions: [{ add: { index: 'val', alias: 'a' }, remove: { index: 'val', alias: 'a' } }] }, 400, 'illegal_argument_exception', 'Too many operations declared on operation entry'],
    [{ actions: [{ add: { index: '', alias: 'a' } }] }, 400, 'illegal_argument_exception', "[index] can't be empty string"],
    [{ actions: [{ remove_index: { index: 'val', alias: 'a' } }] }, 400, 'illegal_argument_exception', '[alias] is unsupported for [REMOVE_INDEX]'],
    [{ actions: [{ add: { index: 'val', alias: 'val' } }] }, 400, 'invalid_alias_name_exception', 'Invalid alias name [val]: an index or data stream exists with the same name as the alias'],
    [{ actions: [{ add: { index: 'val', alias: '_bad' } }] }, 400, 'invalid_alias_name_exception', "Invalid alias name [_bad]: must not start with '_', '-', or '+'"],
    [{ actions: [{ add: { index: 'val', alias: 'a', index_routing: '1,2' } }] }, 400, 'illegal_argument_exception', 'alias [a] has several index routing values associated with it'],
    [{ actions: [{ add: { index: 'missing_index', alias: 'a' } }] }, 404, 'index_not_found_exception', 'no such index [missing_index]'],
    [{ actions: [{ add: { index: 'val', alias: 'a', filter: { no_such_query: {} } } }] }, 400, 'illegal_argument_exception', 'failed to parse filter for alias [a]'],
  ];
  for (const [body, status, type, reason] of cases) {
    const res = await node.request('POST', '/_aliases', { body });
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.type, type, JSON.stringify(body));
    assert.equal(res.body.error.reason, reason, JSON.stringify(body));
  }
  // An alias used as an action's index: expressions resolve against indices only.
  await node.request('PUT', '/val/_alias/val_alias');
  const throughAlias = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: 'val_alias', alias: 'other' } }] } });
  assert.equal(throughAlias.status, 400);
  assert.equal(throughAlias.body.error.reason, 'The provided expression [val_alias] matches an alias, specify the corresponding concrete indices instead.');
  // An index cannot take an alias's name.
  const clash = await node.request('PUT', '/val_alias');
  assert.equal(clash.status, 400);
  assert.equal(clash.body.error.type, 'invalid_index_name_exception');
  assert.equal(clash.body.error.reason, 'Invalid index name [val_alias], already exists as alias');
  await deleteIndex('val');
});

test('remove_index replaces an index with an alias of the same name in one step', async () => {
  await createIndex('old_name');
  await createIndex('new_home');
  const res = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: 'new_home', alias: 'old_name' } }, { remove_index: { index: 'old_name' } }] } });
  assert.equal(res.status, 200, res.text);
  assert.equal((await node.request('HEAD', '/_alias/old_name')).status, 200);
  assert.deepEqual(Object.keys((await node.request('GET', '/old_name')).body), ['new_home']);
  await deleteIndex('new_home');
});

test('put_alias and delete_alias: every path form, body overrides, errors', async () => {
  await createIndex('pa1');
  await createIndex('pa2');
  for (const [method, path] of [
    ['PUT', '/pa1/_alias/p_a'],
    ['POST', '/pa1/_aliases/p_b'],
    ['PUT', '/pa1,pa2/_alias/p_c'],
  ] as const) {
    const res = await node.request(method, path);
    assert.equal(res.status, 200, `${method} ${path}: ${res.text}`);
    assert.equal(res.text, '{"acknowledged":true,"errors":false}');
  }
  const viaBody = await node.request('PUT', '/_alias/p_d', { body: { index: 'pa2', routing: 5, is_write_index: true, filter: { term: { user: 'kimchy' } } } });
  assert.equal(viaBody.status, 200, viaBody.text);
  assert.deepEqual((await node.request('GET', '/pa2/_alias/p_d')).body, {
    pa2: { aliases: { p_d: { filter: { term: { user: 'kimchy' } }, index_routing: '5', search_routing: '5', is_write_index: true } } },
  });
  const unsupported = await node.request('PUT', '/pa1/_alias/p_e', { body: { is_hidden: true } });
  assert.equal(unsupported.status, 400);
  assert.equal(unsupported.body.error.reason, 'Unsupported field [is_hidden]');
  const noIndex = await node.request('PUT', '/_alias/p_f');
  assert.equal(noIndex.status, 400);
  assert.equal(noIndex.body.error.reason, "[indices] can't be empty");

  assert.equal((await node.request('DELETE', '/pa1,pa2/_alias/p_c')).status, 200);
  assert.equal((await node.request('HEAD', '/_alias/p_c')).status, 404);
  assert.equal((await node.request('DELETE', '/pa1/_aliases/p_*')).status, 200);
  assert.equal((await node.request('HEAD', '/pa1/_alias/p_a')).status, 404);
  const gone = await node.request('DELETE', '/pa1/_alias/p_a');
  assert.equal(gone.status, 404);
  assert.deepEqual(gone.body, {
    error: {
      root_cause: [{ type: 'aliases_not_found_exception', reason: 'aliases [p_a] missing', 'resource.type': 'aliases', 'resource.id': 'p_a' }],
      type: 'aliases_not_found_exception',
      reason: 'aliases [p_a] missing',
      'resource.type': 'aliases',
      'resource.id': 'p_a',
    },
    status: 404,
  });
  await deleteIndex('pa1');
  await deleteIndex('pa2');
});

test('get_alias: all forms, wildcards, exclusions and the 404 body that keeps what was found', async () => {
  await createIndex('ga1', { aliases: { ga_a: {}, ga_b: { is_write_index: false } } });
  await createIndex('ga2', { aliases: { ga_a: {} } });
  await createIndex('ga3');
  const all = await node.request('GET', '/_alias');
  assert.deepEqual(all.body.ga1, { aliases: { ga_a: {}, ga_b: { is_write_index: false } } });
  assert.deepEqual(all.body.ga3, { aliases: {} }, 'no name asked: indices without aliases are listed');
  assert.deepEqual((await node.request('GET', '/_aliases')).body.ga2, { aliases: { ga_a: {} } });
  assert.deepEqual((await node.request('GET', '/_alias/ga_a')).body, { ga1: { aliases: { ga_a: {} } }, ga2: { aliases: { ga_a: {} } } });
  assert.deepEqual((await node.request('GET', '/ga*/_alias/ga_*,-ga_b')).body, { ga1: { aliases: { ga_a: {} } }, ga2: { aliases: { ga_a: {} } } });
  assert.deepEqual((await node.request('GET', '/ga3/_alias')).body, { ga3: { aliases: {} } });
  assert.deepEqual((await node.request('GET', '/ga3/_alias/ga_a')).status, 404);

  const partial = await node.request('GET', '/_alias/ga_b,nope');
  assert.equal(partial.status, 404);
  assert.equal(partial.text, '{"error":"alias [nope] missing","status":404,"ga1":{"aliases":{"ga_b":{"is_write_index":false}}}}');
  const two = await node.request('GET', '/_alias/nope2,nope1');
  assert.deepEqual(two.body, { error: 'aliases [nope1,nope2] missing', status: 404 });
  assert.equal((await node.request('HEAD', '/_alias/ga_b,nope')).status, 404);
  assert.equal((await node.request('HEAD', '/ga1/_alias/ga_b')).status, 200);
  assert.equal((await node.request('HEAD', '/no_index/_alias/ga_b')).status, 404);
  const noIndex = await node.request('GET', '/no_index/_alias');
  assert.equal(noIndex.status, 404);
  assert.equal(noIndex.body.error.type, 'index_not_found_exception');
  const local = await node.request('GET', '/_alias/ga_a?local=true');
  assert.match(String(local.headers['warning']), /the \[\?local=true\] query parameter to get-aliases requests has no effect/);
  for (const name of ['ga1', 'ga2', 'ga3']) await deleteIndex(name);
});

test('cat aliases: columns, values, help', async () => {
  await createIndex('cat1', { aliases: { c_plain: {}, c_full: { filter: { term: { a: 'b' } }, index_routing: 'i', search_routing: 's1,s2', is_write_index: true } } });
  const rows = await node.request('GET', '/_cat/aliases?format=json');
  const mine = rows.body.filter((row: { index: string }) => row.index === 'cat1');
  assert.deepEqual(mine, [
    { alias: 'c_full', index: 'cat1', filter: '*', 'routing.index': 'i', 'routing.search': 's1,s2', is_write_index: 'true' },
    { alias: 'c_plain', index: 'cat1', filter: '-', 'routing.index': '-', 'routing.search': '-', is_write_index: '-' },
  ]);
  const one = await node.request('GET', '/_cat/aliases/c_plain?v&h=alias,index');
  assert.equal(one.text, 'alias   index\nc_plain cat1\n');
  const help = await node.request('GET', '/_cat/aliases?help');
  assert.match(help.text, /^alias\s+\| a\s+\| alias name\s*$/m);
  assert.match(help.text, /^is_write_index\s+\| w,isWriteIndex\s+\| write index\s*$/m);
  await deleteIndex('cat1');
});

test('GET /{index} and create-index bodies carry alias definitions; hidden aliases stay out of wildcards', async () => {
  await createIndex('def1', { aliases: { d_alias: { routing: 'r', is_hidden: true } } });
  assert.deepEqual((await node.request('GET', '/def1')).body.def1.aliases, { d_alias: { index_routing: 'r', search_routing: 'r', is_hidden: true } });
  await node.request('PUT', '/def1/_doc/1?refresh=true', { body: { a: 1 } });
  assert.equal((await node.request('GET', '/d_alias/_count')).body.count, 1, 'a hidden alias named explicitly resolves');
  const wildcard = await node.request('GET', '/d_al*/_count');
  assert.equal(wildcard.body.count, 0, 'a wildcard does not match a hidden alias');
  assert.equal((await node.request('GET', '/d_al*/_count?expand_wildcards=open,hidden')).body.count, 1);
  // is_hidden must agree across the alias's indices.
  await createIndex('def2');
  const mixed = await node.request('PUT', '/def2/_alias/d_alias');
  assert.equal(mixed.status, 500);
  assert.equal(mixed.body.error.type, 'illegal_state_exception');
  assert.equal(
    mixed.body.error.reason,
    'alias [d_alias] has is_hidden set to true on indices [def1] but does not have is_hidden set to true on indices [def2]; alias must have the same is_hidden setting on all indices',
  );
  await deleteIndex('def1');
  await deleteIndex('def2');
});

test('writes through an alias: the write index, is_write_index rules and index routing', async () => {
  await createIndex('w1', { aliases: { writer: {} } });
  const first = await node.request('PUT', '/writer/_doc/1?refresh=true', { body: { n: 1 } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body._index, 'w1', 'a lone index with is_write_index unset takes the writes');
  await createIndex('w2');
  await node.request('PUT', '/w2/_alias/writer');
  const ambiguous = await node.request('PUT', '/writer/_doc/2', { body: { n: 2 } });
  assert.equal(ambiguous.status, 400);
  assert.equal(
    ambiguous.body.error.reason,
    'no write index is defined for alias [writer]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index',
  );
  const twoWriters = await node.request('POST', '/_aliases', {
    body: { actions: [{ add: { index: 'w1', alias: 'writer', is_write_index: true } }, { add: { index: 'w2', alias: 'writer', is_write_index: true } }] },
  });
  assert.equal(twoWriters.status, 500);
  assert.equal(twoWriters.body.error.reason, 'alias [writer] has more than one write index [w1,w2]');
  await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: 'w2', alias: 'writer', is_write_index: true } }] } });
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: '{"index":{"_index":"writer","_id":"3"}}\n{"n":3}\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.items[0].index._index, 'w2', bulk.text);
  const updated = await node.request('POST', '/writer/_update/3', { body: { doc: { n: 33 } } });
  assert.equal(updated.body._index, 'w2');
  assert.equal((await node.request('GET', '/writer/_count')).body.count, 2, 'searches see every index of the alias');
  const getThroughTwo = await node.request('GET', '/writer/_doc/3');
  assert.equal(getThroughTwo.status, 400);
  assert.equal(getThroughTwo.body.error.reason, "alias [writer] has more than one index associated with it [w1, w2], can't execute a single index op");

  // index_routing: writes and reads through the alias use it; a different explicit routing is refused.
  await createIndex('routed', { settings: { number_of_shards: 4, number_of_replicas: 0 }, aliases: { by_user: { index_routing: 'u1' } } });
  const put = await node.request('PUT', '/by_user/_doc/a', { body: { n: 1 } });
  assert.equal(put.status, 201, put.text);
  assert.equal((await node.request('GET', '/routed/_doc/a?routing=u1')).body._routing, 'u1');
  assert.equal((await node.request('GET', '/by_user/_doc/a')).body.found, true);
  const conflict = await node.request('PUT', '/by_user/_doc/b?routing=other', { body: { n: 2 } });
  assert.equal(conflict.status, 400);
  assert.equal(conflict.body.error.reason, 'Alias [by_user] has index routing associated with it [u1], and was provided with routing value [other], rejecting operation');
  for (const name of ['w1', 'w2', 'routed']) await deleteIndex(name);
});

test('searches through aliases: filters as filter clauses, search routing, several aliases', async () => {
  await createIndex('books', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
  const docs = [
    { id: '1', genre: 'poetry', title: 'the sea and the sky' },
    { id: '2', genre: 'novel', title: 'the sea wolf' },
    { id: '3', genre: 'poetry', title: 'leaves of grass' },
    { id: '4', genre: 'essay', title: 'the sea around us' },
  ];
  for (const doc of docs) await node.request('PUT', `/books/_doc/${doc.id}?routing=${doc.genre}`, { body: { genre: doc.genre, title: doc.title } });
  await node.request('POST', '/books/_refresh');
  await node.request('POST', '/_aliases', {
    body: {
      actions: [
        { add: { index: 'books', alias: 'poetry', filter: { term: { 'genre.keyword': 'poetry' } } } },
        { add: { index: 'books', alias: 'novels', filter: { term: { 'genre.keyword': 'novel' } } } },
        { add: { index: 'books', alias: 'plain_books' } },
        { add: { index: 'books', alias: 'essays_shard', search_routing: 'essay' } },
      ],
    },
  });
  const direct = await node.request('POST', '/books/_search', { body: { query: { match: { title: 'sea' } } } });
  const viaPoetry = await node.request('POST', '/poetry/_search', { body: { query: { match: { title: 'sea' } } } });
  assert.deepEqual(viaPoetry.body.hits.hits.map((hit: { _id: string }) => hit._id), ['1']);
  const directScore = direct.body.hits.hits.find((hit: { _id: string }) => hit._id === '1')._score;
  assert.equal(viaPoetry.body.hits.hits[0]._score, directScore, 'the filter does not change scores');
  assert.equal((await node.request('GET', '/poetry/_count')).body.count, 2);
  assert.equal((await node.request('GET', '/poetry,novels/_count')).body.count, 3, 'several filtering aliases: either filter');
  assert.equal((await node.request('GET', '/poetry,plain_books/_count')).body.count, 4, 'an unfiltered alias sees the whole index');
  assert.equal((await node.request('GET', '/poetry,books/_count')).body.count, 4, 'the index named directly sees everything');
  assert.equal((await node.request('GET', '/poet*/_count')).body.count, 2, 'an alias matched by a wildcard keeps its filter');
  const routed = await node.request('GET', '/essays_shard/_search');
  assert.equal(routed.body._shards.total, 1, 'search_routing narrows to the routed shard');
  assert.ok(routed.body.hits.hits.some((hit: { _id: string }) => hit._id === '4'), routed.text);
  const routedAndAsked = await node.request('GET', '/essays_shard/_search?routing=poetry');
  assert.equal(routedAndAsked.body._shards.total, 3, 'no common routing value: ES searches every shard');
  const msearch = await node.request('POST', '/_msearch', {
    raw: '{"index":"novels"}\n{"query":{"match_all":{}}}\n',
    headers: { 'content-type': 'application/x-ndjson' },
  });
  assert.deepEqual(msearch.body.responses[0].hits.hits.map((hit: { _id: string }) => hit._id), ['2']);
  const scroll = await node.request('POST', '/poetry/_search?scroll=1m', { body: { size: 1, sort: ['_doc'] } });
  const next = await node.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: scroll.body._scroll_id } });
  const scrolled = [...scroll.body.hits.hits, ...next.body.hits.hits].map((hit: { _id: string }) => hit._id).sort();
  assert.deepEqual(scrolled, ['1', '3']);
  const dbq = await node.request('POST', '/novels/_delete_by_query?refresh=true', { body: { query: { match_all: {} } } });
  assert.equal(dbq.body.deleted, 1, dbq.text);
  assert.equal((await node.request('GET', '/books/_count')).body.count, 3);
  await deleteIndex('books');
});

test('indices APIs take aliases as index expressions', async () => {
  await createIndex('exp1', { aliases: { exp_alias: {} }, mappings: { properties: { f: { type: 'keyword' } } } });
  assert.deepEqual(Object.keys((await node.request('GET', '/exp_alias/_mapping')).body), ['exp1']);
  assert.deepEqual(Object.keys((await node.request('GET', '/exp_alias/_settings')).body), ['exp1']);
  assert.equal((await node.request('POST', '/exp_alias/_refresh')).status, 200);
  assert.deepEqual(Object.keys((await node.request('GET', '/exp_alias/_stats')).body.indices), ['exp1']);
  const cat = await node.request('GET', '/_cat/indices/exp_alias?h=index');
  assert.equal(cat.text, 'exp1\n');
  await deleteIndex('exp1');
});
