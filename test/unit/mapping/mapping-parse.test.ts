import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../src/common/errors.js';
import { JsonFloat } from '../../../src/common/json-float.js';
import {
  DEFAULT_MAPPING_SETTINGS,
  mergeMappings,
  parseMapping,
  serializeMapping,
  type MappingSettings,
  type RootMapping,
} from '../../../src/mapping/index.js';

/** JSON round trip that unwraps JsonFloat (the HTTP writer prints those as Java doubles). */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (v instanceof JsonFloat ? v.value : v)));
}

function roundTrip(mapping: unknown): unknown {
  return plain(serializeMapping(parseMapping(mapping)));
}

function expectEsError(fn: () => unknown, type: string, reason: string, cause?: { type: string; reason: string }): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof EsError, `not an EsError: ${String(err)}`);
    assert.equal(err.type, type);
    assert.equal(err.reason, reason);
    if (cause) {
      assert.equal(err.causedBy?.type, cause.type);
      assert.equal(err.causedBy?.reason, cause.reason);
    }
    return true;
  });
}

function mappingError(reason: string, causeType = 'mapper_parsing_exception'): [string, string, { type: string; reason: string }] {
  return ['mapper_parsing_exception', `Failed to parse mapping: ${reason}`, { type: causeType, reason }];
}

test('round trip prints only what differs from the defaults, properties sorted', () => {
  const mapping = {
    dynamic: 'strict',
    _routing: { required: true },
    _source: { excludes: ['secret'] },
    properties: {
      title: { type: 'text', analyzer: 'english', search_analyzer: 'standard', fields: { raw: { type: 'keyword' } } },
      body: { type: 'text', index: true, norms: false, index_options: 'offsets', position_increment_gap: 10 },
      tag: { type: 'keyword', ignore_above: 20, null_value: 'NULL', doc_values: false },
      count: { type: 'integer', coerce: false, null_value: 0 },
      price: { type: 'scaled_float', scaling_factor: 100 },
      ratio: { type: 'double', null_value: 1 },
      ok: { type: 'boolean', null_value: false, store: true },
      at: { type: 'date', format: 'yyyy-MM-dd', ignore_malformed: true },
      meta: { type: 'object', enabled: false },
      user: { dynamic: false, properties: { name: { type: 'keyword', copy_to: ['all'] } } },
      all: { type: 'text' },
      empty: { type: 'object' },
    },
  };
  assert.deepEqual(roundTrip(mapping), {
    dynamic: 'strict',
    _routing: { required: true },
    _source: { excludes: ['secret'] },
    properties: {
      all: { type: 'text' },
      at: { type: 'date', format: 'yyyy-MM-dd', ignore_malformed: true },
      body: { type: 'text', index_options: 'offsets', norms: false, position_increment_gap: 10 },
      count: { type: 'integer', coerce: false, null_value: 0 },
      empty: { type: 'object' },
      meta: { type: 'object', enabled: false },
      ok: { type: 'boolean', null_value: false, store: true },
      price: { type: 'scaled_float', scaling_factor: 100 },
      ratio: { type: 'double', null_value: 1 },
      tag: { type: 'keyword', doc_values: false, null_value: 'NULL', ignore_above: 20 },
      title: { type: 'text', analyzer: 'english', search_analyzer: 'standard', fields: { raw: { type: 'keyword' } } },
      user: { dynamic: false, properties: { name: { type: 'keyword', copy_to: ['all'] } } },
    },
  });
  // Key order follows ES: type, then parameters in ES's declaration order, then fields, then copy_to.
  const printed = plain(serializeMapping(parseMapping(mapping))) as { properties: Record<string, unknown> };
  assert.equal(JSON.stringify(printed.properties['tag']), '{"type":"keyword","doc_values":false,"null_value":"NULL","ignore_above":20}');
  assert.deepEqual(Object.keys(printed.properties), Object.keys(printed.properties).sort());
  // Serialization is a fixed point.
  const once = roundTrip(mapping);
  assert.deepEqual(roundTrip(once), once);
});

