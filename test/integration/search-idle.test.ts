/**
 * Search-idle shards (docs/decisions/0025, ES's IndexShard.scheduledRefresh and ensureShardSearchActive) over HTTP:
 * a copy nobody searched for `index.search.idle.after` skips its scheduled refreshes while it is written; the next
 * search (can_match, query), explain or non-realtime get refreshes it first and sees every acknowledged write; an
 * explicit `index.refresh_interval` keeps the refreshes going; `refresh=wait_for` still completes; `_cat/shards`
 * `refresh.is_search_idle` and `_stats?level=shards` `search_idle`/`search_idle_time` say so.
 *
 * `index.search.idle.after: 1s` stands in for ES's 30 s default. A scheduled refresh runs every second, so "no
 * refresh ran" is checked over more than two of them; waits are generous for a loaded host.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { NodeProcess } from '../helpers/node-process.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };
const IDLE = { 'search.idle.after': '1s' };
/** More than two scheduled refresh ticks (1 s apart). */
const TICKS = 2_500;

let node: NodeProcess;
before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'search-idle-node' } });
});
after(async () => {
  await node.stop();
});

async function createIndex(name: string, settings: Record<string, unknown>, mappings?: Record<string, unknown>): Promise<void> {
  const created = await node.request('PUT', `/${name}`, { body: { settings: { number_of_replicas: 0, ...settings }, ...(mappings !== undefined && { mappings }) } });
  assert.equal(created.status, 200, created.text);
  const health = await node.request('GET', `/_cluster/health/${name}?wait_for_status=green&timeout=30s`);
  assert.equal(health.body.status, 'green', health.text);
}

/** `_cat/shards` `refresh.is_search_idle` (alias `rsi`) of every copy of the index. */
async function searchIdleCells(index: string): Promise<string[]> {
  const cat = await node.request('GET', `/_cat/shards/${index}?h=rsi&format=json`);
  assert.equal(cat.status, 200, cat.text);
  return cat.body.map((row: Record<string, string>) => row['rsi']);
}

/** Waits until every copy of the index reports itself search-idle (nothing here acquires a searcher). */
async function waitSearchIdle(index: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const cells = await searchIdleCells(index);
    if (cells.length > 0 && cells.every((cell) => cell === 'true')) return;
    if (Date.now() > deadline) assert.fail(`${index} never became search-idle: ${cells.join(',')}`);
    await sleep(200);
  }
}

/** Refreshes that made documents visible, and the documents visible, summed over the index's primaries. */
async function refreshedState(index: string): Promise<{ external: number; docs: number }> {
  const stats = await node.request('GET', `/${index}/_stats/refresh,docs`);
  assert.equal(stats.status, 200, stats.text);
  const primaries = stats.body.indices[index].primaries;
  return { external: primaries.refresh.external_total, docs: primaries.docs.count };
}

async function bulk(index: string, ids: readonly string[], refresh?: string): Promise<void> {
  const lines = ids.flatMap((id) => [JSON.stringify({ index: { _index: index, _id: id } }), JSON.stringify({ title: `doc ${id}` })]);
  const answer = await node.request('POST', `/_bulk${refresh === undefined ? '' : `?refresh=${refresh}`}`, { raw: `${lines.join('\n')}\n`, headers: NDJSON });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.errors, false, answer.text);
}

