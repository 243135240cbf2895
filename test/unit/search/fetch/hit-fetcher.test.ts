/**
 * The fetch sub-phases together, as the search API runs them per hit: one parse of `_source` shared by
 * `fields` and highlighting, `_source` printed as stored or filtered, doc value fields merged with `fields`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RawJson } from '../../../../src/common/raw-json.js';
import { EsError } from '../../../../src/common/errors.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import { parseTopLevelQuery } from '../../../../src/search/dsl/parse/inner-query.js';
import { XContentParser } from '../../../../src/search/dsl/xcontent/xcontent-parser.js';
import { HitFetcher } from '../../../../src/search/fetch/hit-fetcher.js';

const INDEX = {
  index: 'test',
  mapping: parseMapping({ properties: { title: { type: 'text', fields: { keyword: { type: 'keyword' } } }, count: { type: 'long' }, price: { type: 'double' } } }),
};
const SOURCE = Buffer.from('{"title":"The quick brown fox","count":3,"price":1.50}');

function show(map: Map<string, unknown[]> | undefined): Record<string, string> | undefined {
  if (map === undefined) return undefined;
  return Object.fromEntries([...map].map(([key, values]) => [key, values.map((v) => (v instanceof RawJson ? v.text : JSON.stringify(v))).join(',')]));
}

test('a hit with every sub-phase', () => {
  const fetcher = HitFetcher.create(INDEX, {
    query: parseTopLevelQuery(XContentParser.fromString('{"match":{"title":"fox"}}')),
    source: { fetch: true, includes: ['t*', 'price'], excludes: [] },
    fields: [{ field: 'title*' }, { field: 'price' }],
    docvalueFields: [{ field: 'count' }],
    highlight: { type: 'plain', fields: { title: {} } },
  });
  assert.equal(fetcher.needsSource, true);
  assert.equal(fetcher.needsDocValues, true);
  const hit = fetcher.fetch({ id: '1', index: 'test', source: SOURCE, docValues: { values: (field) => (field === 'count' ? { kind: 'long', values: [3n] } : undefined) } });
  assert.equal(hit.source?.text, '{"title":"The quick brown fox","price":1.5}');
  assert.deepEqual(show(hit.fields), { count: '3', price: '1.5', title: '"The quick brown fox"', 'title.keyword': '"The quick brown fox"' });
  assert.deepEqual(hit.highlight === undefined ? undefined : [...hit.highlight], [['title', ['The quick brown <em>fox</em>']]]);
});

test('_source as stored when not filtered; nothing asked, nothing returned', () => {
  assert.equal(HitFetcher.create(INDEX, {}).fetch({ id: '1', index: 'test', source: SOURCE }).source?.text, SOURCE.toString());
  const none = HitFetcher.create(INDEX, { source: { fetch: false, includes: [], excludes: [] } });
  assert.equal(none.needsSource, false);
  assert.deepEqual(none.fetch({ id: '1', index: 'test', source: SOURCE }), {});
});

test('_source filtering on an index without _source is a 400', () => {
  assert.throws(
    () => HitFetcher.create({ ...INDEX, sourceEnabled: false }, { source: { fetch: true, includes: ['title'], excludes: [] } }),
    (err: unknown) =>
      err instanceof EsError && err.status === 400 && err.message === 'unable to fetch fields from _source field: _source is disabled in the mappings for index [test]',
  );
});
