/**
 * Highlighting through `_search` on a real node: no `type` runs ES's default unified highlighter (a
 * match_phrase highlighted as one span, sentence passages bounded by fragment_size, a fragment per value of
 * a multi-valued field), `type: plain` keeps the plain highlighter's term-by-term output.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'highlight-node' } });
  const created = await node.request('PUT', '/books', { body: { mappings: { properties: { title: { type: 'text' }, notes: { type: 'text' } } } } });
  assert.equal(created.status, 200, created.text);
  const docs = [
    { index: { _index: 'books', _id: '1' } },
    { title: 'The Left Hand of Darkness', notes: ['A planet of ice. Its people have no fixed sex.', 'Winter is long.'] },
  ];
  const bulk = await node.request('POST', '/_bulk?refresh=true', { raw: docs.map((line) => JSON.stringify(line)).join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(bulk.status, 200, bulk.text);
});

after(async () => {
  await node?.stop();
});

async function highlightOf(body: unknown): Promise<Record<string, string[]>> {
  const res = await node.request('POST', '/books/_search', { body });
  assert.equal(res.status, 200, res.text);
  return res.body.hits.hits[0].highlight;
}

test('no type: the unified highlighter, a phrase as one span', async () => {
  const highlight = await highlightOf({ query: { match_phrase: { title: 'left hand' } }, highlight: { fields: { title: {} } } });
  assert.deepEqual(highlight, { title: ['The <em>Left Hand</em> of Darkness'] });
});

test('index.highlight.weight_matches_mode.enabled (dynamic): false highlights a phrase term by term, true restores spans', async () => {
  const phrase = { query: { match_phrase: { title: 'left hand' } }, highlight: { fields: { title: {} } } };
  const rejected = await node.request('PUT', '/books/_settings', { body: { index: { highlight: { weight_matches_mode: { enabled: 'maybe' } } } } });
  assert.equal(rejected.status, 400, rejected.text);
  assert.equal(rejected.body.error.reason, 'Failed to parse value [maybe] as only [true] or [false] are allowed.');
  const off = await node.request('PUT', '/books/_settings', { body: { 'index.highlight.weight_matches_mode.enabled': false } });
  assert.equal(off.status, 200, off.text);
  const settings = await node.request('GET', '/books/_settings/index.highlight.*');
  assert.deepEqual(settings.body, { books: { settings: { index: { highlight: { weight_matches_mode: { enabled: 'false' } } } } } });
  assert.deepEqual(await highlightOf(phrase), { title: ['The <em>Left</em> <em>Hand</em> of Darkness'] });
  const on = await node.request('PUT', '/books/_settings', { body: { 'index.highlight.weight_matches_mode.enabled': null } });
  assert.equal(on.status, 200, on.text);
  assert.deepEqual(await highlightOf(phrase), { title: ['The <em>Left Hand</em> of Darkness'] });
  const created = await node.request('PUT', '/books-terms', {
    body: { settings: { 'index.highlight.weight_matches_mode.enabled': false }, mappings: { properties: { title: { type: 'text' } } } },
  });
  assert.equal(created.status, 200, created.text);
  await node.request('PUT', '/books-terms/_doc/1?refresh=true', { body: { title: 'The Left Hand of Darkness' } });
  const res = await node.request('POST', '/books-terms/_search', { body: phrase });
  assert.deepEqual(res.body.hits.hits[0].highlight, { title: ['The <em>Left</em> <em>Hand</em> of Darkness'] });
});

test('type plain: each term on its own, as before', async () => {
  const highlight = await highlightOf({ query: { match_phrase: { title: 'left hand' } }, highlight: { type: 'plain', fields: { title: {} } } });
  assert.deepEqual(highlight, { title: ['The <em>Left</em> <em>Hand</em> of Darkness'] });
});

test('no type: sentence passages per value of a multi-valued field, order by score, number_of_fragments 0', async () => {
  const query = { match: { notes: 'ice winter' } };
  assert.deepEqual(await highlightOf({ query, highlight: { fields: { notes: { fragment_size: 20 } } } }), { notes: ['A planet of <em>ice</em>.', '<em>Winter</em> is long.'] });
  assert.deepEqual(await highlightOf({ query, highlight: { fields: { notes: { number_of_fragments: 0 } } } }), {
    notes: ['A planet of <em>ice</em>. Its people have no fixed sex.', '<em>Winter</em> is long.'],
  });
  const noMatch = await node.request('POST', '/books/_search', { body: { query: { match: { title: 'darkness' } }, highlight: { fields: { notes: { no_match_size: 8 } } } } });
  assert.deepEqual(noMatch.body.hits.hits[0].highlight, { notes: ['A planet'] });
});
