/**
 * Sliced scroll and sliced point in time against a real node with a 3-shard index (the source side of a
 * sliced reindex): the union of the slices is every document, each exactly once, with fewer slices than
 * shards, as many, and more; a numeric field slices by doc values; ES's errors for bad slices.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { NodeProcess } from '../helpers/node-process.js';

let node: NodeProcess;
const COUNT = 90;

before(async () => {
  node = await NodeProcess.start({ settings: { 'node.name': 'slices-scroll-node' } });
  const created = await node.request('PUT', '/src', {
    body: { settings: { number_of_shards: 3, number_of_replicas: 0, 'index.max_slices_per_scroll': 8 }, mappings: { properties: { n: { type: 'long' }, tag: { type: 'keyword' } } } },
  });
  assert.equal(created.status, 200, created.text);
  // Numeric, base64-like and plain text ids: the three ways ES encodes an _id before hashing it.
  const ids = Array.from({ length: COUNT }, (_, i) => (i % 3 === 0 ? String(1000 + i) : i % 3 === 1 ? `QUJD${i}x` : `doc ${i}`));
  const lines = ids.flatMap((id, i) => [JSON.stringify({ index: { _index: 'src', _id: id } }), JSON.stringify({ n: i, tag: `t${i % 4}` })]);
  const res = await node.request('POST', '/_bulk?refresh=true', { raw: lines.join('\n') + '\n', headers: { 'content-type': 'application/x-ndjson' } });
  assert.equal(res.body.errors, false, res.text);
});
after(async () => {
  await node.stop();
});

/** Every id a sliced scroll returns, page by page, then clears it. */
async function scrollSlice(slice: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  let page = await node.request('POST', '/src/_search?scroll=1m', { body: { size: 7, slice } });
  assert.equal(page.status, 200, page.text);
  const scrollId: string = page.body._scroll_id;
  while (page.body.hits.hits.length > 0) {
    ids.push(...page.body.hits.hits.map((hit: { _id: string }) => hit._id));
    page = await node.request('POST', '/_search/scroll', { body: { scroll_id: scrollId, scroll: '1m' } });
    assert.equal(page.status, 200, page.text);
  }
  await node.request('DELETE', '/_search/scroll', { body: { scroll_id: scrollId } });
  return ids;
}

function assertExactCover(perSlice: string[][]): void {
  const all = perSlice.flat();
  assert.equal(all.length, COUNT, `slices returned ${perSlice.map((ids) => ids.length).join('+')} docs`);
  assert.equal(new Set(all).size, COUNT, 'no document is in two slices');
}

for (const max of [2, 3, 5]) {
  test(`a scroll in ${max} slices over 3 shards returns every document exactly once`, async () => {
    const perSlice: string[][] = [];
    for (let id = 0; id < max; id++) perSlice.push(await scrollSlice({ id, max }));
    assertExactCover(perSlice);
    // The hits total of a slice counts only that slice.
    const first = await node.request('POST', '/src/_search?scroll=1m', { body: { size: 1, slice: { id: 0, max } } });
    assert.equal(first.body.hits.total.value, perSlice[0]!.length);
  });
}

test('a numeric field slices by its doc values', async () => {
  const perSlice: string[][] = [];
  for (let id = 0; id < 4; id++) perSlice.push(await scrollSlice({ field: 'n', id, max: 4 }));
  assertExactCover(perSlice);
});

test('a point in time slices by doc id when no field is given', async () => {
  const pit = await node.request('POST', '/src/_pit?keep_alive=1m');
  assert.equal(pit.status, 200, pit.text);
  const perSlice: string[][] = [];
  for (let id = 0; id < 4; id++) {
    const res = await node.request('POST', '/_search', { body: { size: 100, pit: { id: pit.body.id, keep_alive: '1m' }, slice: { id, max: 4 } } });
    assert.equal(res.status, 200, res.text);
    perSlice.push(res.body.hits.hits.map((hit: { _id: string }) => hit._id));
  }
  assertExactCover(perSlice);
  await node.request('DELETE', '/_pit', { body: { id: pit.body.id } });
});

test('slice errors as ES reports them', async () => {
  const plain = await node.request('POST', '/src/_search', { body: { slice: { id: 0, max: 2 } } });
  assert.equal(plain.status, 400);
  assert.equal(plain.body.error.type, 'action_request_validation_exception');
  assert.equal(plain.body.error.reason, 'Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');

  const tooMany = await node.request('POST', '/src/_search?scroll=1m', { body: { slice: { id: 0, max: 9 } } });
  assert.equal(tooMany.status, 400, tooMany.text);
  assert.equal(tooMany.body.error.type, 'search_phase_execution_exception');
  assert.equal(
    tooMany.body.error.root_cause[0].reason,
    'The number of slices [9] is too large. It must be less than [8]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.',
  );

  const badId = await node.request('POST', '/src/_search?scroll=1m', { body: { slice: { id: 3, max: 2 } } });
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.type, 'x_content_parse_exception');
  assert.equal(badId.body.error.caused_by.reason, 'max must be greater than id');

  // The field is only read where a shard is cut further (max >= shards), so only shard 0 fails here, as in ES.
  const keyword = await node.request('POST', '/src/_search?scroll=1m', { body: { slice: { field: 'tag', id: 0, max: 6 } } });
  assert.equal(keyword.status, 200, keyword.text);
  assert.equal(keyword.body._shards.failed, 1);
  assert.equal(keyword.body._shards.failures[0].reason.type, 'illegal_argument_exception');
  assert.equal(keyword.body._shards.failures[0].reason.reason, 'cannot load numeric doc values on tag');
  const wholeShards = await node.request('POST', '/src/_search?scroll=1m', { body: { slice: { field: 'tag', id: 0, max: 2 } } });
  assert.equal(wholeShards.body._shards.failed, 0);
});
