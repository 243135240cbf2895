/**
 * `_search` against a real node: hits, order and scores checked against BM25 computed by hand from the
 * indexed documents (on one shard, and on three shards with each shard's own statistics), dfs_query_then_fetch
 * giving the single-shard scores on three shards, from/size and index.max_result_window, sort with search_after
 * paging through every document exactly once, track_total_hits, post_filter, min_score, terminate_after,
 * `q=`, the fetch options (_source filtering, fields, docvalue_fields, highlight, version, seq_no, explain),
 * and ES's 400s for malformed requests before any shard runs.
 */
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

const DOCS: Record<string, { title: string; tag: string; n: number }> = {
  '1': { title: 'the quick brown fox', tag: 'animal', n: 5 },
  '2': { title: 'the lazy dog sleeps', tag: 'animal', n: 3 },
  '3': { title: 'quick quick fox jumps high', tag: 'action', n: 9 },
  '4': { title: 'brown dog and brown fox', tag: 'animal', n: 1 },
  '5': { title: 'a fox', tag: 'short', n: 7 },
  '6': { title: 'quick thinking wins the day for the quick team', tag: 'action', n: 2 },
  '7': { title: 'nothing to see here', tag: 'other', n: 8 },
  '8': { title: 'fox fox fox', tag: 'short', n: 4 },
  '9': { title: 'the brown quick fox runs', tag: 'animal', n: 6 },
  '10': { title: 'slow turtle', tag: 'other', n: 10 },
  '11': { title: 'jumps over the lazy dog', tag: 'action', n: 11 },
  '12': { title: 'quick brown dogs', tag: 'animal', n: 12 },
};

const tokens = (text: string): string[] => text.toLowerCase().split(/[^a-z]+/).filter((t) => t.length > 0);

async function createIndex(name: string, shards: number, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await node.request('PUT', `/${name}`, {
    body: {
      settings: { number_of_shards: shards, number_of_replicas: 0, ...extra },
      mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } },
    },
  });
  assert.equal(res.status, 200, res.text);
}

async function bulkIndex(index: string, docs: Record<string, unknown>): Promise<void> {
  const lines = Object.entries(docs).flatMap(([id, doc]) => [JSON.stringify({ index: { _index: index, _id: id } }), JSON.stringify(doc)]);
  const res = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.errors, false, res.text);
}

async function search(path: string, body?: unknown): Promise<any> {
  const res = await node.request('POST', path, body === undefined ? {} : { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'search-node' } });
  await createIndex('bm1', 1);
  await createIndex('bm3', 3);
  await bulkIndex('bm1', DOCS);
  await bulkIndex('bm3', DOCS);
});
after(async () => {
  await node.stop();
});

// ---- BM25 by hand (ES 8: Lucene's BM25 with ES's legacy (k1 + 1) boost) ----

interface ShardStats {
  readonly docs: readonly string[];
}

function fieldStats(docs: readonly string[]): { docCount: number; avgdl: number; df: (term: string) => number } {
  const lengths = docs.map((id) => tokens(DOCS[id]!.title).length);
  const total = lengths.reduce((a, b) => a + b, 0);
  return {
    docCount: docs.length,
    avgdl: total / docs.length,
    df: (term) => docs.filter((id) => tokens(DOCS[id]!.title).includes(term)).length,
  };
}

const K1 = 1.2;
const B = 0.75;

function idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

function tfNorm(freq: number, dl: number, avgdl: number): number {
  return freq / (freq + K1 * (1 - B + (B * dl) / avgdl));
}

/** `match` on title (OR of terms): the sum of each term's BM25. */
function matchScore(shard: ShardStats, id: string, query: string): number {
  const stats = fieldStats(shard.docs);
  const docTokens = tokens(DOCS[id]!.title);
  let score = 0;
  for (const term of new Set(tokens(query))) {
    const freq = docTokens.filter((t) => t === term).length;
    if (freq === 0) continue;
    score += (K1 + 1) * idf(stats.docCount, stats.df(term)) * tfNorm(freq, docTokens.length, stats.avgdl);
  }
  return score;
}