test('doubles print as Java doubles via JsonFloat; strings stay', () => {
  const out = serializeMapping(parseMapping({ properties: { r: { type: 'double', null_value: '1' }, p: { type: 'scaled_float', scaling_factor: 10 } } }));
  const props = out['properties'] as Record<string, Record<string, unknown>>;
  assert.ok(props['r']!['null_value'] instanceof JsonFloat);
  assert.ok(props['p']!['scaling_factor'] instanceof JsonFloat);
});

test('mapping forms: _doc wrapper, dotted names, implicit object types, empty properties list', () => {
  assert.deepEqual(roundTrip({ _doc: { properties: { a: { type: 'long' } } } }), { properties: { a: { type: 'long' } } });
  assert.deepEqual(roundTrip({ properties: { 'a.b.c': { type: 'long' }, 'a.d': { type: 'keyword' } } }), {
    properties: { a: { properties: { b: { properties: { c: { type: 'long' } } }, d: { type: 'keyword' } } } },
  });
  assert.deepEqual(roundTrip({ properties: { o: { properties: {} }, e: { enabled: false } } }), {
    properties: { e: { type: 'object', enabled: false }, o: { type: 'object' } },
  });
  assert.deepEqual(roundTrip({ properties: [] }), {});
  assert.deepEqual(roundTrip({}), {});
  assert.deepEqual(
    roundTrip({ date_detection: false, numeric_detection: true, dynamic_date_formats: ['MM/dd/yyyy'] }),
    { dynamic_date_formats: ['MM/dd/yyyy'], date_detection: false, numeric_detection: true },
  );
});

test('dynamic templates round trip in ES shape', () => {
  const out = roundTrip({
    dynamic_templates: [
      { strings: { match_mapping_type: 'string', mapping: { type: 'keyword', ignore_above: 10 } } },
      { longs: { match: ['n_*', 'm_*'], unmatch: '*_text', mapping: { type: 'long' } } },
    ],
  });
  assert.deepEqual(out, {
    dynamic_templates: [
      { strings: { match_mapping_type: 'string', mapping: { ignore_above: 10, type: 'keyword' } } },
      { longs: { match: ['n_*', 'm_*'], unmatch: '*_text', mapping: { type: 'long' } } },
    ],
  });
});

test('unknown types, parameters and shapes: ES messages', () => {
  expectEsError(() => parseMapping({ properties: { f: { type: 'strnig' } } }), ...mappingError('No handler for type [strnig] declared on field [f]'));
  expectEsError(() => parseMapping({ properties: { f: { type: 'text', foo: 1 } } }), ...mappingError('unknown parameter [foo] on mapper [f] of type [text]'));
  expectEsError(() => parseMapping({ properties: { f: { type: 'text', doc_values: true } } }), ...mappingError('unknown parameter [doc_values] on mapper [f] of type [text]'));
  expectEsError(() => parseMapping({ properties: { f: { type: 'text', ignore_above: 10 } } }), ...mappingError('unknown parameter [ignore_above] on mapper [f] of type [text]'));
  expectEsError(() => parseMapping({ properties: { o: { properties: { f: { type: 'long', foo: true } } } } }), ...mappingError('unknown parameter [foo] on mapper [f] of type [long]'));
  expectEsError(() => parseMapping({ properties: { f: { type: 'keyword', boost: 2 } } }), ...mappingError('Unknown parameter [boost] on mapper [f]'));
  expectEsError(() => parseMapping({ properties: { f: { index: false } } }), ...mappingError('No type specified for field [f]'));
  expectEsError(() => parseMapping({ properties: { f: { type: 'keyword', index: null } } }), ...mappingError('[index] on mapper [f] of type [keyword] must not have a [null] value'));
  expectEsError(() => parseMapping({ foo: 'bar' }), ...mappingError('Root mapping definition has unsupported parameters:  [foo : bar]'));
  expectEsError(() => parseMapping({ properties: { o: { type: 'object', foo: { a: 1 } } } }), ...mappingError('Mapping definition for [o] has unsupported parameters:  [foo : {a=1}]'));
  expectEsError(() => parseMapping({ properties: { f: 'text' } }), ...mappingError('Expected map for property [fields] on field [f] but got a class java.lang.String'));
  expectEsError(() => parseMapping({ properties: 'x' }), 'mapper_parsing_exception', 'Failed to parse mapping: properties must be a map type', {
    type: 'parse_exception',
    reason: 'properties must be a map type',
  });
  expectEsError(() => parseMapping({ _id: {} }), ...mappingError('_id is not configurable'));
  expectEsError(() => parseMapping({ _routing: { foo: true } }), ...mappingError('unknown parameter [foo] on mapper [_routing] of type [null]'));
});

