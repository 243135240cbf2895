/**
 * Scroll, point in time and dfs_query_then_fetch across a three-node cluster (issue 12): contexts live on the
 * nodes holding the shard copies and their ids name those nodes, so a scroll or point in time opened through one
 * node continues and closes through any other, and every page equals the page of one node holding the same data
 * in the same shards (same ids, same order, same scores). Reindex, which reads its source with a scroll, copies
 * every document whichever node runs it. Nodes run in this process (in-process-cluster.ts).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessCluster, startSingleNode, type ClusterNode, type InProcessNode } from '../helpers/in-process-cluster.js';
import { errors } from '../../src/common/errors.js';
import {
  CAN_MATCH_ACTION,
  FETCH_CONTEXT_ACTION,
  FETCH_SCROLL_ACTION,
  FREE_CONTEXT_ACTION,
  FREE_CONTEXT_SCROLL_ACTION,
  OPEN_READER_CONTEXT_ACTION,
  QUERY_CONTEXT_ACTION,
  QUERY_FETCH_SCROLL_ACTION,
  QUERY_SCROLL_ACTION,
} from '../../src/actions/search/remote-contexts.js';
import { buildScrollId, decodePitId, parseScrollId } from '../../src/actions/search/context-ids.js';

const DOCS = 50;
const bulkBody = (index: string) =>
  Array.from({ length: DOCS }, (_, i) => `{"index":{"_index":"${index}","_id":"${i}"}}\n{"n":${i},"text":"quick brown fox ${i % 5} jumps over ${i % 3 === 0 ? 'lazy' : 'busy'} dogs ${i % 7 === 0 ? 'fox fox' : ''}"}\n`).join('');

async function load(node: ClusterNode, index: string): Promise<void> {
  const created = await node.request('PUT', `/${index}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 0 } } });
  assert.equal(created.status, 200, created.text);
  const loaded = await node.request('POST', '/_bulk?refresh=true', { raw: bulkBody(index), headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(loaded.body.errors, false, loaded.text);
}

interface Page {
  ids: string[];
  scores: (number | null)[];
  total: number;
  scrollId: string;
}

function pageOf(body: any): Page {
  return {
    ids: body.hits.hits.map((hit: { _id: string }) => hit._id),
    scores: body.hits.hits.map((hit: { _score: number | null }) => hit._score),
    total: body.hits.total.value,
    scrollId: body._scroll_id,
  };
}

/** Every page of a scroll, each next page asked of `nextThrough(i)` (another node each time in the cluster). */
async function scrollAll(first: ClusterNode, nextThrough: (page: number) => ClusterNode, index: string, body: object): Promise<Page[]> {
  const start = await first.request('POST', `/${index}/_search?scroll=1m`, { body });
  assert.equal(start.status, 200, start.text);
  assert.equal(start.body._shards.failed, 0, start.text);
  const pages = [pageOf(start.body)];
  for (let i = 1; pages[pages.length - 1]!.ids.length > 0 && i < 40; i++) {
    const next = await nextThrough(i).request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: pages[pages.length - 1]!.scrollId } });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body._shards.failed, 0, next.text);
    pages.push(pageOf(next.body));
  }
  const cleared = await nextThrough(pages.length).request('DELETE', '/_search/scroll', { body: { scroll_id: pages[pages.length - 1]!.scrollId } });
  assert.equal(cleared.status, 200, cleared.text);
  return pages;
}

const strip = (pages: Page[]) => pages.map(({ ids, scores, total }) => ({ ids, scores, total }));