// Each test has its own index and mostly waits: they run side by side.
describe('search-idle shards', { concurrency: true }, () => {
  test('a search-idle shard skips scheduled refreshes while written; a search refreshes it first and sees every write', async () => {
    await createIndex('idle', { number_of_shards: 1, ...IDLE });
    await waitSearchIdle('idle');
    const before = await refreshedState('idle');
    await bulk('idle', ['1', '2', '3']);
    await sleep(TICKS);
    // No scheduled refresh ran: the documents are written and acknowledged but not yet visible.
    assert.deepEqual(await refreshedState('idle'), before);
    assert.deepEqual(await searchIdleCells('idle'), ['true']);
    const shardStats = await node.request('GET', '/idle/_stats?level=shards');
    const copy = shardStats.body.indices.idle.shards['0'][0];
    assert.equal(copy.search_idle, true);
    assert.ok(copy.search_idle_time >= 1000, String(copy.search_idle_time));
    assert.deepEqual(Object.keys(copy).slice(-3), ['shard_path', 'search_idle', 'search_idle_time']);

    // The search waits for a refresh and sees all three; the shard is no longer idle.
    const search = await node.request('POST', '/idle/_search', { body: { query: { match_all: {} } } });
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body.hits.total.value, 3);
    const after = await refreshedState('idle');
    assert.equal(after.docs, 3);
    assert.ok(after.external > before.external, `${after.external} > ${before.external}`);
    assert.deepEqual(await searchIdleCells('idle'), ['false']);
    const active = await node.request('GET', '/idle/_stats?level=shards');
    assert.equal(active.body.indices.idle.shards['0'][0].search_idle, false);
  });

  /** Writes one document to a search-idle copy and leaves a scheduled refresh skipped for it. */
  async function writeWhileIdle(index: string, id: string): Promise<void> {
    await createIndex(index, { number_of_shards: 1, ...IDLE });
    await waitSearchIdle(index);
    await bulk(index, [id]);
    await sleep(TICKS);
    assert.equal((await refreshedState(index)).docs, 0);
  }

  test('_count on a search-idle shard refreshes it first', async () => {
    await writeWhileIdle('idle-count', 'a');
    const count = await node.request('GET', '/idle-count/_count');
    assert.equal(count.body.count, 1, count.text);
  });

  test('explain on a search-idle shard refreshes it first', async () => {
    await writeWhileIdle('idle-explain', 'b');
    const explain = await node.request('POST', '/idle-explain/_explain/b', { body: { query: { match: { title: 'b' } } } });
    assert.equal(explain.status, 200, explain.text);
    assert.equal(explain.body.matched, true);
  });

  test('a non-realtime get on a search-idle shard refreshes it first; a realtime one reads the write without a refresh', async () => {
    await writeWhileIdle('idle-get', 'c');
    const realtime = await node.request('GET', '/idle-get/_doc/c');
    assert.equal(realtime.body.found, true, realtime.text);
    assert.equal((await refreshedState('idle-get')).docs, 0);
    const get = await node.request('GET', '/idle-get/_doc/c?realtime=false');
    assert.equal(get.status, 200, get.text);
    assert.equal(get.body.found, true);
  });

  test('can_match on a search-idle shard with a skipped refresh answers "can match", so the new documents are found', async () => {
    await createIndex('idle-range', { number_of_shards: 2, ...IDLE }, { properties: { ts: { type: 'date' } } });
    const old = ['o1', 'o2', 'o3', 'o4'].flatMap((id) => [JSON.stringify({ index: { _index: 'idle-range', _id: id } }), JSON.stringify({ ts: '2020-01-01' })]);
    assert.equal((await node.request('POST', '/_bulk?refresh=true', { raw: `${old.join('\n')}\n`, headers: NDJSON })).status, 200);
    await waitSearchIdle('idle-range');
    const fresh = ['n1', 'n2', 'n3', 'n4'].flatMap((id) => [JSON.stringify({ index: { _index: 'idle-range', _id: id } }), JSON.stringify({ ts: '2024-06-01' })]);
    assert.equal((await node.request('POST', '/_bulk', { raw: `${fresh.join('\n')}\n`, headers: NDJSON })).status, 200);
    await sleep(TICKS);
    // pre_filter_shard_size=1 runs can_match on both shards; over their last refresh every ts is 2020, which a range
    // from 2024 on excludes, but the skipped refresh holds documents it matches.
    const search = await node.request('POST', '/idle-range/_search?pre_filter_shard_size=1', { body: { query: { range: { ts: { gte: '2024-01-01' } } } } });
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body.hits.total.value, 4, search.text);
    assert.equal(search.body._shards.skipped, 0);
  });

  test("_terms_enum on a search-idle shard reads its last refresh without waiting for one, and its index_filter answers \"can match\" while a refresh is pending (ES's TransportTermsEnumAction)", async () => {
    await createIndex('idle-terms', { number_of_shards: 1, ...IDLE }, { properties: { tag: { type: 'keyword' }, ts: { type: 'date' } } });
    const old = [JSON.stringify({ index: { _index: 'idle-terms', _id: 'o' } }), JSON.stringify({ tag: 'old', ts: '2020-01-01' })];
    assert.equal((await node.request('POST', '/_bulk?refresh=true', { raw: `${old.join('\n')}\n`, headers: NDJSON })).status, 200);
    await waitSearchIdle('idle-terms');
    const fresh = [JSON.stringify({ index: { _index: 'idle-terms', _id: 'n' } }), JSON.stringify({ tag: 'new', ts: '2024-06-01' })];
    assert.equal((await node.request('POST', '/_bulk', { raw: `${fresh.join('\n')}\n`, headers: NDJSON })).status, 200);
    await sleep(TICKS);
    // Over the last refresh every ts is 2020, which the filter rules out; the pending refresh holds a match, so the
    // shard takes part, and it answers the terms of its last refresh (ES acquires a searcher, awaits no refresh).
    const terms = await node.request('POST', '/idle-terms/_terms_enum', { body: { field: 'tag', index_filter: { range: { ts: { gte: '2024-01-01' } } } } });
    assert.equal(terms.status, 200, terms.text);
    assert.deepEqual(terms.body, { _shards: { total: 1, successful: 1, failed: 0 }, terms: ['old'], complete: true });
  });

  test('refresh=wait_for on a search-idle shard completes: the scheduled refresh runs for it', async () => {
    await createIndex('idle-wait', { number_of_shards: 1, ...IDLE });
    await waitSearchIdle('idle-wait');
    const started = Date.now();
    await bulk('idle-wait', ['w1', 'w2'], 'wait_for');
    assert.ok(Date.now() - started < 20_000);
    // Visible without any search: the refresh the write waited for ran.
    assert.equal((await refreshedState('idle-wait')).docs, 2);
    assert.deepEqual(await searchIdleCells('idle-wait'), ['true']);
  });

  test('an explicit index.refresh_interval keeps refreshing a search-idle shard, as ES; removing it restores skipping', async () => {
    await createIndex('idle-explicit', { number_of_shards: 1, refresh_interval: '1s', ...IDLE });
    await waitSearchIdle('idle-explicit');
    await bulk('idle-explicit', ['e1', 'e2']);
    const deadline = Date.now() + 20_000;
    while ((await refreshedState('idle-explicit')).docs !== 2) {
      if (Date.now() > deadline) assert.fail('the explicit refresh interval did not make the documents visible');
      await sleep(200);
    }
    assert.deepEqual(await searchIdleCells('idle-explicit'), ['true']);

    // Back to the default interval (the setting removed): scheduled refreshes are skipped again.
    assert.equal((await node.request('PUT', '/idle-explicit/_settings', { body: { index: { refresh_interval: null } } })).status, 200);
    const before = await refreshedState('idle-explicit');
    await bulk('idle-explicit', ['e3']);
    await sleep(TICKS);
    assert.deepEqual(await refreshedState('idle-explicit'), before);
  });
});