test('parameter values are read like XContentMapValues', () => {
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'keyword', index: 'yes' } } }),
    ...mappingError('Failed to parse value [yes] as only [true] or [false] are allowed.', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'keyword', ignore_above: 'x' } } }),
    ...mappingError('For input string: "x"', 'number_format_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'keyword', ignore_above: -1 } } }),
    ...mappingError('[ignore_above] must be positive, got [-1]', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', index_options: 'all' } } }),
    ...mappingError('Unknown value [all] for field [index_options] - accepted values are [positions, docs, freqs, offsets]'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'keyword', index_options: 'positions' } } }),
    ...mappingError('Unknown value [positions] for field [index_options] - accepted values are [docs, freqs]'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', analyzer: 'nope' } } }),
    ...mappingError('analyzer [nope] has not been configured in mappings', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'long', null_value: 'abc' } } }),
    ...mappingError('For input string: "abc"', 'number_format_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'integer', null_value: 1.5 } } }),
    ...mappingError('Value [1.5] has a decimal part', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'date', format: 'test_format' } } }),
    ...mappingError('Error parsing [format] on field [f]: Invalid format: [test_format]: Unknown pattern letter: t', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'date', null_value: 'nope' } } }),
    ...mappingError('Error parsing [null_value] on field [f]: failed to parse date field [nope] with format [strict_date_optional_time||epoch_millis]'),
  );
  expectEsError(() => parseMapping({ properties: { f: { type: 'scaled_float' } } }), ...mappingError('Field [scaling_factor] is required', 'illegal_argument_exception'));
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', index_options: 'docs', position_increment_gap: 5 } } }),
    ...mappingError('Cannot set position_increment_gap on field [f] without positions enabled', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ dynamic: 'sometimes' }),
    'mapper_parsing_exception',
    'Failed to parse mapping: Could not convert [dynamic.dynamic] to boolean',
    { type: 'illegal_argument_exception', reason: 'Could not convert [dynamic.dynamic] to boolean' },
  );
  // An analyzer the injected registry knows is accepted.
  const mapping = parseMapping({ properties: { f: { type: 'text', analyzer: 'my_analyzer' } } }, { analyzerExists: (n) => n === 'my_analyzer' });
  assert.deepEqual(plain(serializeMapping(mapping)), { properties: { f: { type: 'text', analyzer: 'my_analyzer' } } });
});

test('multi-fields: ES rules', () => {
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', fields: { 'a.b': { type: 'keyword' } } } } }),
    ...mappingError("Field name [a.b] which is a multi field of [f] cannot contain '.'"),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', fields: { raw: { type: 'object' } } } } }),
    ...mappingError('Type [object] cannot be used in multi field'),
  );
  expectEsError(
    () => parseMapping({ properties: { f: { type: 'text', fields: { raw: { type: 'keyword', fields: { x: { type: 'keyword' } } } } } } }),
    ...mappingError('Encountered a multi-field [raw] which itself contains a multi-field. Defining chained multi-fields is not supported.', 'illegal_argument_exception'),
  );
  expectEsError(() => parseMapping({ properties: { f: { type: 'text', fields: { raw: {} } } } }), ...mappingError('no type specified for property [raw]'));
});