describe('scroll, point in time and dfs through every node', () => {
  let cluster: InProcessCluster;
  let single: InProcessNode;
  before(async () => {
    cluster = await InProcessCluster.start(3);
    single = await startSingleNode();
    await load(cluster.nodes[0]!, 'ctx');
    await load(single, 'ctx');
    await cluster.waitFor(cluster.nodes[0]!, '/_cluster/health/ctx?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    // The three primaries sit on three nodes, so every search below has contexts on every node.
    const routing = await cluster.nodes[0]!.request('GET', '/_cluster/state/routing_table/ctx');
    const holders = new Set((Object.values(routing.body.routing_table.indices.ctx.shards) as Array<Array<{ node: string }>>).map((copies) => copies[0]!.node));
    assert.equal(holders.size, 3, routing.text);
  });
  after(async () => {
    await single?.stop();
    await cluster?.stop();
  });

  test('a scroll started through one node continues through the others, page for page as on one node', async () => {
    const cases = [
      { size: 7, sort: ['n'] },
      { size: 6, query: { match: { text: 'fox lazy' } } },
      { size: 8, sort: ['_doc'] },
    ];
    for (const body of cases) {
      const expected = await scrollAll(single, () => single, 'ctx', body);
      const seen = expected.flatMap((page) => page.ids);
      assert.equal(new Set(seen).size, seen.length);
      for (let start = 0; start < 3; start++) {
        const pages = await scrollAll(cluster.nodes[start]!, (i) => cluster.nodes[(start + i) % 3]!, 'ctx', body);
        if (body.sort?.[0] === '_doc') {
          // _doc order depends on each shard's doc ids, which are the same; the merge order too.
          assert.deepEqual(new Set(pages.flatMap((page) => page.ids)), new Set(seen));
        }
        assert.deepEqual(strip(pages), strip(expected), `scroll ${JSON.stringify(body)} started through node ${start}`);
      }
    }
  });

  test('the scroll id names the contexts on their nodes; clear scroll through any node frees them all', async () => {
    const [a, b, c] = cluster.nodes;
    const started = await a!.request('POST', '/ctx/_search?scroll=1m', { body: { size: 5, sort: ['n'] } });
    assert.equal(started.status, 200, started.text);
    const open = async () => {
      const stats = await a!.request('GET', '/_nodes/stats/indices/search');
      const perNode = Object.values(stats.body.nodes) as Array<{ indices: { search: { scroll_current: number } } }>;
      assert.equal(perNode.length, 3);
      return perNode.reduce((sum, node) => sum + node.indices.search.scroll_current, 0);
    };
    assert.equal(await open(), 3, 'one scroll context on each node');
    const cleared = await b!.request('DELETE', '/_search/scroll', { body: { scroll_id: started.body._scroll_id } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.deepEqual(cleared.body, { succeeded: true, num_freed: 3 });
    assert.equal(await open(), 0);
    const gone = await c!.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: started.body._scroll_id } });
    assert.equal(gone.status, 404, gone.text);
    assert.equal(gone.body.error.root_cause[0].type, 'search_context_missing_exception');
    // `_all` reaches every node.
    await a!.request('POST', '/ctx/_search?scroll=1m', { body: { size: 5 } });
    await c!.request('POST', '/ctx/_search?scroll=1m', { body: { size: 5 } });
    const all = await b!.request('DELETE', '/_search/scroll/_all');
    assert.deepEqual(all.body, { succeeded: true, num_freed: 6 });
    assert.equal(await open(), 0);
  });

  test("a scroll's later pages run as ES's scroll phases ([phase/query/scroll], [phase/fetch/id/scroll]); clear scroll and closing a point in time send [free_context/scroll]", async () => {
    const [a, b, c] = cluster.nodes;
    const watched = [QUERY_CONTEXT_ACTION, FETCH_CONTEXT_ACTION, QUERY_SCROLL_ACTION, FETCH_SCROLL_ACTION, QUERY_FETCH_SCROLL_ACTION, FREE_CONTEXT_ACTION, FREE_CONTEXT_SCROLL_ACTION];
    let seen: string[] = [];
    const restores = cluster.nodes.flatMap((node) =>
      watched.map((action) =>
        node.node.nodeServices.transport!.wrapHandlerForTest(action, (handler) => async (body, context) => {
          seen.push(action.slice('indices:data/read/search'.length));
          return handler(body, context);
        }),
      ),
    );
    const taken = () => {
      const counts: Record<string, number> = {};
      for (const action of seen) counts[action] = (counts[action] ?? 0) + 1;
      seen = [];
      return counts;
    };
    try {
      // Sorted by n over three shards, a page of 12 has winners on every shard.
      const started = await a!.request('POST', '/ctx/_search?scroll=1m', { body: { size: 12, sort: ['n'] } });
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(taken(), { '[phase/query]': 3, '[phase/fetch/id]': 3 }, 'the first page is a search');
      const next = await b!.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: started.body._scroll_id } });
      assert.equal(next.status, 200, next.text);
      assert.deepEqual(
        next.body.hits.hits.map((hit: { _id: string }) => hit._id),
        Array.from({ length: 12 }, (_, n) => String(n + 12)),
      );
      assert.deepEqual(taken(), { '[phase/query/scroll]': 3, '[phase/fetch/id/scroll]': 3 });
      const cleared = await c!.request('DELETE', '/_search/scroll', { body: { scroll_id: next.body._scroll_id } });
      assert.deepEqual(cleared.body, { succeeded: true, num_freed: 3 });
      assert.deepEqual(taken(), { '[free_context/scroll]': 3 });
      // A scroll of one shard fetches each page with its query: the first page within [phase/query], as ES's
      // SearchService does for one shard, the next ones in [phase/query+fetch/scroll] (ES's queryAndFetch scroll id).
      const one = await a!.request('POST', '/ctx/_search?scroll=1m&routing=r', { body: { size: 12, sort: ['n'], query: { match_all: {} } } });
      assert.equal(one.status, 200, one.text);
      assert.equal(one.body._shards.total, 1, one.text);
      assert.deepEqual(taken(), { '[phase/query]': 1 });
      const oneNext = await b!.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: one.body._scroll_id } });
      assert.equal(oneNext.status, 200, oneNext.text);
      assert.deepEqual(taken(), { '[phase/query+fetch/scroll]': 1 });
      const firstIds = one.body.hits.hits.map((hit: { _id: string }) => hit._id);
      const nextIds = oneNext.body.hits.hits.map((hit: { _id: string }) => hit._id);
      assert.equal(new Set([...firstIds, ...nextIds]).size, firstIds.length + nextIds.length, 'the next page continues after the first');
      const inOrder = [...firstIds, ...nextIds].map(Number);
      assert.ok(firstIds.length === 12 && nextIds.length > 0, `${firstIds} then ${nextIds}`);
      assert.deepEqual(inOrder, [...inOrder].sort((x, y) => x - y), 'the pages go on in sort order');
      await c!.request('DELETE', '/_search/scroll', { body: { scroll_id: oneNext.body._scroll_id } });
      taken();
      // A point in time of one shard (routing picks it) fetches its page with its query too, from `from` on (ES's
      // SearchService runs any search of one shard so, whatever its reader context); one over three shards does not.
      const onePit = await a!.request('POST', '/ctx/_pit?keep_alive=1m&routing=r');
      assert.equal(onePit.status, 200, onePit.text);
      assert.equal(onePit.body._shards.total, 1, onePit.text);
      taken();
      const pitPage = await b!.request('POST', '/_search', { body: { from: 3, size: 5, sort: ['n'], pit: { id: onePit.body.id } } });
      assert.equal(pitPage.status, 200, pitPage.text);
      assert.deepEqual(taken(), { '[phase/query]': 1 }, 'one request for the query and the fetch');
      const pitAll = await c!.request('POST', '/_search', { body: { size: 8, sort: ['n'], pit: { id: onePit.body.id } } });
      const expectedPage = pitAll.body.hits.hits.slice(3, 8).map((hit: { _id: string; _source: unknown }) => [hit._id, hit._source]);
      assert.equal(expectedPage.length, 5, pitAll.text);
      assert.deepEqual(
        pitPage.body.hits.hits.map((hit: { _id: string; _source: unknown }) => [hit._id, hit._source]),
        expectedPage,
      );
      assert.equal(pitPage.body.hits.total.value, pitAll.body.hits.total.value);
      const emptyPage = await a!.request('POST', '/_search', { body: { from: DOCS + 10, size: 5, pit: { id: onePit.body.id } } });
      assert.equal(emptyPage.status, 200, emptyPage.text);
      assert.deepEqual(emptyPage.body.hits.hits, []);
      assert.deepEqual((await a!.request('DELETE', '/_pit', { body: { id: onePit.body.id } })).body, { succeeded: true, num_freed: 1 });
      taken();
      const pit = await a!.request('POST', '/ctx/_pit?keep_alive=1m');
      assert.equal(pit.status, 200, pit.text);
      const closed = await b!.request('DELETE', '/_pit', { body: { id: pit.body.id } });
      assert.deepEqual(closed.body, { succeeded: true, num_freed: 3 });
      assert.deepEqual(taken(), { '[free_context/scroll]': 3 });
    } finally {
      for (const restore of restores) restore();
    }
  });

  test("a scroll context on a node that left the cluster fails that shard as ES's scroll does: node not available", async () => {
    const [a, b] = cluster.nodes;
    const started = await a!.request('POST', '/ctx/_search?scroll=1m', { body: { size: 5, sort: ['n'] } });
    assert.equal(started.status, 200, started.text);
    // The same contexts, one of them named on a node the cluster does not know (it left with its contexts).
    const refs = parseScrollId(started.body._scroll_id);
    const departed = 'departedNodeIdXXXXXXXX';
    const scrollId = buildScrollId(refs.map((ref, i) => (i === 1 ? { ...ref, nodeId: departed } : ref)));
    try {
      const next = await b!.request('POST', '/_search/scroll', { body: { scroll: '1m', scroll_id: scrollId } });
      assert.equal(next.status, 200, next.text);
      assert.deepEqual(next.body._shards, {
        total: 3,
        successful: 2,
        skipped: 0,
        failed: 1,
        // SearchScrollAsyncAction: an IllegalStateException for a node it cannot look up, no shard target.
        failures: [{ shard: -1, index: null, reason: { type: 'illegal_state_exception', reason: `node [${departed}] is not available` } }],
      });
      assert.equal(next.body.hits.hits.length, 5, next.text);
    } finally {
      await a!.request('DELETE', '/_search/scroll', { body: { scroll_id: started.body._scroll_id } });
    }
  });

  test('a point in time opened through one node is searched and closed through the others', async () => {
    const [a, b, c] = cluster.nodes;
    const opened = await a!.request('POST', '/ctx/_pit?keep_alive=1m');
    assert.equal(opened.status, 200, opened.text);
    assert.deepEqual(opened.body._shards, { total: 3, successful: 3, skipped: 0, failed: 0 });
    const singlePit = (await single.request('POST', '/ctx/_pit?keep_alive=1m')).body.id as string;
    // Documents written after the point in time was opened are not seen through it.
    const late = await c!.request('PUT', '/ctx/_doc/late?refresh=true', { body: { n: 1000, text: 'fox' } });
    assert.equal(late.status, 201, late.text);
    const page = async (node: ClusterNode, id: string, after?: unknown[]) =>
      node.request('POST', '/_search', { body: { size: 9, pit: { id, keep_alive: '1m' }, sort: [{ n: 'desc' }], query: { match: { text: 'fox' } }, ...(after && { search_after: after }) } });
    let after: unknown[] | undefined;
    let expectedAfter: unknown[] | undefined;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await page(cluster.nodes[i % 3]!, opened.body.id, after);
      const expected = await page(single, singlePit, expectedAfter);
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body._shards.failed, 0, answer.text);
      const hits = answer.body.hits.hits as Array<{ _id: string; sort: unknown[] }>;
      const expectedHits = expected.body.hits.hits as Array<{ _id: string; sort: unknown[] }>;
      // The tiebreaker (_shard_doc) names shard positions that are the same in both.
      assert.deepEqual(hits.map((hit) => [hit._id, hit.sort]), expectedHits.map((hit) => [hit._id, hit.sort]));
      assert.equal(answer.body.hits.total.value, expected.body.hits.total.value);
      if (hits.length === 0) break;
      ids.push(...hits.map((hit) => hit._id));
      after = hits[hits.length - 1]!.sort;
      expectedAfter = expectedHits[expectedHits.length - 1]!.sort;
    }
    assert.equal(ids.length, DOCS, 'every document of the point in time, once');
    assert.ok(!ids.includes('late'));
    const aggs = await b!.request('POST', '/_search', { body: { size: 0, pit: { id: opened.body.id }, aggs: { top: { max: { field: 'n' } } } } });
    assert.equal(aggs.body.aggregations.top.value, DOCS - 1, aggs.text);
    const closed = await c!.request('DELETE', '/_pit', { body: { id: opened.body.id } });
    assert.deepEqual(closed.body, { succeeded: true, num_freed: 3 });
    const afterClose = await b!.request('POST', '/_search', { body: { pit: { id: opened.body.id } } });
    assert.equal(afterClose.status, 404, afterClose.text);
    assert.equal(afterClose.body.error.root_cause[0].type, 'search_context_missing_exception');
    await c!.request('DELETE', '/ctx/_doc/late?refresh=true');
    await single.request('DELETE', '/_pit', { body: { id: singlePit } });
  });

  test('opening a point in time tries the next copy of a shard when one fails, as a search does; preference picks the first', async () => {
    const [a, b, c] = cluster.nodes as [InProcessNode, InProcessNode, InProcessNode];
    const created = await a.request('PUT', '/pit-retry', {
      body: { settings: { number_of_shards: 1, number_of_replicas: 1, 'index.routing.allocation.include._id': `${b.nodeId},${c.nodeId}` } },
    });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/pit-retry?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    assert.equal((await a.request('PUT', '/pit-retry/_doc/1?refresh=true', { body: { n: 1 } })).status, 201);
    // The first open of this index fails on whichever copy it reaches (an engine failing there, say).
    let failures = 0;
    const restores = [b, c].map((node) =>
      node.node.nodeServices.transport!.wrapHandlerForTest(OPEN_READER_CONTEXT_ACTION, (handler) => async (body, context) => {
        if ((body as { index: string }).index === 'pit-retry' && failures++ === 0) throw errors.illegalState('the copy failed to open a reader');
        return handler(body, context);
      }),
    );
    try {
      const opened = await a.request('POST', `/pit-retry/_pit?keep_alive=1m&preference=_prefer_nodes:${b.nodeId}`);
      assert.equal(opened.status, 200, opened.text);
      assert.deepEqual(opened.body._shards, { total: 1, successful: 1, skipped: 0, failed: 0 });
      assert.equal(failures, 2, 'one failed open, then one on the next copy');
      // The failed copy was b's (the preferred one): the point in time lives on c.
      const [context] = decodePitId(opened.body.id);
      assert.equal(context!.nodeId, c.nodeId);
      const searched = await b.request('POST', '/_search', { body: { pit: { id: opened.body.id } } });
      assert.equal(searched.body.hits.total.value, 1, searched.text);
      assert.deepEqual((await a.request('DELETE', '/_pit', { body: { id: opened.body.id } })).body, { succeeded: true, num_freed: 1 });
    } finally {
      for (const restore of restores) restore();
      await a.request('DELETE', '/pit-retry');
    }
  });

  test('dfs_query_then_fetch scores as one node does, through every node', async () => {
    const body = { size: 20, query: { match: { text: 'fox lazy dogs' } } };
    const expected = (await single.request('POST', '/ctx/_search?search_type=dfs_query_then_fetch', { body })).body;
    const plain = (await single.request('POST', '/ctx/_search', { body })).body;
    assert.notDeepEqual(expected.hits.hits.map((hit: any) => hit._score), plain.hits.hits.map((hit: any) => hit._score), 'dfs changes the scores here');
    for (const node of cluster.nodes) {
      const answer = await node.request('POST', '/ctx/_search?search_type=dfs_query_then_fetch', { body });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body._shards.failed, 0, answer.text);
      assert.deepEqual(answer.body.hits, expected.hits, `dfs through ${node.name}`);
    }
    // A dfs scroll keeps the statistics for its later pages.
    const expectedPages = await scrollAll(single, () => single, 'ctx', body);
    const pages = await scrollAll(cluster.nodes[1]!, (i) => cluster.nodes[i % 3]!, 'ctx', body);
    assert.deepEqual(strip(pages), strip(expectedPages));
  });

  test('a plain search through every node answers as one node: highlight, _source filtering, fields, paging, search_after, aggregations', async () => {
    const withoutNode = (body: any) => JSON.parse(JSON.stringify(body, (key, value) => (key === 'took' || key === '_node' ? undefined : value)));
    const cases: object[] = [
      { size: 5, query: { match: { text: 'fox lazy' } }, highlight: { fields: { text: {} } }, _source: ['n'] },
      { from: 3, size: 4, sort: [{ n: 'desc' }], _source: false, docvalue_fields: ['n'], version: true, seq_no_primary_term: true },
      { size: 3, sort: ['n'], search_after: [10], stored_fields: ['_source'] },
      { size: 2, query: { match: { text: 'fox' } }, explain: true },
      { size: 4, track_total_hits: 5, query: { match: { text: 'dogs' } }, aggs: { spread: { terms: { field: 'n', size: 3 } } } },
      { from: 45, size: 10, query: { match: { text: 'busy' } } },
      { size: 0, aggs: { top: { max: { field: 'n' } } } },
    ];
    for (const body of cases) {
      const expected = await single.request('POST', '/ctx/_search', { body });
      assert.equal(expected.status, 200, expected.text);
      for (const node of cluster.nodes) {
        const answer = await node.request('POST', '/ctx/_search', { body });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(withoutNode(answer.body), withoutNode(expected.body), `${JSON.stringify(body)} through ${node.name}`);
      }
    }
  });

  test('a plain search fetches only the winners, from the shards holding them, and leaves no context open (query then fetch)', async () => {
    const shardStats = async () => {
      const stats = await cluster.nodes[0]!.request('GET', '/ctx/_stats/search?level=shards');
      assert.equal(stats.status, 200, stats.text);
      const shards = stats.body.indices.ctx.shards as Record<string, Array<{ search: { query_total: number; fetch_total: number } }>>;
      return [0, 1, 2].map((shard) => shards[String(shard)]![0]!.search);
    };
    const openContexts = async () => {
      const stats = await cluster.nodes[0]!.request('GET', '/_nodes/stats/indices/search');
      return (Object.values(stats.body.nodes) as Array<{ indices: { search: { open_contexts: number } } }>).reduce((sum, node) => sum + node.indices.search.open_contexts, 0);
    };
    const noContextLeft = async () => {
      // Contexts of shards without winners are freed without waiting for their nodes' answers.
      for (let i = 0; i < 100 && (await openContexts()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await openContexts(), 0, 'no search context left open on any node');
    };
    for (const [i, node] of cluster.nodes.entries()) {
      const before = await shardStats();
      // The lowest `n` lives on one shard: only that shard is asked for a document.
      const answer = await node.request('POST', '/ctx/_search', { body: { size: 1, sort: ['n'], query: { match: { text: 'fox' } } } });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.hits.hits[0]._id, '0');
      const after = await shardStats();
      assert.deepEqual(after.map((shard, s) => shard.query_total - before[s]!.query_total), [1, 1, 1], `every shard queried, through node ${i}`);
      const fetched = after.map((shard, s) => shard.fetch_total - before[s]!.fetch_total);
      assert.deepEqual(fetched.filter((count) => count > 0), [1], `one shard fetched, through node ${i}: ${fetched}`);
      await noContextLeft();
    }
    // A page spread over the shards fetches from each shard holding a winner, once.
    const before = await shardStats();
    const spread = await cluster.nodes[1]!.request('POST', '/ctx/_search', { body: { size: 12, sort: ['n'] } });
    assert.deepEqual(spread.body.hits.hits.map((hit: { _id: string }) => hit._id), Array.from({ length: 12 }, (_, n) => String(n)));
    const after = await shardStats();
    assert.deepEqual(after.map((shard, s) => shard.fetch_total - before[s]!.fetch_total), [1, 1, 1]);
    // Nothing to fetch (size 0, or no hit on a shard): no context stays behind either.
    await cluster.nodes[2]!.request('POST', '/ctx/_search', { body: { size: 0, aggs: { top: { max: { field: 'n' } } } } });
    await cluster.nodes[2]!.request('POST', '/ctx/_search', { body: { query: { term: { n: 7 } } } });
    await noContextLeft();
  });

  test('a reindex run by a node holding none of the source shards copies every document', async () => {
    const [a] = cluster.nodes;
    const created = await a!.request('PUT', '/one-shard', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    assert.equal(created.status, 200, created.text);
    const routing = await a!.request('GET', '/_cluster/state/routing_table/one-shard');
    const holder = (Object.values(routing.body.routing_table.indices['one-shard'].shards) as Array<Array<{ node: string }>>)[0]![0]!.node;
    const runner = cluster.nodes.find((node) => node.nodeId !== holder)!;
    const copied = await runner.request('POST', '/_reindex?refresh=true', { body: { source: { index: 'ctx', size: 7 }, dest: { index: 'one-shard' } } });
    assert.equal(copied.status, 200, copied.text);
    assert.equal(copied.body.created, DOCS, copied.text);
    assert.deepEqual(copied.body.failures, []);
    assert.equal((await runner.request('GET', '/one-shard/_count')).body.count, DOCS);
    const deleted = await cluster.nodes[2]!.request('POST', '/one-shard/_delete_by_query?refresh=true&scroll_size=5', { body: { query: { range: { n: { lt: 20 } } } } });
    assert.equal(deleted.body.deleted, 20, deleted.text);
  });

  test('_msearch, _mget, _count and _update_by_query through every node answer as one node', async () => {
    const strip = (body: any) => JSON.parse(JSON.stringify(body, (key, value) => (key === 'took' ? 0 : value)));
    const msearch =
      [
        { index: 'ctx' },
        { query: { match: { text: 'lazy fox' } }, size: 5 },
        { index: 'ctx' },
        { size: 0, aggs: { spread: { stats: { field: 'n' } } } },
        { index: 'missing-index' },
        { query: { match_all: {} } },
        { index: 'ctx', search_type: 'dfs_query_then_fetch' },
        { query: { match: { text: 'busy dogs' } }, size: 3 },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n') + '\n';
    const expectedMsearch = strip((await single.request('POST', '/_msearch', { raw: msearch, headers: { 'content-type': 'application/x-ndjson' } })).body);
    const mget = { docs: [{ _index: 'ctx', _id: '3' }, { _index: 'ctx', _id: '17' }, { _index: 'ctx', _id: 'nope' }, { _index: 'ctx', _id: '42', _source: ['n'] }] };
    const expectedMget = (await single.request('POST', '/_mget', { body: mget })).body;
    for (const node of cluster.nodes) {
      const answer = await node.request('POST', '/_msearch', { raw: msearch, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(strip(answer.body), expectedMsearch, `_msearch through ${node.name}`);
      const docs = await node.request('POST', '/_mget', { body: mget });
      assert.deepEqual(docs.body, expectedMget, `_mget through ${node.name}`);
    }
    // A by-query update run by one node reaches the shards on the others.
    for (const node of [single, cluster.nodes[1]!]) {
      const updated = await node.request('POST', '/ctx/_update_by_query?refresh=true&scroll_size=7', { body: { query: { range: { n: { gte: 40 } } }, script: { source: 'ctx._source.touched = true' } } });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.updated, 10, updated.text);
    }
    const touched = { query: { term: { touched: true } } };
    const expected = (await single.request('POST', '/ctx/_count', { body: touched })).body;
    for (const node of cluster.nodes) assert.deepEqual((await node.request('POST', '/ctx/_count', { body: touched })).body, expected);
    assert.equal(expected.count, 10);
  });

  test('the can-match pre-filter skips shards on every node as one node does', async () => {
    // Queries the shards rewrite to match_none: ES skips those shards (all but one when none can match).
    const cases = [
      { query: { term: { not_mapped: 'x' } } },
      { query: { bool: { filter: [{ term: { _index: 'other-index' } }] } }, aggs: { top: { max: { field: 'n' } } } },
      { query: { bool: { should: [{ term: { not_mapped: 'x' } }, { match: { text: 'lazy' } }] } }, size: 3 },
    ];
    const nothing = (await single.request('POST', '/ctx/_search?pre_filter_shard_size=1', { body: cases[0] })).body;
    assert.equal(nothing._shards.skipped, 2, 'all shards but one skipped when none can match');
    for (const body of cases) {
      const expected = (await single.request('POST', '/ctx/_search?pre_filter_shard_size=1', { body })).body;
      for (const node of cluster.nodes) {
        const answer = await node.request('POST', '/ctx/_search?pre_filter_shard_size=1', { body });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.body._shards, expected._shards, `${JSON.stringify(body)} through ${node.name}`);
        assert.deepEqual(answer.body.hits, expected.hits);
        assert.deepEqual(answer.body.aggregations, expected.aggregations);
      }
    }
    // On a point in time too: its contexts are asked on their nodes.
    const pit = (await cluster.nodes[0]!.request('POST', '/ctx/_pit?keep_alive=1m')).body.id as string;
    const onPit = await cluster.nodes[1]!.request('POST', '/_search?pre_filter_shard_size=1', { body: { pit: { id: pit }, query: { term: { not_mapped: 'x' } } } });
    assert.equal(onPit.body._shards.skipped, 2, onPit.text);
    assert.equal(onPit.body.hits.total.value, 0);
    await cluster.nodes[2]!.request('DELETE', '/_pit', { body: { id: pit } });
  });

  test("can-match asks each node once for all of the search's shards there (ES 8's [can_match][n])", async () => {
    const [a] = cluster.nodes as [InProcessNode];
    const created = await a.request('PUT', '/cm6', { body: { settings: { number_of_shards: 6, number_of_replicas: 0 } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/cm6?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const seen: Array<{ node: string; shards: string[] }> = [];
    const restores = (cluster.nodes as InProcessNode[]).map((node) =>
      node.node.nodeServices.transport!.wrapHandlerForTest(CAN_MATCH_ACTION, (handler) => async (body, context) => {
        const shards = (body as { shards: Array<{ label: { index: string; shard: number } }> }).shards;
        if (shards.some((shard) => shard.label.index === 'cm6')) seen.push({ node: node.nodeId, shards: shards.map((shard) => `${shard.label.index}/${shard.label.shard}`) });
        return handler(body, context);
      }),
    );
    try {
      const answer = await a.request('POST', '/cm6/_search?pre_filter_shard_size=1', { body: { query: { term: { not_mapped: 'x' } } } });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body._shards, { total: 6, successful: 6, skipped: 5, failed: 0 });
    } finally {
      for (const restore of restores) restore();
    }
    const routing = (await a.request('GET', '/_cluster/state/routing_table/cm6')).body.routing_table.indices.cm6.shards as Record<string, Array<{ node: string }>>;
    const expected = new Map<string, string[]>();
    for (const [shard, copies] of Object.entries(routing)) expected.set(copies[0]!.node, [...(expected.get(copies[0]!.node) ?? []), `cm6/${shard}`]);
    assert.equal(seen.length, expected.size, `one request per node holding shards: ${JSON.stringify(seen)}`);
    for (const request of seen) assert.deepEqual([...request.shards].sort(), [...expected.get(request.node)!].sort());
    await a.request('DELETE', '/cm6');
  });
  test('a search cancelled after some shards answered their query phase fetches nothing and frees their contexts', async () => {
    const [a, b, c] = [cluster.nodes[0]!, cluster.nodes[1]!, cluster.nodes[2]!];
    // One quick shard on b and one slow shard on c (a long sloppy phrase over long documents of five words: every
    // document matches and costs much to score, and cancellation is checked while scoring), searched through a.
    const vocabulary = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    let seed = 11;
    const words = (count: number) =>
      Array.from({ length: count }, () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return vocabulary[seed % 5]!;
      }).join(' ');
    const slowQuery = { query: { match_phrase: { body: { query: Array.from({ length: 25 }, (_, i) => vocabulary[i % 5]).join(' '), slop: 10000 } } } };
    for (const [index, holder, docs] of [['phases-fast', b, 20], ['phases-slow', c, 1500]] as const) {
      const settings = { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': holder.name };
      assert.equal((await a.request('PUT', `/${index}`, { body: { settings, mappings: { properties: { body: { type: 'text' } } } } })).status, 200);
      const bulk = Array.from({ length: docs }, () => `{"index":{"_index":"${index}"}}\n${JSON.stringify({ body: words(300) })}\n`).join('');
      const loaded = await a.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(loaded.body.errors, false, loaded.text);
    }
    await cluster.waitFor(a, '/_cluster/health/phases-*?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const fastSearchStats = async () => (await a.request('GET', '/phases-fast/_stats/search')).body._all.total.search as { query_total: number; fetch_total: number; open_contexts: number };
    const before = await fastSearchStats();
    const pending = a.request('POST', '/phases-fast,phases-slow/_search', { body: slowQuery });
    // Between the phases for the quick shard: its query answered (its context waits on b for the fetch) while
    // the slow shard's query still runs on c.
    let parent: string | undefined;
    for (let i = 0; i < 400 && parent === undefined; i++) {
      const tasks = await a.request('GET', '/_tasks?actions=indices:data/read/search*');
      const listed = Object.values(tasks.body.nodes ?? {}).flatMap((node: any) => Object.entries<any>(node.tasks).map(([taskId, task]) => ({ ...task, taskId })));
      const search = listed.find((task) => task.action === 'indices:data/read/search');
      const slowQueryRunning = listed.some((task) => task.action === 'indices:data/read/search[phase/query]' && task.node === c.nodeId);
      if (search !== undefined && slowQueryRunning && (await fastSearchStats()).open_contexts === 1) parent = search.taskId;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(parent !== undefined, 'the quick shard answered its query phase while the slow one was still querying');
    const cancel = await a.request('POST', `/_tasks/${parent}/_cancel`);
    assert.equal(cancel.status, 200, cancel.text);
    const res = await pending;
    // ES's phase failure: the search could not move on to its fetch phase; the cancelled shard is its root cause.
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.type, 'search_phase_execution_exception', res.text);
    assert.equal(res.body.error.phase, 'fetch', res.text);
    assert.equal(res.body.error.root_cause[0].type, 'task_cancelled_exception', res.text);
    assert.equal(res.body.error.root_cause[0].reason, 'task cancelled [by user request]');
    assert.equal(res.body.error.caused_by.type, 'task_cancelled_exception', res.text);
    const after = await fastSearchStats();
    assert.equal(after.query_total - before.query_total, 1, 'the quick shard ran its query');
    assert.equal(after.fetch_total - before.fetch_total, 0, 'and never fetched');
    for (let i = 0; i < 100 && (await fastSearchStats()).open_contexts > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal((await fastSearchStats()).open_contexts, 0, 'its context was freed');
    assert.equal((await a.request('DELETE', '/phases-fast,phases-slow')).status, 200);
  });

  test('a shard with no started copy is reported as ES reports an unassigned shard (no reason, node null, 503 when nothing answered)', async () => {
    const [a, b] = [cluster.nodes[0]!, cluster.nodes[1]!];
    const settings = { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'no-such-node' };
    const created = await a.request('PUT', '/unplaced?wait_for_active_shards=0', { body: { settings } });
    assert.equal(created.status, 200, created.text);
    const unassigned = { shard: 0, index: 'unplaced', node: null, reason: { type: 'no_shard_available_action_exception', reason: null } };
    for (const node of [a, b]) {
      const alone = await node.request('GET', '/unplaced/_search');
      assert.equal(alone.status, 503, alone.text);
      assert.deepEqual(alone.body, {
        error: {
          root_cause: [{ type: 'no_shard_available_action_exception', reason: null }],
          type: 'search_phase_execution_exception',
          reason: 'all shards failed',
          phase: 'query',
          grouped: true,
          failed_shards: [unassigned],
        },
        status: 503,
      });
      const partial = await node.request('GET', '/ctx,unplaced/_search?size=0');
      assert.equal(partial.status, 200, partial.text);
      assert.deepEqual(partial.body._shards, { total: 4, successful: 3, skipped: 0, failed: 1, failures: [unassigned] });
      assert.equal(partial.body.hits.total.value, DOCS);
    }
    // Status from the causes (SearchPhaseExecutionException.status): a 5xx among them wins over the 400s.
    const badQuery = { query: { match: { n: 'not a number' } } };
    const allBad = await a.request('POST', '/ctx/_search', { body: badQuery });
    assert.equal(allBad.status, 400, allBad.text);
    assert.equal(allBad.body.error.reason, 'all shards failed');
    const mixed = await a.request('POST', '/ctx,unplaced/_search', { body: badQuery });
    assert.equal(mixed.status, 503, mixed.text);
    assert.equal(mixed.body.error.reason, 'all shards failed');
    assert.deepEqual(mixed.body.error.failed_shards.map((failure: { reason: { type: string } }) => failure.reason.type).sort(), ['no_shard_available_action_exception', 'query_shard_exception']);
    assert.equal((await a.request('DELETE', '/unplaced')).status, 200);
  });

  test('when every copy of a shard fails, the first failure stands unless a later one says more than "not available"', async () => {
    const [a, b] = [cluster.nodes[0]!, cluster.nodes[1]!];
    const created = await a.request('PUT', '/copies', { body: { settings: { number_of_shards: 1, number_of_replicas: 2 } } });
    assert.equal(created.status, 200, created.text);
    await cluster.waitFor(a, '/_cluster/health/copies?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const indexed = await a.request('PUT', '/copies/_doc/1?refresh=true', { body: { n: 1 } });
    assert.equal(indexed.status, 201, indexed.text);
    const nodes = (await a.request('GET', '/_nodes/transport')).body.nodes as Record<string, { name: string; transport_address: string }>;
    // How each node's copy answers the query phase of this index: as the copy not being there, or failing.
    const behaviour = new Map<string, 'missing' | 'broken'>();
    const restores = [a, b].map((node) =>
      node.node.nodeServices.transport!.wrapHandlerForTest(QUERY_CONTEXT_ACTION, (handler) => async (body, context) => {
        const request = body as { index?: string; label?: { index: string } };
        const mode = behaviour.get(node.nodeId);
        if ((request.index ?? request.label?.index) === 'copies' && mode !== undefined) {
          throw mode === 'missing' ? errors.shardNotFound('copies', 'uuid', 0) : errors.illegalArgument(`copy on ${node.name} is broken`);
        }
        return handler(body, context);
      }),
    );
    try {
      // Through a with `_only_nodes:a,b`: a's copy is tried first (this node's), then b's.
      const search = () => a.request('GET', `/copies/_search?preference=_only_nodes:${a.nodeId},${b.nodeId}`);
      const notThere = (node: InProcessNode) => ({ type: 'no_shard_available_action_exception', reason: `[${node.name}][${nodes[node.nodeId]!.transport_address}][indices:data/read/search[phase/query]]` });

      behaviour.set(a.nodeId, 'broken').set(b.nodeId, 'missing');
      const firstStands = await search();
      assert.equal(firstStands.status, 400, firstStands.text);
      assert.deepEqual(firstStands.body.error.failed_shards, [{ shard: 0, index: 'copies', node: a.nodeId, reason: { type: 'illegal_argument_exception', reason: `copy on ${a.name} is broken` } }]);

      behaviour.set(a.nodeId, 'missing').set(b.nodeId, 'broken');
      const laterSaysMore = await search();
      assert.equal(laterSaysMore.status, 400, laterSaysMore.text);
      assert.deepEqual(laterSaysMore.body.error.failed_shards, [{ shard: 0, index: 'copies', node: b.nodeId, reason: { type: 'illegal_argument_exception', reason: `copy on ${b.name} is broken` } }]);

      behaviour.set(a.nodeId, 'broken').set(b.nodeId, 'broken');
      const lastOfTwo = await search();
      assert.deepEqual(lastOfTwo.body.error.failed_shards[0].node, b.nodeId, lastOfTwo.text);

      // Neither copy is there: the first copy's failure, wrapped as ES wraps it (the transport exception's message).
      behaviour.set(a.nodeId, 'missing').set(b.nodeId, 'missing');
      const neither = await search();
      assert.equal(neither.status, 503, neither.text);
      assert.deepEqual(neither.body.error.failed_shards, [{ shard: 0, index: 'copies', node: a.nodeId, reason: notThere(a) }]);
      assert.deepEqual(neither.body.error.root_cause, [notThere(a)]);

      // A copy that answers drops the failures of the copies before it.
      behaviour.set(a.nodeId, 'missing').delete(b.nodeId);
      const retried = await search();
      assert.equal(retried.status, 200, retried.text);
      assert.deepEqual(retried.body._shards, { total: 1, successful: 1, skipped: 0, failed: 0 });
      assert.equal(retried.body.hits.total.value, 1);
    } finally {
      for (const restore of restores) restore();
    }
    assert.equal((await a.request('DELETE', '/copies')).status, 200);
  });

  test('_terms_enum answers the terms of a keyword field across shards and nodes as one node does', async () => {
    const tags = ['kibana', 'kibble', 'Kibitz', 'kick', 'kiwi', 'apple', 'banana', 'cherry', ...Array.from({ length: 14 }, (_, i) => `tag-${String(i).padStart(2, '0')}`)];
    const mappings = { properties: { tag: { type: 'keyword' }, code: { type: 'keyword', index: false }, body: { type: 'text' }, n: { type: 'long' } } };
    const bulk = tags.map((tag, i) => `{"index":{"_index":"tags","_id":"${i}"}}\n${JSON.stringify({ tag, code: `c${i % 4}`, body: `word ${tag}`, n: i })}\n`).join('');
    for (const node of [cluster.nodes[0]!, single]) {
      assert.equal((await node.request('PUT', '/tags', { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings } })).status, 200);
      const loaded = await node.request('POST', '/_bulk?refresh=true', { raw: bulk, headers: { 'content-type': 'application/x-ndjson' } });
      assert.equal(loaded.body.errors, false, loaded.text);
    }
    await cluster.waitFor(cluster.nodes[0]!, '/_cluster/health/tags?wait_for_status=green&timeout=30s', (r) => r.body?.status === 'green');
    const sorted = [...tags].sort();
    const cases: Array<{ body: object; terms: string[] }> = [
      { body: { field: 'tag', string: 'ki' }, terms: ['kibana', 'kibble', 'kick', 'kiwi'] },
      { body: { field: 'tag', string: 'KIB', case_insensitive: true }, terms: ['Kibitz', 'kibana', 'kibble'] },
      { body: { field: 'tag' }, terms: sorted.slice(0, 10) },
      { body: { field: 'tag', size: 3, search_after: 'kibana' }, terms: sorted.slice(sorted.indexOf('kibana') + 1, sorted.indexOf('kibana') + 4) },
      { body: { field: 'tag', string: 'tag-1', size: 100 }, terms: ['tag-10', 'tag-11', 'tag-12', 'tag-13'] },
      // A keyword that is not indexed answers from its doc values; other field types have no terms.
      { body: { field: 'code', string: 'c' }, terms: ['c0', 'c1', 'c2', 'c3'] },
      { body: { field: 'body', string: 'w' }, terms: [] },
      { body: { field: 'missing' }, terms: [] },
      // index_filter leaves out the shards where it rewrites to match_none (they still count as successful).
      { body: { field: 'tag', index_filter: { term: { _index: 'other-index' } } }, terms: [] },
      { body: { field: 'tag', string: 'ch', index_filter: { term: { _index: 'tags' } } }, terms: ['cherry'] },
    ];
    for (const { body, terms } of cases) {
      const expected = { _shards: { total: 3, successful: 3, failed: 0 }, terms, complete: true };
      const alone = await single.request('POST', '/tags/_terms_enum', { body });
      assert.deepEqual(alone.body, expected, `one node, ${JSON.stringify(body)}: ${alone.text}`);
      for (const node of cluster.nodes) {
        const answered = await node.request('POST', '/tags/_terms_enum', { body });
        assert.deepEqual(answered.body, expected, `through ${node.name}, ${JSON.stringify(body)}: ${answered.text}`);
      }
    }
    // GET with a body, as Kibana sends it.
    const viaGet = await cluster.nodes[1]!.request('GET', '/tags/_terms_enum', { body: { field: 'tag', string: 'ban' } });
    assert.deepEqual(viaGet.body.terms, ['banana'], viaGet.text);
    const noField = await single.request('POST', '/tags/_terms_enum', { body: { string: 'a' } });
    assert.equal(noField.status, 400, noField.text);
    assert.equal(noField.body.error.type, 'action_request_validation_exception');
    assert.equal(noField.body.error.reason, 'Validation Failed: 1: field cannot be null;');
    const longTimeout = await single.request('POST', '/tags/_terms_enum', { body: { field: 'tag', timeout: '2m' } });
    assert.equal(longTimeout.body.error?.reason, 'Validation Failed: 1: Timeout cannot be > 1 minute;', longTimeout.text);
    const unknown = await single.request('POST', '/tags/_terms_enum', { body: { fields: 'tag' } });
    assert.equal(unknown.status, 400, unknown.text);
    assert.equal(unknown.body.error.type, 'x_content_parse_exception');
    assert.match(unknown.body.error.reason, /\[terms_enum_request\] unknown field \[fields\]/);
    for (const node of [cluster.nodes[0]!, single]) assert.equal((await node.request('DELETE', '/tags')).status, 200);
  });
});
