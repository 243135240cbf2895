import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeTemplateMappings, mergeDefaults } from '../../../../src/cluster/metadata/templates/mapping-composition.js';

test('composable mappings: objects merge, fields are replaced whole, dynamic templates merge by name', () => {
  const composed = composeTemplateMappings([
    { properties: { a: { type: 'keyword', fields: { raw: { type: 'keyword' } } }, o: { properties: { x: { type: 'long' } } } }, dynamic_templates: [{ s: { match: 'a' } }, { t: { match: 'b' } }] },
    undefined,
    { properties: { a: { type: 'text' }, o: { properties: { y: { type: 'keyword' } } } }, dynamic_templates: [{ s: { match: 'c' } }], _meta: { v: 1 } },
  ]);
  assert.deepEqual(composed, {
    properties: { a: { type: 'text' }, o: { properties: { x: { type: 'long' }, y: { type: 'keyword' } } } },
    dynamic_templates: [{ s: { match: 'c' } }, { t: { match: 'b' } }],
    _meta: { v: 1 },
  });
  assert.equal(composeTemplateMappings([undefined, undefined]), undefined);
});

test('legacy mappings: the request keeps its values and templates fill what is missing', () => {
  const merged = mergeDefaults({ properties: { a: { type: 'text' } } }, { properties: { a: { type: 'keyword' }, b: { type: 'long' } }, dynamic: 'strict' });
  assert.deepEqual(merged, { properties: { a: { type: 'text' }, b: { type: 'long' } }, dynamic: 'strict' });
});

test('dotted and object forms of a field merge (ES YAML "Index template mapping merging")', () => {
  const composed = composeTemplateMappings([
    { properties: { 'object1.red': { type: 'keyword' }, 'object2.red': { type: 'keyword' } } },
    { properties: { 'object2.red': { type: 'text' }, 'object1.blue': { type: 'text' }, 'object2.blue': { type: 'text' } } },
    { properties: { 'object2.blue': { type: 'integer' }, 'object1.purple': { type: 'integer' }, object2: { properties: { purple: { type: 'integer' } } } } },
    { properties: { 'object2.purple': { type: 'double' }, 'object3.purple': { type: 'double' } } },
  ]);
  assert.deepEqual(composed, {
    properties: {
      object1: { properties: { red: { type: 'keyword' }, blue: { type: 'text' }, purple: { type: 'integer' } } },
      object2: { properties: { red: { type: 'text' }, blue: { type: 'integer' }, purple: { type: 'double' } } },
      object3: { properties: { purple: { type: 'double' } } },
    },
  });
});
