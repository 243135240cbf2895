/** Settings printed as ES prints them: HashMap key order for nested output, sorted keys and arrays when flat. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { javaHashMapOrder, settingsXContent } from '../../../../src/actions/indices/settings-xcontent.js';

const created = {
  'index.creation_date': '1700000000000',
  'index.number_of_replicas': '1',
  'index.number_of_shards': '1',
  'index.provided_name': 'test',
  'index.routing.allocation.include._tier_preference': 'data_content',
  'index.uuid': 'u',
  'index.version.created': '8190299',
};

test("a new index's settings come out in the order ES prints them", () => {
  const nested = settingsXContent(created, false) as { index: Record<string, unknown> };
  assert.deepEqual(Object.keys(nested), ['index']);
  assert.deepEqual(Object.keys(nested.index), ['routing', 'number_of_shards', 'provided_name', 'creation_date', 'number_of_replicas', 'uuid', 'version']);
  const withAnalysis = settingsXContent({ ...created, 'index.analysis.analyzer.a.tokenizer': 'standard' }, false) as { index: Record<string, unknown> };
  assert.deepEqual(Object.keys(withAnalysis.index), ['routing', 'number_of_shards', 'provided_name', 'creation_date', 'analysis', 'number_of_replicas', 'uuid', 'version']);
});

test('flat settings: sorted keys, lists as arrays', () => {
  const flat = settingsXContent({ 'index.b': '1', 'index.a.0': 'x', 'index.a.1': 'y' }, true);
  assert.deepEqual(flat, { 'index.a.0': 'x', 'index.a.1': 'y', 'index.b': '1' });
  const lists = settingsXContent({ 'index.analysis.filter.f.stopwords.0': 'a', 'index.analysis.filter.f.stopwords.1': 'b' }, true);
  assert.deepEqual(lists, { 'index.analysis.filter.f.stopwords': ['a', 'b'] });
});

test('HashMap order: buckets by spread String.hashCode, insertion order within a bucket, resizes at 0.75', () => {
  // "Aa" and "BB" share a hash code, so they stay in insertion order.
  assert.deepEqual(javaHashMapOrder(['BB', 'Aa'], 16), ['BB', 'Aa']);
  assert.deepEqual(javaHashMapOrder(['Aa', 'BB'], 16), ['Aa', 'BB']);
  assert.deepEqual(javaHashMapOrder(['b', 'a', 'c'], 16), ['a', 'b', 'c']);
  assert.equal(javaHashMapOrder(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 2).length, 7);
});