test('features gannet does not implement are refused clearly', () => {
  assert.throws(() => parseMapping({ properties: { f: { type: 'geo_point' } } }), /field type \[geo_point\] declared on field \[f\] is not supported by gannet/);
  assert.throws(() => parseMapping({ dynamic: 'runtime' }), /dynamic: runtime\] is not supported/);
  assert.throws(() => parseMapping({ runtime: {} }), /runtime fields are not supported/);
  assert.throws(() => parseMapping({ properties: { f: { type: 'long', script: 'emit(1)' } } }), /parameter \[script\] on mapper \[f\] of type \[long\] is not supported/);
});

test('dynamic templates: ES validation messages', () => {
  expectEsError(() => parseMapping({ dynamic_templates: {} }), ...mappingError('Dynamic template syntax error. An array of named objects is expected.'));
  expectEsError(() => parseMapping({ dynamic_templates: [{ a: { mapping: {} }, b: { mapping: {} } }] }), ...mappingError('A dynamic template must be defined with a name'));
  expectEsError(() => parseMapping({ dynamic_templates: [{ t: { match: '*' } }] }), ...mappingError('template [t] must have either mapping or runtime set'));
  expectEsError(
    () => parseMapping({ dynamic_templates: [{ t: { foo: 'x', mapping: {} } }] }),
    ...mappingError('Illegal dynamic template parameter: [foo]', 'illegal_argument_exception'),
  );
  expectEsError(
    () => parseMapping({ dynamic_templates: [{ t: { match_mapping_type: 'text', mapping: {} } }] }),
    ...mappingError('No field type matched on [text], possible values are [object, string, long, double, boolean, date, binary]', 'illegal_argument_exception'),
  );
  assert.throws(
    () => parseMapping({ dynamic_templates: [{ t: { match_mapping_type: 'string', mapping: { type: 'keyword', foo: 1 } } }] }),
    (err: unknown) => {
      assert.ok(err instanceof EsError);
      assert.equal(
        err.reason,
        'Failed to parse mapping: dynamic template [t] has invalid content [{"match_mapping_type":"string","mapping":{"foo":1,"type":"keyword"}}], attempted to validate it with the following match_mapping_type: [string]',
      );
      assert.equal(err.causedBy?.causedBy?.reason, 'unknown parameter [foo] on mapper [__dynamic__t] of type [keyword]');
      return true;
    },
  );
});

const settings = DEFAULT_MAPPING_SETTINGS;

function merge(existing: unknown, update: unknown, s: MappingSettings = settings): RootMapping {
  return mergeMappings(parseMapping(existing), parseMapping(update), s);
}

test('merging: new fields are added, updateable parameters change', () => {
  const merged = merge(
    { properties: { a: { type: 'keyword', ignore_above: 10 }, t: { type: 'text' } } },
    { properties: { a: { type: 'keyword', ignore_above: 20 }, t: { type: 'text', search_analyzer: 'simple', fields: { raw: { type: 'keyword' } } }, b: { type: 'long' } } },
  );
  assert.deepEqual(plain(serializeMapping(merged)), {
    properties: {
      a: { type: 'keyword', ignore_above: 20 },
      b: { type: 'long' },
      t: { type: 'text', search_analyzer: 'simple', fields: { raw: { type: 'keyword' } } },
    },
  });
  // Norms may be disabled by an update, never re-enabled.
  const off = merge({ properties: { t: { type: 'text' } } }, { properties: { t: { type: 'text', norms: false } } });
  assert.deepEqual(plain(serializeMapping(off)), { properties: { t: { type: 'text', norms: false } } });
  expectEsError(
    () => mergeMappings(off, parseMapping({ properties: { t: { type: 'text', norms: true } } }), settings),
    'illegal_argument_exception',
    'Mapper for [t] conflicts with existing mapper:\n\tCannot update parameter [norms] from [false] to [true]',
  );
});

