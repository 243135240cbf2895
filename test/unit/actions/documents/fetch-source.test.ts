/** `_source` as a JSON value (mget docs, bulk update items, `_update` bodies): FetchSourceContext.fromXContent's forms. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchSourceFromJson } from '../../../../src/actions/documents/fetch-source.js';

test('booleans, a pattern, a list and an includes/excludes object', () => {
  assert.deepEqual(fetchSourceFromJson(false), { fetch: false, includes: [], excludes: [] });
  assert.deepEqual(fetchSourceFromJson('a*'), { fetch: true, includes: ['a*'], excludes: [] });
  assert.deepEqual(fetchSourceFromJson(['a', 'b']), { fetch: true, includes: ['a', 'b'], excludes: [] });
  assert.deepEqual(fetchSourceFromJson({ include: 'a', excludes: ['b'] }), { fetch: true, includes: ['a'], excludes: ['b'] });
});

test("ES 9's exclude_vectors is accepted (Gannet has no vector fields to leave out); other keys are not", () => {
  assert.deepEqual(fetchSourceFromJson({ exclude_vectors: false }), { fetch: true, includes: [], excludes: [] });
  assert.deepEqual(fetchSourceFromJson({ includes: ['a'], exclude_vectors: 'true' }), { fetch: true, includes: ['a'], excludes: [] });
  assert.throws(() => fetchSourceFromJson({ foo: ['a'] }), /Unknown key for a VALUE_STRING in \[foo\]/);
  assert.throws(() => fetchSourceFromJson({ exclude_vectors: 3 }), /Unknown key for a VALUE_STRING in \[exclude_vectors\]/);
});
