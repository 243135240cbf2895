import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasOwnKey, ownValue, setOwnValue, withOwnValue } from '../../../src/common/own-keys.js';
import { flatten } from '../../../src/common/settings.js';
import { toNested, normalizeSettings } from '../../../src/indices/index-settings.js';
import { expandDottedKeys, ComponentSettings } from '../../../src/analysis/component-settings.js';
import { applyFilterPath, parseFilterPath } from '../../../src/http/filter-path.js';
import { mergeDefaults, mergeTemplateMapping } from '../../../src/cluster/metadata/templates/mapping-composition.js';

const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const name = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !s.includes('.')));

/** Object.prototype must not gain keys, whatever the input (prototype pollution). */
function assertPrototypeClean(): void {
  assert.deepEqual(Object.keys(Object.prototype), []);
  assert.equal(({} as Record<string, unknown>)['type'], undefined);
}

test('ownValue never returns an inherited member; hasOwnKey is Object.hasOwn', () => {
  const record: Record<string, number> = { a: 1 };
  for (const key of PROTOTYPE_NAMES) {
    assert.equal(ownValue(record, key), undefined, key);
    assert.equal(hasOwnKey(record, key), false, key);
  }
  assert.equal(ownValue(record, 'a'), 1);
  assert.equal(ownValue(undefined, 'a'), undefined);
});

test('setOwnValue makes `__proto__` an own, enumerable key and leaves the prototype alone', () => {
  const record: Record<string, unknown> = {};
  setOwnValue(record, '__proto__', { polluted: true });
  setOwnValue(record, 'constructor', 'c');
  assert.equal(Object.getPrototypeOf(record), Object.prototype);
  assert.deepEqual(Object.keys(record), ['__proto__', 'constructor']);
  assert.deepEqual(ownValue(record, '__proto__'), { polluted: true });
  assert.equal(JSON.stringify(record), '{"__proto__":{"polluted":true},"constructor":"c"}');
  const copy = withOwnValue<unknown>(record, 'toString', 1);
  assert.deepEqual(Object.keys(copy), ['__proto__', 'constructor', 'toString']);
  assertPrototypeClean();
});

test('dotted keys naming prototype members expand to own keys, never into Object.prototype', () => {
  fc.assert(
    fc.property(fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), (paths) => {
      const flat: Record<string, string> = {};
      for (const path of paths) setOwnValue(flat, path.join('.'), 'v');
      const nested = toNested(flat);
      const expanded = expandDottedKeys(flat);
      assertPrototypeClean();
      // Every path reads back through own properties only: it ends at 'v', or at an object when a longer path
      // shares it, or at 'v' early when a shorter path took the slot (conflicting keys, as in ES, one wins).
      for (const path of paths) {
        for (const tree of [nested, expanded]) {
          let node: unknown = tree;
          for (const part of path) {
            if (node === null || typeof node !== 'object') break;
            assert.ok(Object.hasOwn(node, part), `${JSON.stringify(path)}: [${part}] is an own key`);
            node = (node as Record<string, unknown>)[part];
          }
          assert.ok(node === 'v' || (node !== null && typeof node === 'object'), `${JSON.stringify(path)} -> ${JSON.stringify(node)}`);
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('only keys 0..n-1 make a list: `00` or `01` stay object keys, as ES reads them (the property above found `00`)', () => {
  assert.deepEqual(toNested({ '00': 'v' }), { '00': 'v' });
  assert.deepEqual(toNested({ 'a.0': 'x', 'a.01': 'y' }), { a: { '0': 'x', '01': 'y' } });
  assert.deepEqual(toNested({ 'a.0': 'x', 'a.1': 'y' }), { a: ['x', 'y'] });
});

test('index settings, node settings and analysis component settings keep prototype-member names as keys', () => {
  const settings = normalizeSettings(JSON.parse('{"analysis":{"filter":{"__proto__":{"type":"lowercase"},"constructor":{"type":"stop"}}}}'));
  assert.deepEqual(Object.keys(settings).sort(), ['index.analysis.filter.__proto__.type', 'index.analysis.filter.constructor.type']);
  const flat = flatten(JSON.parse('{"node":{"attr":{"__proto__":"x","toString":"y"}}}'));
  assert.deepEqual(flat, JSON.parse('{"node.attr.__proto__":"x","node.attr.toString":"y"}'));
  const component = new ComponentSettings({});
  for (const key of PROTOTYPE_NAMES) {
    assert.equal(component.has(key), false);
    assert.equal(component.getString(key), undefined);
  }
  assertPrototypeClean();
});

test('filter_path keeps and drops keys named like prototype members', () => {
  const body = JSON.parse('{"__proto__":{"a":1},"constructor":2,"toString":{"valueOf":3},"other":4}');
  assert.deepEqual(applyFilterPath(body, parseFilterPath('__proto__.a,toString.valueOf')), JSON.parse('{"__proto__":{"a":1},"toString":{"valueOf":3}}'));
  assert.deepEqual(applyFilterPath(body, parseFilterPath('-__proto__,-constructor')), JSON.parse('{"toString":{"valueOf":3},"other":4}'));
  assertPrototypeClean();
});

test('template mapping composition merges prototype-member field names as ordinary keys', () => {
  const a = JSON.parse('{"properties":{"__proto__":{"type":"keyword"},"constructor":{"properties":{"x":{"type":"long"}}}}}');
  const b = JSON.parse('{"properties":{"constructor":{"properties":{"y":{"type":"long"}}},"toString":{"type":"text"}}}');
  const merged = mergeTemplateMapping(a, b) as { properties: Record<string, any> };
  assert.deepEqual(Object.keys(merged.properties).sort(), ['__proto__', 'constructor', 'toString']);
  assert.deepEqual(Object.keys(merged.properties['constructor'].properties).sort(), ['x', 'y']);
  const defaults = mergeDefaults(JSON.parse('{"properties":{}}'), a) as { properties: Record<string, any> };
  assert.deepEqual(Object.keys(defaults.properties).sort(), ['__proto__', 'constructor']);
  assertPrototypeClean();
});