test('merging: type changes and parameter conflicts fail with ES messages', () => {
  expectEsError(
    () => merge({ properties: { f: { type: 'long' } } }, { properties: { f: { type: 'text' } } }),
    'illegal_argument_exception',
    'mapper [f] cannot be changed from type [long] to [text]',
  );
  expectEsError(
    () => merge({ properties: { o: { properties: { f: { type: 'date' } } } } }, { properties: { o: { properties: { f: { type: 'keyword' } } } } }),
    'illegal_argument_exception',
    'mapper [o.f] cannot be changed from type [date] to [keyword]',
  );
  expectEsError(
    () => merge({ properties: { f: { type: 'keyword', index: false, store: true } } }, { properties: { f: { type: 'keyword' } } }),
    'illegal_argument_exception',
    'Mapper for [f] conflicts with existing mapper:\n\tCannot update parameter [index] from [false] to [true]\n\tCannot update parameter [store] from [true] to [false]',
  );
  expectEsError(
    () => merge({ properties: { f: { type: 'text', analyzer: 'english' } } }, { properties: { f: { type: 'text', analyzer: 'standard' } } }),
    'illegal_argument_exception',
    'Mapper for [f] conflicts with existing mapper:\n\tCannot update parameter [analyzer] from [english] to [standard]',
  );
  expectEsError(
    () => merge({ properties: { o: { properties: { a: { type: 'long' } } } } }, { properties: { o: { type: 'keyword' } } }),
    'illegal_argument_exception',
    "can't merge a non object mapping [o] with an object mapping",
  );
  expectEsError(
    () => merge({ properties: { o: { type: 'object' } } }, { properties: { o: { type: 'object', enabled: false } } }),
    'mapper_exception',
    "the [enabled] parameter can't be updated for the object mapping [o]",
  );
  expectEsError(
    () => merge({ _routing: { required: true } }, { _routing: { required: false } }),
    'illegal_argument_exception',
    'Mapper for [_routing] conflicts with existing mapper:\n\tCannot update parameter [required] from [true] to [false]',
  );
  // Root settings given by the update replace the old ones; unspecified ones are kept.
  const merged = merge({ dynamic: 'strict', date_detection: false }, { numeric_detection: true });
  assert.deepEqual(plain(serializeMapping(merged)), { dynamic: 'strict', date_detection: false, numeric_detection: true });
});

test('merging checks copy_to targets and limits', () => {
  expectEsError(
    () => merge({}, { properties: { a: { type: 'text', copy_to: 'o' }, o: { properties: { x: { type: 'long' } } } } }),
    'illegal_argument_exception',
    'Cannot copy to field [o] since it is mapped as an object',
  );
  expectEsError(
    () => merge({}, { properties: { a: { type: 'text', copy_to: 't.raw' }, t: { type: 'text', fields: { raw: { type: 'keyword' } } } } }),
    'illegal_argument_exception',
    '[copy_to] may not be used to copy to a multi-field: [t.raw]',
  );
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 11; i++) properties[`f${i}`] = { type: 'long' };
  expectEsError(() => merge({}, { properties }, { ...settings, totalFieldsLimit: 10 }), 'illegal_argument_exception', 'Limit of total fields [10] has been exceeded');
  // 20 nested objects: the innermost object sits at depth 21 (the root is depth 1).
  let deep: Record<string, unknown> = { type: 'long' };
  for (let i = 19; i >= 0; i--) deep = { properties: { [`o${i}`]: i === 19 ? { properties: { leaf: deep } } : deep } };
  const path = Array.from({ length: 20 }, (_, i) => `o${i}`).join('.');
  expectEsError(() => merge({}, deep), 'illegal_argument_exception', `Limit of mapping depth [20] has been exceeded due to object field [${path}]`);
  // 19 nested objects are fine.
  let ok: Record<string, unknown> = { type: 'long' };
  for (let i = 18; i >= 0; i--) ok = { properties: { [`o${i}`]: ok } };
  assert.doesNotThrow(() => merge({}, ok));
  expectEsError(
    () => merge({}, { properties: { abcdef: { type: 'long' } } }, { ...settings, fieldNameLengthLimit: 5 }),
    'illegal_argument_exception',
    'Field name [abcdef] is longer than the limit of [5] characters',
  );
});