/** `match_phrase` (exact, slop 0): summed idf of the terms times the tf of the phrase frequency. */
function phraseScore(shard: ShardStats, id: string, phrase: string): number {
  const stats = fieldStats(shard.docs);
  const docTokens = tokens(DOCS[id]!.title);
  const terms = tokens(phrase);
  let freq = 0;
  for (let i = 0; i + terms.length <= docTokens.length; i++) if (terms.every((term, j) => docTokens[i + j] === term)) freq++;
  if (freq === 0) return 0;
  const idfSum = terms.reduce((sum, term) => sum + idf(stats.docCount, stats.df(term)), 0);
  return (K1 + 1) * idfSum * tfNorm(freq, docTokens.length, stats.avgdl);
}

/** `term` on a keyword (no norms, docs only): the tf part is 1 / (k1 + 1), so the score is the idf. */
function keywordTermScore(shard: ShardStats, value: string): number {
  const docs = shard.docs;
  return idf(docs.length, docs.filter((id) => DOCS[id]!.tag === value).length);
}

function assertScore(actual: number, expected: number, message: string): void {
  assert.ok(Math.abs(actual - expected) <= 1e-5 * Math.max(1, Math.abs(expected)), `${message}: got ${actual}, expected ${expected}`);
}

/** Which shard each doc of an index lives on (read from explain's `_shard`). */
async function shardsOf(index: string): Promise<Map<string, ShardStats>> {
  const body = await search(`/${index}/_search`, { size: 100, explain: true, query: { match_all: {} } });
  const byShard = new Map<string, string[]>();
  const docShard = new Map<string, string>();
  for (const hit of body.hits.hits) {
    const list = byShard.get(hit._shard) ?? [];
    list.push(hit._id);
    byShard.set(hit._shard, list);
    docShard.set(hit._id, hit._shard);
  }
  const out = new Map<string, ShardStats>();
  for (const [id, shard] of docShard) out.set(id, { docs: byShard.get(shard)! });
  return out;
}

function assertDescendingScores(hits: any[]): void {
  for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]._score >= hits[i]._score, `scores descend at ${i}`);
}

