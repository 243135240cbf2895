import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFilterPath, parseFilterPath } from '../../../src/http/filter-path.js';

const doc = {
  took: 3,
  hits: { total: { value: 2 }, hits: [{ _id: '1', _source: { a: 1 } }, { _id: '2', _source: { a: 2 } }] },
  nodes: { n1: { name: 'x', tasks: { t: 1 } }, n2: { name: 'y', tasks: {} } },
};

function filter(expr: string): unknown {
  return applyFilterPath(doc, parseFilterPath(expr));
}

test('includes by path, through arrays', () => {
  assert.deepEqual(filter('hits.hits._id'), { hits: { hits: [{ _id: '1' }, { _id: '2' }] } });
});

test('* matches one level and partial names; ** any depth', () => {
  assert.deepEqual(filter('nodes.*.name'), { nodes: { n1: { name: 'x' }, n2: { name: 'y' } } });
  assert.deepEqual(filter('to*'), { took: 3 });
  assert.deepEqual(filter('**.value'), { hits: { total: { value: 2 } } });
});

test('exclusions, alone and after inclusions', () => {
  assert.deepEqual(filter('-hits,-nodes'), { took: 3 });
  assert.deepEqual(filter('hits.hits,-hits.hits._source'), { hits: { hits: [{ _id: '1' }, { _id: '2' }] } });
});

test('nothing matched gives an empty object; empty filter is no filter', () => {
  assert.deepEqual(filter('nope'), {});
  assert.equal(parseFilterPath(''), undefined);
});
