import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EsError } from '../../../src/common/errors.js';
import {
  DEFAULT_MAPPING_SETTINGS,
  EMPTY_ROOT,
  mergeMappings,
  parseDocument,
  parseMapping,
  serializeMapping,
  type ParsedDocument,
} from '../../../src/mapping/index.js';
import { plain } from './helpers.js';

// Keys that exercise dots, blanks, metadata names and dynamic templates' patterns, plus arbitrary strings.
const key = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('a', 'b', 'c', 'a.b', 'b.c.d', 'x_id', 'date', 'n', 'tags') },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('a.', '.a', 'a..b', ' ', '', '_id', '_source') },
  // Object.prototype's members are ordinary field names (`constructor`, `__proto__`, `toString`, ...).
  { weight: 2, arbitrary: fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype)) },
);
const scalar = fc.oneof(
  fc.constantFrom('2015-01-01', '2015/09/02', '2015-02-30', '42', '1.5', 'true', '', 'text value'),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, min: -1e6, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => Math.abs(d) < 1e38),
  fc.boolean(),
  fc.constant(null),
);
const { document } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('document')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  document: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));

function parse(source: string, mapping = EMPTY_ROOT): ParsedDocument | EsError {
  try {
    return parseDocument({ source, id: '1', mapping });
  } catch (err) {
    if (err instanceof EsError) return err;
    throw err; // anything else (TypeError, RangeError, ...) fails the property
  }
}

test('any JSON object parses under dynamic mapping or fails with an ES error; re-parsing adds no new fields', () => {
  fc.assert(
    fc.property(document, (value) => {
      const source = JSON.stringify(value);
      const first = parse(source);
      if (first instanceof EsError) {
        assert.equal(first.status, 400, `${first.type}: ${first.reason}`);
        return;
      }
      if (first.mappingUpdate === undefined) return;
      const mapping = mergeMappings(EMPTY_ROOT, first.mappingUpdate, DEFAULT_MAPPING_SETTINGS);
      const second = parse(source, mapping);
      assert.ok(!(second instanceof EsError), `re-parse failed: ${second instanceof EsError ? second.reason : ''}`);
      assert.equal(second.mappingUpdate, undefined, 'the mapping from the first parse covers the document');
      assert.deepEqual(plain(second.fields), plain(first.fields));
      assert.deepEqual(second.ignored, first.ignored);
      // The mapping survives GET _mapping -> PUT mapping unchanged.
      const printed = plain(serializeMapping(mapping));
      assert.deepEqual(plain(serializeMapping(parseMapping(printed))), printed);
    }),
    { numRuns: 500 },
  );
});

test('malformed and truncated JSON always yields an ES error', () => {
  fc.assert(
    fc.property(document, fc.nat(), (value, cut) => {
      const source = JSON.stringify(value);
      const truncated = source.slice(0, cut % (source.length + 1));
      const result = parse(truncated);
      if (truncated !== source) assert.ok(result instanceof EsError, `parsed truncated JSON: ${truncated}`);
    }),
    { numRuns: 300 },
  );
});