describe('scores and order', () => {
  const allDocs: ShardStats = { docs: Object.keys(DOCS) };

  test('match on one shard: every hit, its score and the order match hand-computed BM25', async () => {
    const body = await search('/bm1/_search', { query: { match: { title: 'quick fox' } }, size: 20 });
    const expected = Object.keys(DOCS)
      .map((id) => ({ id, score: matchScore(allDocs, id, 'quick fox') }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
    assert.equal(body.hits.total.value, expected.length);
    assert.deepEqual(
      body.hits.hits.map((hit: any) => hit._id),
      expected.map((entry) => entry.id),
    );
    for (const hit of body.hits.hits) assertScore(hit._score, matchScore(allDocs, hit._id, 'quick fox'), `doc ${hit._id}`);
    assert.equal(body.hits.max_score, body.hits.hits[0]._score);
    assert.equal(body.hits.hits[0]._index, 'bm1');
  });

  test('match_phrase, term and bool on one shard', async () => {
    const phrase = await search('/bm1/_search', { query: { match_phrase: { title: 'brown fox' } } });
    assert.deepEqual(phrase.hits.hits.map((hit: any) => hit._id).sort(), ['1', '4']);
    for (const hit of phrase.hits.hits) assertScore(hit._score, phraseScore(allDocs, hit._id, 'brown fox'), `phrase doc ${hit._id}`);
    const term = await search('/bm1/_search', { query: { term: { tag: 'short' } } });
    assert.deepEqual(term.hits.hits.map((hit: any) => hit._id).sort(), ['5', '8']);
    for (const hit of term.hits.hits) assertScore(hit._score, keywordTermScore(allDocs, 'short'), 'term');
    const bool = await search('/bm1/_search', {
      size: 20,
      query: { bool: { must: [{ match: { title: 'fox' } }], should: [{ term: { tag: 'animal' } }], filter: [{ range: { n: { gte: 2 } } }], must_not: [{ term: { tag: 'short' } }] } },
    });
    const expected = Object.keys(DOCS)
      .filter((id) => tokens(DOCS[id]!.title).includes('fox') && DOCS[id]!.n >= 2 && DOCS[id]!.tag !== 'short')
      .map((id) => ({ id, score: matchScore(allDocs, id, 'fox') + (DOCS[id]!.tag === 'animal' ? keywordTermScore(allDocs, 'animal') : 0) }))
      .sort((a, b) => b.score - a.score);
    assert.deepEqual(
      bool.hits.hits.map((hit: any) => hit._id),
      expected.map((entry) => entry.id),
    );
    for (const [i, hit] of bool.hits.hits.entries()) assertScore(hit._score, expected[i]!.score, `bool doc ${hit._id}`);
  });

  test('on three shards each shard scores with its own statistics (query_then_fetch)', async () => {
    const shards = await shardsOf('bm3');
    assert.ok(new Set([...shards.values()].map((s) => s.docs.join())).size > 1, 'docs spread over several shards');
    const body = await search('/bm3/_search', { query: { match: { title: 'quick fox' } }, size: 20 });
    assert.equal(body._shards.total, 3);
    assert.equal(body._shards.successful, 3);
    for (const hit of body.hits.hits) assertScore(hit._score, matchScore(shards.get(hit._id)!, hit._id, 'quick fox'), `doc ${hit._id}`);
    assertDescendingScores(body.hits.hits);
    const phrase = await search('/bm3/_search', { query: { match_phrase: { title: 'brown fox' } } });
    for (const hit of phrase.hits.hits) assertScore(hit._score, phraseScore(shards.get(hit._id)!, hit._id, 'brown fox'), `phrase doc ${hit._id}`);
  });

  test('dfs_query_then_fetch on three shards gives exactly the single-shard scores and order', async () => {
    for (const query of [
      { match: { title: 'quick fox' } },
      { match_phrase: { title: 'brown fox' } },
      { bool: { should: [{ match: { title: 'brown dog' } }, { term: { tag: 'animal' } }] } },
    ]) {
      const single = await search('/bm1/_search', { query, size: 20 });
      const dfs = await search('/bm3/_search?search_type=dfs_query_then_fetch', { query, size: 20 });
      const plain = await search('/bm3/_search', { query, size: 20 });
      const scores = (body: any): Record<string, number> => Object.fromEntries(body.hits.hits.map((hit: any) => [hit._id, hit._score]));
      assert.deepEqual(scores(dfs), scores(single), JSON.stringify(query));
      assert.notDeepEqual(scores(plain), scores(single), 'without dfs the per-shard statistics differ');
      assertDescendingScores(dfs.hits.hits);
    }
  });

  test('ties break by shard then doc order, and from/size pages the merged order', async () => {
    const all = await search('/bm3/_search', { query: { constant_score: { filter: { match_all: {} } } }, size: 20 });
    assert.ok(all.hits.hits.every((hit: any) => hit._score === 1));
    const ids = all.hits.hits.map((hit: any) => hit._id);
    assert.equal(ids.length, 12);
    const paged: string[] = [];
    for (let from = 0; from < 12; from += 5) {
      const page = await search(`/bm3/_search?from=${from}&size=5`, { query: { constant_score: { filter: { match_all: {} } } } });
      paged.push(...page.hits.hits.map((hit: any) => hit._id));
    }
    assert.deepEqual(paged, ids);
  });
});

describe('paging, sorting and totals', () => {
  before(async () => {
    const res = await node.request('PUT', '/paging', {
      body: { settings: { number_of_shards: 3, number_of_replicas: 0, 'index.max_result_window': 60 }, mappings: { properties: { n: { type: 'long' }, k: { type: 'keyword' }, d: { type: 'double' } } } },
    });
    assert.equal(res.status, 200, res.text);
    const docs: Record<string, unknown> = {};
    for (let i = 0; i < 57; i++) docs[`p${i}`] = { n: i % 7, k: `key-${String(i).padStart(3, '0')}`, ...(i % 5 !== 0 && { d: (i * 37) % 11 + 0.5 }) };
    await bulkIndex('paging', docs);
  });

  test('sort + search_after visits every document exactly once, in sort order', async () => {
    const seen: string[] = [];
    const sortValues: any[][] = [];
    let after: unknown[] | undefined;
    for (let page = 0; page < 20; page++) {
      const body = await search('/paging/_search', { size: 8, sort: [{ n: 'desc' }, { k: 'asc' }], ...(after !== undefined && { search_after: after }) });
      if (body.hits.hits.length === 0) break;
      for (const hit of body.hits.hits) {
        seen.push(hit._id);
        sortValues.push(hit.sort);
        assert.equal(hit._score, null);
      }
      assert.equal(body.hits.max_score, null);
      after = body.hits.hits[body.hits.hits.length - 1].sort;
    }
    assert.equal(seen.length, 57);
    assert.equal(new Set(seen).size, 57);
    for (let i = 1; i < sortValues.length; i++) {
      const [n1, k1] = sortValues[i - 1]!;
      const [n2, k2] = sortValues[i]!;
      assert.ok(n1 > n2 || (n1 === n2 && k1 < k2), `order at ${i}: ${JSON.stringify(sortValues[i - 1])} then ${JSON.stringify(sortValues[i])}`);
    }
  });

  test('missing values sort last (asc and desc), doubles print as Java doubles, `_first` moves them', async () => {
    const asc = await node.request('POST', '/paging/_search', { body: { size: 57, sort: [{ d: 'asc' }, { k: 'asc' }], _source: false } });
    const values = asc.body.hits.hits.map((hit: any) => hit.sort[0]);
    assert.equal(values.filter((v: unknown) => v === 'Infinity').length, 12);
    assert.deepEqual(values.slice(-12), Array(12).fill('Infinity'));
    assert.match(asc.text, /"sort":\[0\.5,"key-/);
    const first = await search('/paging/_search', { size: 3, sort: [{ d: { order: 'desc', missing: '_first' } }, { k: 'asc' }] });
    assert.deepEqual(first.hits.hits.map((hit: any) => hit._id), ['p0', 'p5', 'p10']);
    const longs = await search('/paging/_search', { size: 1, sort: [{ n: { order: 'asc', mode: 'min' } }, { k: 'desc' }] });
    assert.deepEqual(longs.hits.hits[0].sort, [0, 'key-056']);
  });

  test('from + size beyond index.max_result_window: ES 400 from every shard', async () => {
    const res = await node.request('POST', '/paging/_search', { body: { from: 55, size: 10 } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'search_phase_execution_exception');
    assert.equal(res.body.error.reason, 'all shards failed');
    assert.equal(res.body.error.phase, 'query');
    assert.equal(res.body.error.grouped, true);
    assert.equal(res.body.error.root_cause[0].type, 'illegal_argument_exception');
    assert.equal(
      res.body.error.root_cause[0].reason,
      'Result window is too large, from + size must be less than or equal to: [60] but was [65]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.',
    );
    assert.equal(res.body.error.failed_shards.length, 1, 'grouped by index and reason');
    assert.equal(res.body.error.failed_shards[0].index, 'paging');
    assert.equal(res.body.error.caused_by.type, 'illegal_argument_exception');
    assert.equal((await node.request('POST', '/paging/_search', { body: { from: 50, size: 10 } })).status, 200);
  });

  test('track_total_hits: default 10,000 bound, a lower bound, exact, disabled, as an int', async () => {
    const dflt = await search('/paging/_search', { size: 0 });
    assert.deepEqual(dflt.hits.total, { value: 57, relation: 'eq' });
    const bounded = await search('/paging/_search', { size: 2, track_total_hits: 10 });
    assert.deepEqual(bounded.hits.total, { value: 10, relation: 'gte' });
    const exact = await search('/paging/_search', { size: 2, track_total_hits: true });
    assert.deepEqual(exact.hits.total, { value: 57, relation: 'eq' });
    const off = await search('/paging/_search', { size: 2, track_total_hits: false });
    assert.equal(off.hits.total, undefined);
    assert.equal(off.hits.hits.length, 2);
    const asInt = await search('/paging/_search?rest_total_hits_as_int=true', { size: 0 });
    assert.equal(asInt.hits.total, 57);
    const bad = await node.request('POST', '/paging/_search?rest_total_hits_as_int=true', { body: { track_total_hits: 100 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.reason, '[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 100');
  });

  test('post_filter narrows hits but not aggregations; min_score; terminate_after', async () => {
    const body = await search('/paging/_search', { size: 20, post_filter: { term: { n: 3 } }, aggs: { ns: { terms: { field: 'n', size: 10 } } } });
    assert.equal(body.hits.total.value, 8);
    assert.ok(body.hits.hits.every((hit: any) => hit._source.n === 3));
    assert.equal(body.aggregations.ns.buckets.length, 7);
    const minScore = await search('/bm1/_search', { min_score: 1.0, size: 20, query: { match: { title: 'quick fox' } } });
    const all = await search('/bm1/_search', { size: 20, query: { match: { title: 'quick fox' } } });
    const expected = all.hits.hits.filter((hit: any) => hit._score >= 1.0).map((hit: any) => hit._id);
    assert.ok(expected.length > 0 && expected.length < all.hits.hits.length);
    assert.deepEqual(minScore.hits.hits.map((hit: any) => hit._id), expected);
    assert.equal(minScore.hits.total.value, expected.length);
    const terminated = await search('/bm1/_search?terminate_after=3', { size: 20 });
    assert.equal(terminated.terminated_early, true);
    assert.equal(terminated.hits.total.value, 3);
    const notTerminated = await search('/bm1/_search?terminate_after=100', { size: 0 });
    assert.equal(notTerminated.terminated_early, false);
    assert.equal(notTerminated.hits.total.value, 12);
  });
});

describe('fetch options and request forms', () => {
  test('q= query_string, GET without a body, several indices, wildcards and _all', async () => {
    const q = await node.request('GET', '/bm1/_search?q=title:turtle');
    assert.equal(q.status, 200);
    assert.deepEqual(q.body.hits.hits.map((hit: any) => hit._id), ['10']);
    const both = await node.request('GET', '/bm1,bm3/_search?q=tag:other&size=10');
    assert.equal(both.body._shards.total, 4);
    assert.equal(both.body.hits.total.value, 4);
    assert.deepEqual([...new Set(both.body.hits.hits.map((hit: any) => hit._index))].sort(), ['bm1', 'bm3']);
    const wildcard = await node.request('GET', '/bm*/_search?size=0');
    assert.equal(wildcard.body.hits.total.value, 24);
    const all = await node.request('GET', '/_all/_search?size=0&q=tag:short');
    assert.equal(all.body.hits.total.value, 4);
    const missing = await node.request('GET', '/nope/_search');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.type, 'index_not_found_exception');
    const lenient = await node.request('GET', '/nope,bm1/_search?ignore_unavailable=true&size=0');
    assert.equal(lenient.body.hits.total.value, 12);
  });

  test('_source filtering, fields, docvalue_fields, highlight, version and seq_no_primary_term', async () => {
    const res = await node.request('POST', '/bm1/_search', {
      body: {
        query: { match: { title: 'turtle' } },
        _source: { includes: ['title'] },
        fields: ['tag', { field: 'n' }],
        docvalue_fields: ['n'],
        highlight: { fields: { title: {} } },
        version: true,
        seq_no_primary_term: true,
      },
    });
    assert.equal(res.status, 200, res.text);
    const hit = res.body.hits.hits[0];
    assert.deepEqual(Object.keys(hit), ['_index', '_id', '_version', '_seq_no', '_primary_term', '_score', '_source', 'fields', 'highlight']);
    assert.deepEqual(hit._source, { title: 'slow turtle' });
    assert.equal(hit._version, 1);
    assert.equal(typeof hit._seq_no, 'number');
    assert.equal(hit._primary_term, 1);
    assert.deepEqual(hit.fields.tag, ['other']);
    assert.deepEqual(hit.fields.n, [10]);
    assert.deepEqual(hit.highlight, { title: ['slow <em>turtle</em>'] });
    const noSource = await search('/bm1/_search', { _source: false, query: { ids: { values: ['5'] } } });
    assert.equal(noSource.hits.hits[0]._source, undefined);
    const none = await search('/bm1/_search', { stored_fields: '_none_', query: { ids: { values: ['5'] } } });
    assert.equal(none.hits.hits[0]._id, undefined);
    assert.equal(none.hits.hits[0]._source, undefined);
    const raw = await node.request('POST', '/bm1/_search', { body: { query: { ids: { values: ['5'] } } } });
    assert.match(raw.text, /"_source":\{"title":"a fox","tag":"short","n":7\}/);
  });

  test('explain in hits: _shard, _node and Lucene explanation whose value is the score', async () => {
    const body = await search('/bm1/_search', { explain: true, query: { match: { title: 'turtle' } } });
    const hit = body.hits.hits[0];
    assert.deepEqual(Object.keys(hit).slice(0, 3), ['_shard', '_node', '_index']);
    assert.equal(hit._shard, '[bm1][0]');
    // The node holding the copy that answered: this one when it is alone.
    const routing = await node.request('GET', '/_cluster/state/routing_table/bm1');
    const holders = (routing.body.routing_table.indices.bm1.shards['0'] as Array<{ node: string }>).map((copy) => copy.node);
    assert.ok(holders.includes(hit._node), `${hit._node} holds [bm1][0]: ${holders.join(', ')}`);
    if (node.peers.length === 0) assert.equal(hit._node, node.nodeId);
    assert.equal(hit._explanation.value, hit._score);
    assert.match(hit._explanation.description, /^weight\(title:turtle in \d+\)/);
  });

  test('malformed requests fail with ES 400s before any shard runs', async () => {
    const before = await node.request('GET', '/bm1/_stats/search');
    const queriesBefore = before.body._all.total.search.query_total;
    const cases: Array<[unknown, string, RegExp]> = [
      [{ query: { bogus: {} } }, 'parsing_exception', /unknown query \[bogus\]/],
      [{ query: { match: { title: { query: 'x', nope: 1 } } } }, 'parsing_exception', /\[match\] query does not support \[nope\]/],
      [{ size: -1 }, 'illegal_argument_exception', /\[size\] parameter cannot be negative/],
      [{ from: 1, search_after: [1] , sort: ['n'] }, 'action_request_validation_exception', /\[from\] parameter must be set to 0 when \[search_after\] is used/],
      [{ aggs: { a: { nope: {} } } }, 'parsing_exception', /Unknown aggregation type \[nope\]/],
      [{ querry: {} }, 'parsing_exception', /Unknown key for a START_OBJECT in \[querry\]/],
    ];
    for (const [body, type, reason] of cases) {
      const res = await node.request('POST', '/bm1/_search', { body });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error.type, type, `${JSON.stringify(body)}: ${res.text}`);
      assert.match(res.body.error.reason, reason);
    }
    const badJson = await node.request('POST', '/bm1/_search', { raw: '{"query": {', headers: { 'content-type': 'application/json' } });
    assert.equal(badJson.status, 400);
    const badType = await node.request('POST', '/bm1/_search?search_type=nope');
    assert.equal(badType.status, 400);
    assert.equal(badType.body.error.reason, 'No search type for [nope]');
    const after = await node.request('GET', '/bm1/_stats/search');
    assert.equal(after.body._all.total.search.query_total, queriesBefore, 'no query phase ran');
  });

  test('a query that fails to build on the shard is a search_phase_execution_exception with the shard failure', async () => {
    const res = await node.request('POST', '/bm3/_search', { body: { query: { term: { n: 'abc' } } } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.type, 'search_phase_execution_exception');
    assert.equal(res.body.error.root_cause[0].type, 'query_shard_exception');
    assert.equal(res.body.error.root_cause[0].reason, 'failed to create query: For input string: "abc"');
    assert.equal(res.body.error.failed_shards.length, 1);
    assert.equal(res.body.error.failed_shards[0].reason.caused_by.type, 'number_format_exception');
    assert.equal(res.body.error.caused_by, undefined);
  });

  test('search statistics count query and fetch phases per shard', async () => {
    const before = (await node.request('GET', '/bm3/_stats/search')).body._all.total.search;
    await search('/bm3/_search', { query: { match: { title: 'fox' } } });
    const after = (await node.request('GET', '/bm3/_stats/search')).body._all.total.search;
    assert.equal(after.query_total - before.query_total, 3);
    assert.ok(after.fetch_total - before.fetch_total >= 1);
    assert.equal(after.query_current, 0);
    assert.equal(after.open_contexts, 0);
    const cat = await node.request('GET', '/_cat/indices/bm3?h=search.query_total&format=json');
    assert.equal(Number(cat.body[0]['search.query_total']), after.query_total);
    const catNodes = await node.request('GET', '/_cat/nodes?h=search.query_total,search.fetch_total&format=json');
    // Summed over the nodes (this one alone, or each node for the shards it holds).
    const nodesTotal = (column: string) => catNodes.body.reduce((sum: number, row: Record<string, string>) => sum + Number(row[column]), 0);
    assert.ok(nodesTotal('search.query_total') >= after.query_total, JSON.stringify(catNodes.body));
    assert.ok(nodesTotal('search.fetch_total') >= after.fetch_total);
  });

  test('a shard that fails while others succeed: 200 with the grouped failure in _shards; not allowed when partial results are off', async () => {
    const created = await node.request('PUT', '/mixed', { body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'keyword' } } } } });
    assert.equal(created.status, 200, created.text);
    await bulkIndex('mixed', { m1: { n: 'abc' } });
    const res = await node.request('POST', '/bm3,mixed/_search', { body: { query: { term: { n: 'abc' } } } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body._shards.total, 4);
    assert.equal(res.body._shards.successful, 1);
    assert.equal(res.body._shards.failed, 3);
    assert.equal(res.body._shards.failures.length, 1, 'three failures of one index and reason, grouped');
    const failure = res.body._shards.failures[0];
    assert.deepEqual(Object.keys(failure), ['shard', 'index', 'node', 'reason']);
    assert.equal(failure.index, 'bm3');
    assert.equal(failure.reason.type, 'query_shard_exception');
    assert.deepEqual(res.body.hits.hits.map((hit: any) => hit._id), ['m1']);
    const strict = await node.request('POST', '/bm3,mixed/_search?allow_partial_search_results=false', { body: { query: { term: { n: 'abc' } } } });
    assert.equal(strict.status, 400);
    assert.equal(strict.body.error.type, 'search_phase_execution_exception');
    assert.equal(strict.body.error.reason, 'Partial shards failure');
  });
});
