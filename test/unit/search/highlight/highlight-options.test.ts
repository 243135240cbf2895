/**
 * The `highlight` section: HighlightBuilder's defaults, global-to-field merging (with -1 meaning "unset"),
 * tag schemas, and the parse errors ES reports (70_number_of_fragments.yml, 30_max_analyzed_offset.yml).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../../src/common/errors.js';
import type { JsonValue } from '../../../../src/search/dsl/ast/query-ast.js';
import { parseHighlight, STYLED_PRE_TAGS } from '../../../../src/search/highlight/highlight-options.js';

function fails(highlight: { [key: string]: JsonValue }): EsError {
  try {
    parseHighlight(highlight);
  } catch (err) {
    assert.ok(err instanceof EsError);
    return err;
  }
  assert.fail('expected an error');
}

test('defaults: <em></em>, 100 chars, 5 fragments, require_field_match, order none, unified', () => {
  const [field] = parseHighlight({ fields: { title: {} } }).fields;
  assert.equal(field!.field, 'title');
  const options = field!.options;
  assert.deepEqual(options.preTags, ['<em>']);
  assert.deepEqual(options.postTags, ['</em>']);
  assert.equal(options.fragmentSize, 100);
  assert.equal(options.numberOfFragments, 5);
  assert.equal(options.requireFieldMatch, true);
  assert.equal(options.scoreOrdered, false);
  assert.equal(options.encoder, 'default');
  assert.equal(options.noMatchSize, 0);
  assert.equal(options.type, undefined);
});

test('field options override global ones; -1 and absent mean "take the global value"', () => {
  const spec = parseHighlight({
    fragment_size: 50,
    number_of_fragments: 2,
    order: 'score',
    pre_tags: ['<b>'],
    post_tags: ['</b>'],
    fields: { a: { fragment_size: -1, number_of_fragments: 0 }, b: { fragment_size: 10, order: 'none', pre_tags: ['['], post_tags: [']'] } },
  });
  const [a, b] = spec.fields.map((field) => field.options);
  assert.equal(a!.fragmentSize, 50);
  assert.equal(a!.numberOfFragments, 0);
  assert.equal(a!.scoreOrdered, true);
  assert.deepEqual(a!.preTags, ['<b>']);
  assert.equal(b!.fragmentSize, 10);
  assert.equal(b!.numberOfFragments, 2);
  assert.equal(b!.scoreOrdered, false);
  assert.deepEqual([b!.preTags, b!.postTags], [['['], [']']]);
});

test('fields as an array keep the requested order; strings and numbers are coerced like ObjectParser', () => {
  const spec = parseHighlight({ fields: [{ z: { no_match_size: '7' } }, { a: { require_field_match: 'false' } }] });
  assert.deepEqual(spec.fields.map((field) => field.field), ['z', 'a']);
  assert.equal(spec.fields[0]!.options.noMatchSize, 7);
  assert.equal(spec.fields[1]!.options.requireFieldMatch, false);
});

test('tags_schema styled', () => {
  const options = parseHighlight({ tags_schema: 'styled', fields: { a: {} } }).fields[0]!.options;
  assert.deepEqual(options.preTags, STYLED_PRE_TAGS);
  assert.equal(options.preTags[0], '<em class="hlt1">');
  assert.deepEqual(options.postTags, ['</em>']);
});

test('number_of_fragments and max_analyzed_offset bounds', () => {
  for (const value of [10001 * 10, -1]) {
    const err = fails({ type: 'plain', number_of_fragments: value, fields: { field1: {} } });
    assert.equal(err.type, 'x_content_parse_exception');
    assert.equal(err.status, 400);
    assert.equal(err.causedBy?.type, 'illegal_argument_exception');
    assert.equal(err.causedBy?.message, '[number_of_fragments] must be between [0] and [100000]');
  }
  for (const value of [0, -10]) {
    const err = fails({ max_analyzed_offset: value, fields: { field1: {} } });
    assert.equal(err.type, 'x_content_parse_exception');
    assert.equal(err.causedBy?.message, '[max_analyzed_offset] must be a positive integer, or -1');
  }
  assert.equal(parseHighlight({ max_analyzed_offset: -1, fields: { f: {} } }).fields[0]!.options.maxAnalyzedOffset, -1);
});

test('tag and key errors', () => {
  assert.equal(fails({ pre_tags: ['<b>'], fields: { a: {} } }).message, 'pre_tags are set but post_tags are not set');
  assert.equal(fails({ pre_tags: [], post_tags: [], fields: { a: {} } }).message, 'pre_tags or post_tags must not be empty');
  assert.equal(fails({ fields: { a: { fragmnet_size: 1 } } }).message, '[highlight_field] unknown field [fragmnet_size] did you mean any of [fragment_size, fragment_offset]?');
  assert.equal(fails({ tags_schema: 'fancy', fields: { a: {} } }).causedBy?.message, 'Unknown tag schema [fancy]');
  assert.equal(fails({ fields: { a: { pre_tags: 5, post_tags: ['x'] } } }).message, "[highlight_field] pre_tags doesn't support values of type: VALUE_NUMBER");
});

test('highlight_query is parsed with the query DSL', () => {
  const options = parseHighlight({ highlight_query: { match: { title: 'fox' } }, fields: { title: {} } }).fields[0]!.options;
  assert.equal(options.highlightQuery?.kind, 'match');
  const err = fails({ highlight_query: { nope: {} }, fields: { title: {} } });
  assert.equal(err.type, 'x_content_parse_exception');
  assert.equal(err.message, '[highlight] failed to parse field [highlight_query]');
});
