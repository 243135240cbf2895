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

test('index.highlight.max_analyzed_offset bounds only text the highlighter analyses, not a field indexed with offsets', async () => {
  const text = 'The quick brown fox went to the forest and saw another fox.';
  const created = await node.request('PUT', '/offsets', {
    body: {
      settings: { number_of_shards: 1, 'index.highlight.max_analyzed_offset': 30 },
      mappings: { properties: { field1: { type: 'text' }, field2: { type: 'text', index_options: 'offsets' }, field3: { type: 'text', term_vector: 'with_positions_offsets' } } },
    },
  });
  assert.equal(created.status, 200, created.text);
  const indexed = await node.request('PUT', '/offsets/_doc/1?refresh=true', { body: { field1: text, field2: text, field3: text } });
  assert.equal(indexed.status, 201, indexed.text);
  const search = (field: string, highlight: Record<string, unknown>) =>
    node.request('POST', '/offsets/_search', { body: { query: { match: { [field]: 'fox' } }, highlight: { fields: { [field]: {} }, ...highlight } } });
  const both = 'The quick brown <em>fox</em> went to the forest and saw another <em>fox</em>.';
  const first = 'The quick brown <em>fox</em> went to the forest and saw another fox.';
  // Re-analysed text longer than the limit fails; max_analyzed_offset truncates instead.
  for (const type of ['unified', 'plain']) {
    const failed = await search('field1', { type });
    assert.equal(failed.status, 400, failed.text);
    assert.equal(failed.body.error.root_cause[0].type, 'illegal_argument_exception');
    assert.match(failed.body.error.root_cause[0].reason, /^The length \[59\] of field \[field1\] in doc\[1\]\/index\[offsets\] exceeds the \[index.highlight.max_analyzed_offset\] limit \[30\]/);
    const truncated = await search('field1', { type, max_analyzed_offset: 20 });
    assert.equal(truncated.status, 200, truncated.text);
    assert.deepEqual(truncated.body.hits.hits[0].highlight.field1, [first]);
  }
  // The unified highlighter reads offsets from the index: no limit applies (postings and term vectors alike).
  for (const field of ['field2', 'field3']) {
    const res = await search(field, { type: 'unified' });
    assert.equal(res.status, 200, `${field}: ${res.text}`);
    assert.deepEqual(res.body.hits.hits[0].highlight[field], [both], field);
  }
  // The request's max_analyzed_offset still stops the matches there (LimitedOffsetsEnum).
  const limited = await search('field2', { type: 'unified', max_analyzed_offset: 20 });
  assert.deepEqual(limited.body.hits.hits[0].highlight.field2, [first]);
  // The plain highlighter always analyses.
  const plain = await search('field2', { type: 'plain' });
  assert.equal(plain.status, 400, plain.text);
  const plainDefault = await search('field2', { type: 'plain', max_analyzed_offset: -1 });
  assert.deepEqual(plainDefault.body.hits.hits[0].highlight.field2, [first]);
  const zero = await search('field2', { type: 'plain', max_analyzed_offset: 0 });
  // Parsed with the request, as ES's SearchSourceBuilder parses the highlight builder: one 400, no shard failures.
  assert.equal(zero.status, 400, zero.text);
  assert.equal(zero.body.error.root_cause[0].type, 'x_content_parse_exception');
  assert.equal(zero.body.error.caused_by.type, 'illegal_argument_exception');
  assert.equal(zero.body.error.caused_by.reason, '[max_analyzed_offset] must be a positive integer, or -1');
});
