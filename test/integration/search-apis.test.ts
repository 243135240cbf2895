/**
 * The search APIs around `_search` against a real node: `_count`, `_msearch` with mixed successes and errors,
 * scroll through every document and clear (ES's errors for cleared contexts and bad requests), point in time
 * (a frozen view paged with search_after and the implicit `_shard_doc` tiebreaker), and `_explain`.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const COUNT = 25;

async function bulk(index: string, docs: Array<[string, Record<string, unknown>]>): Promise<void> {
  const lines = docs.flatMap(([id, doc]) => [JSON.stringify({ index: { _index: index, _id: id } }), JSON.stringify(doc)]);
  const res = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text);
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'search-apis-node', 'search.max_open_scroll_context': '4' } });
  for (const index of ['items', 'other']) {
    const res = await node.request('PUT', `/${index}`, {
      body: { settings: { number_of_shards: index === 'items' ? 3 : 1, number_of_replicas: 0 }, mappings: { properties: { text: { type: 'text' }, n: { type: 'long' }, color: { type: 'keyword' } } } },
    });
    assert.equal(res.status, 200, res.text);
  }
  const colors = ['red', 'green', 'blue'];
  await bulk(
    'items',
    Array.from({ length: COUNT }, (_, i): [string, Record<string, unknown>] => [`i${i}`, { text: `item number ${i} ${i % 2 === 0 ? 'even' : 'odd'}`, n: i, color: colors[i % 3] }]),
  );
  await bulk('other', [
    ['o1', { text: 'other even thing', n: 100, color: 'red' }],
    ['o2', { text: 'other odd thing', n: 101, color: 'blue' }],
  ]);
});
after(async () => {
  await node.stop();
});

describe('_count', () => {
  test('counts with q, a query body, several indices, min_score and terminate_after', async () => {
    const all = await node.request('GET', '/_count');
    assert.deepEqual(all.body, { count: COUNT + 2, _shards: { total: 4, successful: 4, skipped: 0, failed: 0 } });
    assert.equal((await node.request('GET', '/items/_count?q=text:even')).body.count, 13);
    assert.equal((await node.request('POST', '/items,other/_count', { body: { query: { term: { color: 'red' } } } })).body.count, 10);
    assert.equal((await node.request('GET', '/items/_count?q=color:green&min_score=5')).body.count, 0);
    const terminated = await node.request('GET', '/items/_count?terminate_after=2');
    assert.equal(terminated.body.terminated_early, true);
    assert.ok(terminated.body.count <= 6, 'at most terminate_after per shard');
    assert.deepEqual(Object.keys(terminated.body), ['terminated_early', 'count', '_shards']);
  });

  test('a count body may only hold `query`', async () => {
    const res = await node.request('POST', '/items/_count', { body: { query: { match_all: {} }, size: 3 } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'parsing_exception');
    assert.equal(res.body.error.reason, 'request does not support [size]');
    const missing = await node.request('GET', '/missing/_count');
    assert.equal(missing.status, 404);
  });
});

describe('_msearch', () => {
  test('each item succeeds or fails on its own, in order, with its status', async () => {
    const lines = [
      { index: 'items' },
      { query: { match: { text: 'even' } }, size: 2 },
      { index: 'missing-index' },
      { query: { match_all: {} } },
      {},
      { size: 0, query: { term: { n: 'not-a-number' } } },
      { index: ['items', 'other'], search_type: 'dfs_query_then_fetch' },
      { size: 0, aggs: { colors: { terms: { field: 'color' } } } },
    ];
    const res = await node.request('POST', '/_msearch', { raw: lines.map((line) => JSON.stringify(line)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(typeof res.body.took, 'number');
    const [first, second, third, fourth] = res.body.responses;
    assert.equal(first.status, 200);
    assert.equal(first.hits.total.value, 13);
    assert.equal(first.hits.hits.length, 2);
    assert.equal(second.status, 404);
    assert.equal(second.error.type, 'index_not_found_exception');
    assert.equal(second.error.root_cause[0].type, 'index_not_found_exception');
    assert.equal(third.status, 400);
    assert.equal(third.error.type, 'search_phase_execution_exception');
    assert.equal(third.error.root_cause[0].type, 'query_shard_exception');
    assert.equal(fourth.status, 200);
    assert.deepEqual(
      fourth.aggregations.colors.buckets.map((bucket: any) => [bucket.key, bucket.doc_count]),
      [['blue', 9], ['red', 10], ['green', 8]].sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
  });

  test('malformed lines fail the whole request', async () => {
    const badKey = await node.request('POST', '/_msearch', { raw: '{"nope":1}\n{}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.error.reason, 'key [nope] is not supported in the metadata section');
    const noNewline = await node.request('POST', '/items/_msearch', { raw: '{}\n{}', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(noNewline.status, 400);
    assert.equal(noNewline.body.error.reason, 'The msearch request must be terminated by a newline [\n]');
    const badQuery = await node.request('POST', '/items/_msearch', { raw: '{}\n{"query":{"bogus":{}}}\n', headers: { 'content-type': 'application/x-ndjson' } });
    assert.equal(badQuery.status, 400);
    assert.equal(badQuery.body.error.type, 'parsing_exception');
  });
});

describe('scroll', () => {
  test('scrolls through every document once, on the view of the first page, then clears', async () => {
    const first = await node.request('POST', '/items/_search?scroll=1m', { body: { size: 4, query: { match_all: {} } } });
    assert.equal(first.status, 200, first.text);
    const scrollId: string = first.body._scroll_id;
    assert.deepEqual(Object.keys(first.body).slice(0, 2), ['_scroll_id', 'took']);
    assert.deepEqual(first.body.hits.total, { value: COUNT, relation: 'eq' });
    const stats = await node.request('GET', '/items/_stats/search');
    assert.equal(stats.body._all.total.search.open_contexts, 3);
    assert.equal(stats.body._all.total.search.scroll_current, 3);
    // Written after the scroll started: not part of its point-in-time view.
    await node.request('PUT', '/items/_doc/late?refresh=true', { body: { text: 'late', n: 99, color: 'red' } });
    const seen: string[] = first.body.hits.hits.map((hit: any) => hit._id);
    for (let page = 0; page < 20; page++) {
      const next = await node.request('POST', '/_search/scroll', { body: { scroll_id: scrollId, scroll: '1m' } });
      assert.equal(next.status, 200, next.text);
      assert.equal(next.body._scroll_id, scrollId);
      assert.deepEqual(next.body.hits.total, { value: COUNT, relation: 'eq' });
      if (next.body.hits.hits.length === 0) break;
      assert.ok(next.body.hits.hits.length <= 4);
      seen.push(...next.body.hits.hits.map((hit: any) => hit._id));
    }
    assert.equal(seen.length, COUNT);
    assert.deepEqual([...new Set(seen)].sort(), Array.from({ length: COUNT }, (_, i) => `i${i}`).sort());
    const cleared = await node.request('DELETE', '/_search/scroll', { body: { scroll_id: [scrollId] } });
    assert.deepEqual([cleared.status, cleared.body], [200, { succeeded: true, num_freed: 3 }]);
    const gone = await node.request('GET', `/_search/scroll?scroll_id=${encodeURIComponent(scrollId)}`);
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.type, 'search_phase_execution_exception');
    assert.equal(gone.body.error.root_cause[0].type, 'search_context_missing_exception');
    assert.match(gone.body.error.root_cause[0].reason, /^No search context found for id \[\d+\]$/);
    const again = await node.request('DELETE', `/_search/scroll/${encodeURIComponent(scrollId)}`);
    assert.deepEqual([again.status, again.body], [404, { succeeded: true, num_freed: 0 }]);
    const after = await node.request('GET', '/items/_stats/search');
    assert.equal(after.body._all.total.search.open_contexts, 0);
    assert.ok(after.body._all.total.search.scroll_total >= 3);
    await node.request('DELETE', '/items/_doc/late?refresh=true');
  });

  test('a sorted scroll keeps the sort across pages', async () => {
    const first = await node.request('POST', '/items/_search?scroll=30s&size=10', { body: { sort: [{ n: 'desc' }] } });
    const ns: number[] = first.body.hits.hits.map((hit: any) => hit.sort[0]);
    let next = await node.request('POST', '/_search/scroll', { body: { scroll_id: first.body._scroll_id } });
    while (next.body.hits.hits.length > 0) {
      ns.push(...next.body.hits.hits.map((hit: any) => hit.sort[0]));
      next = await node.request('POST', '/_search/scroll', { body: { scroll_id: first.body._scroll_id } });
    }
    assert.deepEqual(ns, Array.from({ length: COUNT }, (_, i) => COUNT - 1 - i));
    const all = await node.request('DELETE', '/_search/scroll/_all');
    assert.equal(all.body.num_freed, 3);
  });

  test('ES errors: invalid ids, scroll validation, keep-alive limit', async () => {
    const invalid = await node.request('POST', '/_search/scroll', { body: { scroll_id: 'not-a-scroll-id' } });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.error.reason, 'Cannot parse scroll id');
    const validation = await node.request('POST', '/items/_search?scroll=1m', { body: { from: 1, size: 0 } });
    assert.equal(validation.status, 400);
    assert.equal(validation.body.error.type, 'action_request_validation_exception');
    assert.equal(validation.body.error.reason, 'Validation Failed: 1: using [from] is not allowed in a scroll context;2: [size] cannot be [0] in a scroll context;');
    const tooLong = await node.request('POST', '/items/_search?scroll=2d');
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error.type, 'search_phase_execution_exception');
    assert.equal(
      tooLong.body.error.root_cause[0].reason,
      'Keep alive for request (2d) is too large. It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
    );
    const noIds = await node.request('DELETE', '/_search/scroll');
    assert.equal(noIds.status, 400);
    assert.equal(noIds.body.error.reason, 'Validation Failed: 1: no scroll ids specified;');
  });

  test('search.max_open_scroll_context caps open scrolls; a lapsed keep-alive frees the context', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await node.request('POST', '/other/_search?scroll=1m&size=1')).status, 200);
    const refused = await node.request('POST', '/other/_search?scroll=1m&size=1');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.body.error.root_cause[0].type, 'es_rejected_execution_exception');
    assert.equal(
      refused.body.error.root_cause[0].reason,
      'Trying to create too many scroll contexts. Must be less than or equal to: [4]. This limit can be set by changing the [search.max_open_scroll_context] setting.',
    );
    assert.equal((await node.request('DELETE', '/_search/scroll/_all')).body.num_freed, 4);
    const short = await node.request('POST', '/other/_search?scroll=500ms&size=1');
    assert.equal(short.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const lapsed = await node.request('POST', '/_search/scroll', { body: { scroll_id: short.body._scroll_id } });
    assert.equal(lapsed.status, 404);
    assert.equal(lapsed.body.error.root_cause[0].type, 'search_context_missing_exception');
    const stats = await node.request('GET', '/other/_stats/search');
    assert.equal(stats.body._all.total.search.open_contexts, 0);
  });
});

describe('point in time', () => {
  test('a PIT search pages with search_after over a frozen view; closing frees it', async () => {
    const opened = await node.request('POST', '/items/_pit?keep_alive=1m');
    assert.equal(opened.status, 200, opened.text);
    assert.deepEqual(opened.body._shards, { total: 3, successful: 3, skipped: 0, failed: 0 });
    const id: string = opened.body.id;
    await node.request('PUT', '/items/_doc/after-pit?refresh=true', { body: { text: 'new', n: 50, color: 'red' } });
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await node.request('POST', '/_search', { body: { size: 6, sort: [{ color: 'asc' }], pit: { id, keep_alive: '1m' }, ...(after !== undefined && { search_after: after }) } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.pit_id, id);
      assert.equal(res.body.hits.total.value, COUNT);
      if (res.body.hits.hits.length === 0) break;
      for (const hit of res.body.hits.hits) {
        assert.equal(hit.sort.length, 2, 'the implicit _shard_doc tiebreaker');
        seen.push(hit._id);
      }
      after = res.body.hits.hits[res.body.hits.hits.length - 1].sort;
    }
    assert.equal(seen.length, COUNT);
    assert.equal(new Set(seen).size, COUNT);
    assert.ok(!seen.includes('after-pit'));
    const withIndex = await node.request('POST', '/items/_search', { body: { pit: { id } } });
    assert.equal(withIndex.status, 400);
    assert.equal(withIndex.body.error.reason, 'Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;');
    const closed = await node.request('DELETE', '/_pit', { body: { id } });
    assert.deepEqual([closed.status, closed.body], [200, { succeeded: true, num_freed: 3 }]);
    const gone = await node.request('POST', '/_search', { body: { pit: { id } } });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error.root_cause[0].type, 'search_context_missing_exception');
    const missingKeepAlive = await node.request('POST', '/items/_pit');
    assert.equal(missingKeepAlive.status, 400);
    assert.equal(missingKeepAlive.body.error.reason, 'Validation Failed: 1: [keep_alive] is not specified;');
    await node.request('DELETE', '/items/_doc/after-pit?refresh=true');
  });
});

describe('_explain', () => {
  test('matched documents explain their search score; others say why not', async () => {
    const search = await node.request('POST', '/items/_search', { body: { query: { match: { text: 'even' } }, size: 1 } });
    const hit = search.body.hits.hits[0];
    const res = await node.request('POST', `/items/_explain/${hit._id}`, { body: { query: { match: { text: 'even' } } } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['_index', '_id', 'matched', 'explanation']);
    assert.equal(res.body.matched, true);
    assert.equal(res.body.explanation.value, hit._score);
    const miss = await node.request('GET', '/items/_explain/i1?q=text:even');
    assert.equal(miss.status, 200);
    assert.equal(miss.body.matched, false);
    assert.equal(miss.body.explanation.value, 0);
    const none = await node.request('POST', '/items/_explain/nope', { body: { query: { match_all: {} } } });
    assert.deepEqual([none.status, none.body], [404, { _index: 'items', _id: 'nope', matched: false }]);
    const withSource = await node.request('POST', '/items/_explain/i2?_source_includes=color', { body: { query: { match_all: {} } } });
    assert.deepEqual(withSource.body.get._source, { color: 'blue' });
    assert.equal(withSource.body.get.found, true);
    const noQuery = await node.request('POST', '/items/_explain/i2');
    assert.equal(noQuery.status, 400);
    assert.equal(noQuery.body.error.reason, 'Validation Failed: 1: query is missing;');
  });
});
