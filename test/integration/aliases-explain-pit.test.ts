/**
 * Alias filters beyond `_search` and `_count`: `_explain` through a filtering alias explains the filtered query
 * (ES's TransportExplainAction takes the alias filter; ContextIndexSearcher.explain wraps the query in it), and a
 * point in time opened through a filtering alias applies the filter it was opened with to every search on it (ES
 * keeps the AliasFilter map in the PIT id), even after the alias changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

async function seed(node: NodeProcess): Promise<void> {
  await node.request('PUT', '/people', { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings: { properties: { team: { type: 'keyword' }, name: { type: 'text' } } } } });
  const lines: string[] = [];
  for (let i = 0; i < 12; i++) {
    lines.push(JSON.stringify({ index: { _index: 'people', _id: String(i) } }));
    lines.push(JSON.stringify({ team: i % 3 === 0 ? 'red' : 'blue', name: `person number ${i}` }));
  }
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: `${lines.join('\n')}\n`, headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.body.errors, false, bulk.text);
  const alias = await node.request('POST', '/_aliases', { body: { actions: [{ add: { index: 'people', alias: 'reds', filter: { term: { team: 'red' } } } }] } });
  assert.equal(alias.status, 200, alias.text);
}

test('_explain through a filtering alias explains the filtered query', async () => {
  const node = await NodeProcess.start();
  try {
    await seed(node);
    const query = { query: { match: { name: 'person' } } };
    // Doc 3 is red: it matches through the alias, and its score is the query's own (the filter adds nothing).
    const direct = await node.request('POST', '/people/_explain/3', { body: query });
    const viaAlias = await node.request('POST', '/reds/_explain/3', { body: query });
    assert.equal(viaAlias.status, 200, viaAlias.text);
    assert.equal(viaAlias.body._index, 'people');
    assert.equal(viaAlias.body.matched, true);
    assert.equal(viaAlias.body.explanation.value, direct.body.explanation.value);
    assert.equal(viaAlias.body.explanation.description, 'sum of:');
    const filterClause = viaAlias.body.explanation.details[1];
    assert.equal(filterClause.value, 0);
    assert.equal(filterClause.description, 'match on required clause, product of:', JSON.stringify(viaAlias.body.explanation));

    // Doc 4 is blue: the query alone matches it, the alias filter does not.
    assert.equal((await node.request('POST', '/people/_explain/4', { body: query })).body.matched, true);
    const excluded = await node.request('POST', '/reds/_explain/4', { body: query });
    assert.equal(excluded.status, 200, excluded.text);
    assert.equal(excluded.body.matched, false);
    assert.equal(excluded.body.explanation.value, 0);

    // With `q` too, and a missing document is still 404 matched:false.
    assert.equal((await node.request('GET', '/reds/_explain/4?q=name:person')).body.matched, false);
    assert.equal((await node.request('GET', '/reds/_explain/6?q=name:person')).body.matched, true);
    const missing = await node.request('GET', '/reds/_explain/99?q=name:person');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { _index: 'people', _id: '99', matched: false });
  } finally {
    await node.stop();
  }
});

test('a point in time opened through a filtering alias keeps applying that filter', async () => {
  const node = await NodeProcess.start();
  try {
    await seed(node);
    const opened = await node.request('POST', '/reds/_pit?keep_alive=1m');
    assert.equal(opened.status, 200, opened.text);
    const pit = { id: opened.body.id as string, keep_alive: '1m' };

    const search = async (body: Record<string, unknown>) => {
      const res = await node.request('POST', '/_search', { body: { ...body, pit } });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const all = await search({ size: 20, sort: [{ team: 'asc' }] });
    assert.equal(all.hits.total.value, 4);
    assert.deepEqual(all.hits.hits.map((hit: { _id: string }) => hit._id).sort(), ['0', '3', '6', '9']);
    assert.deepEqual((await search({ size: 0, aggs: { teams: { terms: { field: 'team' } } } })).aggregations.teams.buckets, [{ key: 'red', doc_count: 4 }]);
    // The request's own query is still ANDed with the filter.
    const narrowed = await search({ query: { ids: { values: ['3', '4'] } } });
    assert.deepEqual(narrowed.hits.hits.map((hit: { _id: string }) => hit._id), ['3']);

    // The alias changes; the point in time keeps what it was opened with (the filter is captured at open).
    await node.request('POST', '/_aliases', { body: { actions: [{ remove: { index: 'people', alias: 'reds' } }, { add: { index: 'people', alias: 'reds', filter: { term: { team: 'blue' } } } }] } });
    assert.equal((await search({ size: 0 })).hits.total.value, 4);
    assert.equal((await node.request('GET', '/reds/_count')).body.count, 8);

    // A point in time on the index itself is unfiltered.
    const plain = await node.request('POST', '/people/_pit?keep_alive=1m');
    const unfiltered = await node.request('POST', '/_search', { body: { size: 0, pit: { id: plain.body.id, keep_alive: '1m' } } });
    assert.equal(unfiltered.body.hits.total.value, 12);

    for (const id of [pit.id, plain.body.id as string]) assert.equal((await node.request('DELETE', '/_pit', { body: { id } })).status, 200);
  } finally {
    await node.stop();
  }
});
