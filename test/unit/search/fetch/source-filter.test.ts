/**
 * `_source` filtering against ES's own expectations: the shared filtering test case (AbstractFilteringTestCase
 * and its sample*.json files, which ES runs against the parser-based filter its fetch phase uses), the
 * search/10_source_filtering.yml REST tests, and what re-serialisation prints for numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFilter, sourceForHit } from '../../../../src/search/fetch/source-filter.js';

const SAMPLE = {
  title: 'My awesome book',
  pages: 456,
  price: 27.99,
  timestamp: 1428582942867,
  default: null,
  tags: ['elasticsearch', 'java'],
  authors: [
    { name: 'John Doe', lastname: 'John', firstname: 'Doe' },
    { name: 'William Smith', lastname: 'William', firstname: 'Smith' },
  ],
  properties: {
    weight: 0.8,
    language: {
      en: {
        lang: 'English',
        available: true,
        distributors: [
          {
            name: 'The Book Shop',
            addresses: [
              { name: 'address #1', street: 'Hampton St', city: 'London' },
              { name: 'address #2', street: 'Queen St', city: 'Stornoway' },
            ],
          },
          { name: 'Sussex Books House' },
        ],
      },
      fr: {
        lang: 'French',
        available: false,
        distributors: [
          { name: 'La Maison du Livre', addresses: [{ name: 'address #1', street: 'Rue Mouffetard', city: 'Paris' }] },
          { name: 'Thetra' },
        ],
      },
    },
  },
};

function filtered(source: unknown, includes: string[], excludes: string[] = []): string {
  const bytes = Buffer.from(typeof source === 'string' ? source : JSON.stringify(source), 'utf8');
  return new SourceFilter(includes, excludes).apply(bytes).text;
}

function check(expected: unknown, source: unknown, includes: string[], excludes: string[] = []): void {
  assert.equal(filtered(source, includes, excludes), JSON.stringify(expected), `includes ${JSON.stringify(includes)} excludes ${JSON.stringify(excludes)}`);
}

test('no filtering returns the stored bytes verbatim, numbers and whitespace included', () => {
  const raw = '{ "a" : 1.0, "big": 123456789012345678901234567890, "b": [1e2] }';
  assert.equal(filtered(raw, []), raw);
});

test('patterns that keep everything re-serialise compactly', () => {
  check(SAMPLE, SAMPLE, ['*']);
  check(SAMPLE, SAMPLE, ['**']);
  check(SAMPLE, SAMPLE, [], ['xyz']);
});

test('no match leaves an empty object', () => {
  check({}, SAMPLE, ['xyz']);
  check({}, SAMPLE, [], ['*']);
  check({}, SAMPLE, [], ['**']);
});

test('simple fields, wildcards and arrays (AbstractFilteringTestCase)', () => {
  check({ title: 'My awesome book' }, SAMPLE, ['title']);
  const { title: _title, ...noTitle } = SAMPLE;
  check(noTitle, SAMPLE, [], ['title']);
  check({ pages: 456, price: 27.99, properties: SAMPLE.properties }, SAMPLE, ['pr*', 'pages']);
  check({ title: 'My awesome book', pages: 456 }, SAMPLE, ['title', 'pages']);
  check({ tags: ['elasticsearch', 'java'] }, SAMPLE, ['tags']);
  for (const pattern of ['authors', 'authors.*', 'authors.*name']) check({ authors: SAMPLE.authors }, SAMPLE, [pattern]);
  const { authors: _authors, ...noAuthors } = SAMPLE;
  for (const pattern of ['authors', 'authors.*', 'authors.*name']) check(noAuthors, SAMPLE, [], [pattern]);
  check({ authors: [{ lastname: 'John' }, { lastname: 'William' }] }, SAMPLE, ['authors.lastname']);
  check({ authors: [{ lastname: 'John' }, { lastname: 'William' }] }, SAMPLE, ['authors.l*']);
  const noLastname = { ...SAMPLE, authors: SAMPLE.authors.map(({ lastname: _l, ...rest }) => rest) };
  check(noLastname, SAMPLE, [], ['authors.lastname']);
  check(noLastname, SAMPLE, [], ['authors.l*']);
});

test('** recursion, inclusive and exclusive', () => {
  const justNames = {
    authors: [{ name: 'John Doe' }, { name: 'William Smith' }],
    properties: {
      language: {
        en: {
          distributors: [
            { name: 'The Book Shop', addresses: [{ name: 'address #1' }, { name: 'address #2' }] },
            { name: 'Sussex Books House' },
          ],
        },
        fr: { distributors: [{ name: 'La Maison du Livre', addresses: [{ name: 'address #1' }] }, { name: 'Thetra' }] },
      },
    },
  };
  check(justNames, SAMPLE, ['**.name']);
  // sample_no_names.json: a distributor left with no properties disappears from its array.
  const noNames = {
    ...SAMPLE,
    authors: [
      { lastname: 'John', firstname: 'Doe' },
      { lastname: 'William', firstname: 'Smith' },
    ],
    properties: {
      weight: 0.8,
      language: {
        en: {
          lang: 'English',
          available: true,
          distributors: [
            {
              addresses: [
                { street: 'Hampton St', city: 'London' },
                { street: 'Queen St', city: 'Stornoway' },
              ],
            },
          ],
        },
        fr: { lang: 'French', available: false, distributors: [{ addresses: [{ street: 'Rue Mouffetard', city: 'Paris' }] }] },
      },
    },
  };
  check(noNames, SAMPLE, [], ['**.name']);
  check({ properties: { language: { en: justNames.properties.language.en } } }, SAMPLE, ['properties.*.en.**.name']);
  const noDistributorNames = JSON.parse(JSON.stringify(SAMPLE)) as typeof SAMPLE;
  noDistributorNames.properties.language.en.distributors = [{ addresses: SAMPLE.properties.language.en.distributors[0]!.addresses! }] as never;
  noDistributorNames.properties.language.fr.distributors = [{ addresses: SAMPLE.properties.language.fr.distributors[0]!.addresses! }] as never;
  check(noDistributorNames, SAMPLE, [], ['properties.**.distributors.name']);
});

test('includes and excludes together', () => {
  check({ pages: 456, price: 27.99 }, SAMPLE, ['p*'], ['properties']);
  check({ tags: SAMPLE.tags, authors: [{ lastname: 'John', firstname: 'Doe' }, { lastname: 'William', firstname: 'Smith' }] }, SAMPLE, ['tags', 'authors'], [
    'authors.name',
  ]);
  check(
    { properties: { weight: 0.8, language: { en: { lang: 'English', available: true }, fr: { lang: 'French', available: false } } } },
    SAMPLE,
    ['**.language', 'properties.weight'],
    ['**.distributors'],
  );
  check({}, SAMPLE, ['**.distributors'], ['**.distributors']);
});

test('arrays of values and of objects', () => {
  const values = { tags: ['lorem', 'ipsum', 'dolor'] };
  check(values, values, ['t*']);
  check(values, values, [], ['a']);
  check({}, values, ['foo']);
  check({}, values, [], ['tags']);
  const objects = { tags: [{ lastname: 'lorem' }, { firstname: 'ipsum' }] };
  check(objects, objects, ['tags']);
  check({}, objects, [], ['t*']);
  check({ tags: [{ firstname: 'ipsum' }] }, objects, ['t*.firstname']);
  check({ tags: [{ firstname: 'ipsum' }] }, objects, [], ['t*.lastname']);
});

test('empty objects: kept when matched whole or untouched by excludes, dropped otherwise', () => {
  const sample = { foo: {} };
  check(sample, sample, ['foo']);
  check(sample, sample, [], ['bar']);
  check(sample, sample, ['f*'], ['baz']);
  check({}, sample, [], ['foo']);
  check({}, sample, ['bar']);
  check({}, sample, ['f*'], ['foo']);
  // An object emptied by an exclude disappears (8.15+ FilterPathBasedFilter), an originally empty array stays.
  check({}, { a: { b: 1 } }, [], ['a.b']);
  check({ a: { c: [] } }, { a: { b: 1, c: [] } }, [], ['a.b']);
});

test('basics, shared prefixes, non-ASCII names', () => {
  const basic = { test1: 'value1', test2: 'value2', something_else: 'value3' };
  check({ test1: 'value1' }, basic, ['test1']);
  check({ test1: 'value1', test2: 'value2' }, basic, ['test*']);
  check({ test2: 'value2', something_else: 'value3' }, basic, [], ['test1']);
  const complex = { path1: { path2: [{ test: 'value1' }, { test: 'value2' }] }, test1: 'value1' };
  for (const pattern of ['path1', 'path1*', 'path1.path2.*']) check({ path1: complex.path1 }, complex, [pattern]);
  check({ test1: 'value1' }, complex, ['test1*']);
  check({ 搜索: 2 }, { 搜索: 2, 指数: 3 }, ['搜索']);
  check({ 指数: 3 }, { 搜索: 2, 指数: 3 }, [], ['搜索']);
  check({ foobar: 2 }, { foobar: 2, foobaz: 3 }, ['foobar']);
  check({ photosCount: 2 }, { photos: ['foo', 'bar'], photosCount: 2 }, ['photosCount']);
});

test('dotted field names match as paths', () => {
  check({ 'a.b': 1 }, { 'a.b': 1, c: 2 }, ['a.b']);
  check({ 'a.b': 1 }, { 'a.b': 1, c: 2 }, ['a']);
  check({ c: 2 }, { 'a.b': 1, c: 2 }, [], ['a']);
  check({ a: { 'b.c': 1 } }, { a: { 'b.c': 1, 'b.d': 2 } }, ['a.b.c']);
  check({ 'a.b': { c: 1 } }, { 'a.b': { c: 1, d: 2 } }, ['a.b.c']);
  // An escaped dot makes one pattern segment "a.b", but with dotted-name matching on (as source filtering
  // has it) a dotted property name is only ever matched segment by segment, so nothing matches.
  check({}, { 'a.b': 1, a: { b: 2 } }, ['a\\.b']);
});

test('search/10_source_filtering.yml', () => {
  const doc = '{ "include": { "field1": "v1", "field2": "v2" }, "count": 1, "bigint": 72057594037927936, "d": 3.14 }';
  assert.equal(filtered(doc, ['include.field1']), '{"include":{"field1":"v1"}}');
  assert.equal(filtered(doc, [], ['count']), '{"include":{"field1":"v1","field2":"v2"},"bigint":72057594037927936,"d":3.14}');
  assert.equal(filtered(doc, ['include.field1', 'include.field2']), '{"include":{"field1":"v1","field2":"v2"}}');
  assert.equal(filtered(doc, ['include'], ['*.field2']), '{"include":{"field1":"v1"}}');
  // The big integer keeps all its digits through re-serialisation.
  assert.equal(filtered(doc, ['bigint']), '{"bigint":72057594037927936}');
});

test('re-serialisation prints numbers the way Jackson copies them', () => {
  const raw = '{"a":1.0,"b":1.50,"c":1e2,"d":-0,"e":12345678901234567890123,"f":0.0001,"g":12345678.9,"h":1E-7,"i":-0.0,"j":"x"}';
  assert.equal(filtered(raw, [], ['j']), '{"a":1.0,"b":1.5,"c":100.0,"d":0,"e":12345678901234567890123,"f":1.0E-4,"g":1.23456789E7,"h":1.0E-7,"i":-0.0}');
});

test('re-serialisation escapes strings the way Jackson does', () => {
  const raw = '{"s":"tab\\there \\u0001 \\"q\\" \\\\ / é \\u2028","x":1}';
  assert.equal(filtered(raw, ['s']), '{"s":"tab\\there \\u0001 \\"q\\" \\\\ / é \u2028"}');
});

test('key order is kept, integer-like keys included', () => {
  assert.equal(filtered('{"b":1,"2":2,"a":3,"1":4}', [], ['a']), '{"b":1,"2":2,"1":4}');
});

test('sourceForHit: _source false, missing source, and the excludes-all shortcut', () => {
  const bytes = Buffer.from('{"a":1}');
  assert.equal(sourceForHit(bytes, { fetch: false, includes: [], excludes: [] }), undefined);
  assert.equal(sourceForHit(null, undefined), undefined);
  assert.equal(sourceForHit(bytes, undefined)?.text, '{"a":1}');
  assert.equal(sourceForHit(bytes, { fetch: true, includes: ['a'], excludes: ['*'] })?.text, '{}');
});
