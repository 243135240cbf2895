/**
 * The plain highlighter against ES's own expectations (search.highlight/*.yml REST tests and
 * HighlighterSearchIT's plain cases, exact strings), plus fragment boundaries worked out from Lucene's
 * Highlighter, SimpleFragmenter and SimpleSpanFragmenter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsError } from '../../../../src/common/errors.js';
import { fragments, highlight, phaseFor } from './helpers.js';

const TEXT = { properties: { field1: { type: 'text' } } };

test('70_number_of_fragments.yml: a plain highlight of one term', () => {
  const result = fragments(
    { mapping: TEXT, query: { match: { field1: 'fox' } }, highlight: { type: 'plain', number_of_fragments: 100000, fields: { field1: {} } } },
    { field1: 'The quick brown fox' },
  );
  assert.deepEqual(result, ['The quick brown <em>fox</em>']);
});

test('10_unified.yml: multi_match over text and its multi-fields, highlighted through a pattern', () => {
  const mapping = {
    properties: {
      text: {
        type: 'text',
        fields: { fvh: { type: 'text', term_vector: 'with_positions_offsets' }, postings: { type: 'text', index_options: 'offsets' } },
      },
    },
  };
  const result = highlight(
    { mapping, query: { multi_match: { query: 'quick brown fox', fields: ['text*'] } }, highlight: { type: 'unified', fields: { '*': {} } } },
    { text: 'The quick brown fox is brown.' },
  );
  const expected = 'The <em>quick</em> <em>brown</em> <em>fox</em> is <em>brown</em>.';
  assert.deepEqual(new Map(result), new Map([['text', [expected]], ['text.fvh', [expected]], ['text.postings', [expected]]]));
});

test('30_max_analyzed_offset.yml: the index limit, the request limit, -1 and 1', () => {
  const source = { field1: 'The quick brown fox went to the forest and saw another fox.' };
  const base = { mapping: TEXT, query: { match: { field1: 'fox' } }, maxAnalyzedOffset: 30 };
  assert.throws(
    () => fragments({ ...base, highlight: { type: 'plain', fields: { field1: {} } } }, source),
    (err: unknown) =>
      err instanceof EsError &&
      err.type === 'illegal_argument_exception' &&
      err.message ===
        'The length [59] of field [field1] in doc[1]/index[test] exceeds the [index.highlight.max_analyzed_offset] limit [30]. To avoid this error, ' +
          'set the query parameter [max_analyzed_offset] to a value less than index setting [30] and this will tolerate long field values by truncating them.',
  );
  const one = ['The quick brown <em>fox</em> went to the forest and saw another fox.'];
  assert.deepEqual(fragments({ ...base, highlight: { type: 'plain', fields: { field1: {} }, max_analyzed_offset: 20 } }, source), one);
  assert.deepEqual(fragments({ ...base, highlight: { type: 'plain', fields: { field1: {} }, max_analyzed_offset: '20' } }, source), one);
  assert.deepEqual(fragments({ ...base, highlight: { type: 'plain', fields: { field1: {} }, max_analyzed_offset: -1 } }, source), one);
  assert.equal(highlight({ ...base, highlight: { type: 'plain', fields: { field1: {} }, max_analyzed_offset: 1 } }, source), undefined);
});

test('40_keyword_ignore.yml: require_field_match false, prefix expanded on the highlighted keyword, ignore_above values skipped', () => {
  const testCase = {
    mapping: { properties: { k1: { type: 'keyword' }, k2: { type: 'keyword', ignore_above: 3 } } },
    query: { prefix: { k1: '12' } },
    highlight: { require_field_match: false, fields: { k2: { type: 'plain' } } },
  };
  assert.deepEqual(fragments(testCase, { k1: '123', k2: '123' }), ['<em>123</em>']);
  assert.equal(highlight(testCase, { k1: '1234', k2: '1234' }), undefined);
});

test('phrases highlight only where the phrase matches (HighlighterSearchIT)', () => {
  const source = { field2: 'The quick brown fox jumps over the lazy quick dog' };
  const mapping = { properties: { field2: { type: 'text' } } };
  const tags = { pre_tags: ['<xxx>'], post_tags: ['</xxx>'] };
  assert.deepEqual(
    fragments({ mapping, query: { match_phrase: { field2: 'quick brown' } }, highlight: { type: 'plain', fields: { field2: tags } } }, source),
    ['The <xxx>quick</xxx> <xxx>brown</xxx> fox jumps over the lazy quick dog'],
  );
  assert.deepEqual(
    fragments({ mapping, query: { term: { field2: 'quick' } }, highlight: { type: 'plain', fields: { field2: { ...tags, order: 'score' } } } }, source),
    ['The <xxx>quick</xxx> brown fox jumps over the lazy <xxx>quick</xxx> dog'],
  );
  // A phrase that does not occur highlights none of its terms; a term query alongside it still does.
  assert.equal(highlight({ mapping, query: { match_phrase: { field2: 'brown quick' } }, highlight: { type: 'plain', fields: { field2: {} } } }, source), undefined);
  assert.deepEqual(
    fragments(
      {
        mapping,
        query: { bool: { should: [{ match_phrase: { field2: 'lazy quick' } }, { term: { field2: 'fox' } }] } },
        highlight: { type: 'plain', fields: { field2: {} } },
      },
      source,
    ),
    ['The quick brown <em>fox</em> jumps over the <em>lazy</em> <em>quick</em> dog'],
  );
});

test('phrase with slop matches out of order within the window; must_not clauses are not highlighted', () => {
  const mapping = { properties: { f: { type: 'text' } } };
  const source = { f: 'brown quick fox and quick slow brown' };
  assert.deepEqual(
    fragments({ mapping, query: { match_phrase: { f: { query: 'quick brown', slop: 1 } } }, highlight: { type: 'plain', fields: { f: {} } } }, source),
    // Unordered span matching: "brown quick" and "quick slow brown" both fit a slop of 1.
    ['<em>brown</em> <em>quick</em> fox and <em>quick</em> slow <em>brown</em>'],
  );
  assert.deepEqual(
    fragments(
      { mapping, query: { bool: { must: [{ match: { f: 'fox' } }], must_not: [{ match: { f: 'slow' } }] } }, highlight: { type: 'plain', fields: { f: {} } } },
      source,
    ),
    ['brown quick <em>fox</em> and quick slow brown'],
  );
});

test('a phrase with a removed stop word keeps its gap as slop (Lucene turns it into a span near query)', () => {
  const mapping = { properties: { f: { type: 'text', analyzer: 'stop' } } };
  const result = fragments(
    { mapping, query: { match_phrase: { f: 'brown the fox' } }, highlight: { type: 'plain', fields: { f: {} } } },
    { f: 'brown the fox and brown fox' },
  );
  assert.deepEqual(result, ['<em>brown</em> the <em>fox</em> and <em>brown</em> <em>fox</em>']);
});

test('no_match_size (HighlighterSearchIT.testHighlightNoMatchSize, plain)', () => {
  const text = 'I am pretty long so some of me should get cut off. Second sentence';
  const field = (extra: object) => ({ mapping: TEXT, highlight: { fields: { field1: { type: 'plain', fragment_size: 21, number_of_fragments: 1, ...extra } } } });
  assert.equal(highlight(field({}), { field1: text }), undefined);
  assert.equal(highlight(field({ no_match_size: 0 }), { field1: text }), undefined);
  assert.deepEqual(fragments(field({ no_match_size: 21 }), { field1: text }), ['I am pretty long so']);
  assert.deepEqual(fragments(field({ no_match_size: text.length * 2 }), { field1: text }), [text]);
  assert.deepEqual(fragments(field({ no_match_size: text.length }), { field1: text }), [text]);
  assert.equal(highlight(field({ no_match_size: -5 }), { field1: text }), undefined);
  const global = { mapping: TEXT, highlight: { no_match_size: 21, fields: { field1: { type: 'plain', fragment_size: 21, number_of_fragments: 1 } } } };
  assert.deepEqual(fragments(global, { field1: text }), ['I am pretty long so']);
});

test('no_match_size on multi-valued fields: the first value only, nothing for an empty first value', () => {
  const testCase = { mapping: TEXT, highlight: { fields: { field1: { type: 'plain', fragment_size: 21, number_of_fragments: 1, no_match_size: 21 } } } };
  assert.deepEqual(fragments(testCase, { field1: ["I am pretty long so some of me should get cut off. We'll see how that goes.", 'I am short'] }), ['I am pretty long so']);
  assert.equal(highlight(testCase, { field1: ['', 'I am short'] }), undefined);
  assert.equal(highlight(testCase, { field1: [] }), undefined);
  assert.equal(highlight(testCase, {}), undefined);
});

test('number_of_fragments 0: whole values, only those that match (testHighlightNoMatchSizeNumberOfFragments)', () => {
  const values = ['This is the first sentence. This is the second sentence.\u2029', 'This is the third sentence. This is the fourth sentence.', 'This is the fifth sentence'];
  const field = { type: 'plain', fragment_size: 1, number_of_fragments: 0, no_match_size: 20 };
  assert.deepEqual(fragments({ mapping: TEXT, highlight: { fields: { field1: field } } }, { field1: values }), ['This is the first']);
  assert.deepEqual(fragments({ mapping: TEXT, query: { match: { field1: 'third fifth' } }, highlight: { fields: { field1: field } } }, { field1: values }), [
    'This is the <em>third</em> sentence. This is the fourth sentence.',
    'This is the <em>fifth</em> sentence',
  ]);
});

test('testPlainHighlightDifferentFragmenter: fragment_size -1 means the default; an unknown fragmenter is a 400', () => {
  const mapping = { properties: { tags: { type: 'text' } } };
  const source = { tags: ['this is a really long tag i would like to highlight', 'here is another one that is very long tag and has the tag token near the end'] };
  for (const fragmenter of ['simple', 'span']) {
    assert.deepEqual(
      fragments(
        { mapping, query: { match_phrase: { tags: 'long tag' } }, highlight: { fields: { tags: { type: 'plain', fragment_size: -1, number_of_fragments: 2, fragmenter } } } },
        source,
      ),
      ['this is a really <em>long</em> <em>tag</em> i would like to highlight', 'here is another one that is very <em>long</em> <em>tag</em> and has the tag token near the end'],
    );
  }
  assert.throws(
    () =>
      highlight(
        { mapping, query: { match_phrase: { tags: 'long tag' } }, highlight: { fields: { tags: { type: 'plain', fragment_size: -1, number_of_fragments: 2, fragmenter: 'invalid' } } } },
        source,
      ),
    (err: unknown) => err instanceof EsError && err.status === 400 && err.message === 'unknown fragmenter option [invalid] for the field [tags]',
  );
});

test('testPlainHighlighterMultipleFields: require_field_match per field, tags per field', () => {
  const mapping = { properties: { field1: { type: 'text' }, field2: { type: 'text' } } };
  const result = highlight(
    {
      mapping,
      query: { match: { field1: 'fox' } },
      highlight: {
        fields: {
          field1: { type: 'plain', pre_tags: ['<1>'], post_tags: ['</1>'], require_field_match: true },
          field2: { type: 'plain', pre_tags: ['<2>'], post_tags: ['</2>'], require_field_match: false },
        },
      },
    },
    { field1: 'The <b>quick<b> brown fox', field2: 'The <b>slow<b> brown fox' },
  );
  assert.deepEqual(new Map(result), new Map([['field1', ['The <b>quick<b> brown <1>fox</1>']], ['field2', ['The <b>slow<b> brown <2>fox</2>']]]));
});

test('testHighlightUsesHighlightQuery: field and global highlight_query', () => {
  const source = { field1: 'Testing the highlight query feature' };
  const query = { match: { field1: 'testing' } };
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { type: 'plain', fields: { field1: {} } } }, source), ['<em>Testing</em> the highlight query feature']);
  const hlQuery = { match: { field1: 'query' } };
  const expected = ['Testing the highlight <em>query</em> feature'];
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { type: 'plain', fields: { field1: { highlight_query: hlQuery } } } }, source), expected);
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { type: 'plain', highlight_query: hlQuery, fields: { field1: {} } } }, source), expected);
});

test('encoder html escapes the text but not the tags; no_match_size text is never encoded', () => {
  const source = { field1: "<b>Tom & Jerry</b> say 'hi'" };
  const query = { match: { field1: 'jerry' } };
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { type: 'plain', encoder: 'html', fields: { field1: {} } } }, source), [
    '&lt;b&gt;Tom &amp; <em>Jerry</em>&lt;&#x2F;b&gt; say &#x27;hi&#x27;',
  ]);
  assert.deepEqual(fragments({ mapping: TEXT, query, highlight: { type: 'plain', fields: { field1: {} } } }, source), ["<b>Tom & <em>Jerry</em></b> say 'hi'"]);
  assert.deepEqual(
    fragments({ mapping: TEXT, highlight: { type: 'plain', encoder: 'html', no_match_size: 100, fields: { field1: {} } } }, source),
    ["<b>Tom & Jerry</b> say 'hi'"],
  );
});

test('fragment boundaries: SimpleFragmenter cuts at n * fragment_size, fragments start with the preceding space', () => {
  const testCase = (fragmenter: string) => ({
    mapping: TEXT,
    query: { match: { field1: 'ggg' } },
    highlight: { fields: { field1: { type: 'plain', fragment_size: 10, fragmenter } } },
  });
  const source = { field1: 'aaa bbb ccc ddd eee fff ggg hhh' };
  assert.deepEqual(fragments(testCase('simple'), source), [' fff <em>ggg</em>']);
  // The span fragmenter never opens a fragment in the last half fragment_size of the text.
  assert.deepEqual(fragments(testCase('span'), source), [' fff <em>ggg</em> hhh']);
});

test('fragment boundaries: a matched phrase stays in one fragment with the span fragmenter', () => {
  const result = fragments(
    { mapping: TEXT, query: { match_phrase: { field1: 'ccc ddd' } }, highlight: { fields: { field1: { type: 'plain', fragment_size: 10 } } } },
    { field1: 'aaa bbb ccc ddd eee' },
  );
  assert.deepEqual(result, [' <em>ccc</em> <em>ddd</em> eee']);
});

test('best fragments by score, then in text order unless order: score', () => {
  const source = { field1: 'one two three four five six seven eight nine ten' };
  const base = { mapping: TEXT, query: { match: { field1: 'two nine ten' } } };
  const options = { type: 'plain', fragment_size: 10, fragmenter: 'simple' };
  assert.deepEqual(fragments({ ...base, highlight: { fields: { field1: options } } }, source), ['one <em>two</em>', ' <em>nine</em> <em>ten</em>']);
  assert.deepEqual(fragments({ ...base, highlight: { fields: { field1: { ...options, order: 'score' } } } }, source), [
    ' <em>nine</em> <em>ten</em>',
    'one <em>two</em>',
  ]);
  // number_of_fragments keeps the best ones, whatever the order they are then printed in.
  assert.deepEqual(fragments({ ...base, highlight: { fields: { field1: { ...options, number_of_fragments: 1 } } } }, source), [' <em>nine</em> <em>ten</em>']);
});

test('fields through patterns: only text and keyword fields; explicit names may be any mapped field', () => {
  const mapping = { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, count: { type: 'long' } } };
  const source = { title: 'red fox', tag: 'red', count: 5 };
  const query = { bool: { should: [{ match: { title: 'red' } }, { term: { tag: 'red' } }, { term: { count: 5 } }] } };
  const result = highlight({ mapping, query, highlight: { type: 'plain', fields: { '*': {} } } }, source);
  assert.deepEqual(new Map(result), new Map([['title', ['<em>red</em> fox']], ['tag', ['<em>red</em>']]]));
  // Numbers are not highlightable; asking for one by name is not an error.
  assert.equal(highlight({ mapping, query, highlight: { type: 'plain', fields: { count: {} } } }, source), undefined);
});

test('require_field_match: true (default) keeps other fields\' terms out; false lets them in', () => {
  const mapping = { properties: { a: { type: 'text' }, b: { type: 'text' } } };
  const source = { a: 'fox', b: 'fox' };
  assert.deepEqual(new Map(highlight({ mapping, query: { match: { a: 'fox' } }, highlight: { type: 'plain', fields: { a: {}, b: {} } } }, source)), new Map([['a', ['<em>fox</em>']]]));
  assert.deepEqual(
    new Map(highlight({ mapping, query: { match: { a: 'fox' } }, highlight: { type: 'plain', require_field_match: false, fields: { a: {}, b: {} } } }, source)),
    new Map([
      ['a', ['<em>fox</em>']],
      ['b', ['<em>fox</em>']],
    ]),
  );
});

test('multi-term queries expand against the value: wildcard, regexp, fuzzy, terms', () => {
  const mapping = { properties: { f: { type: 'text' }, k: { type: 'keyword' } } };
  const run = (query: object) => fragments({ mapping, query, highlight: { type: 'plain', fields: { f: {} } } }, { f: 'the quick quack quiet fox' });
  assert.deepEqual(run({ wildcard: { f: 'qu?ck' } }), ['the <em>quick</em> <em>quack</em> quiet fox']);
  assert.deepEqual(run({ regexp: { f: 'qu[ai]c?k' } }), ['the <em>quick</em> <em>quack</em> quiet fox']);
  assert.deepEqual(run({ fuzzy: { f: { value: 'quikc' } } }), ['the <em>quick</em> quack quiet fox']);
  assert.deepEqual(run({ terms: { f: ['fox', 'quiet'] } }), ['the quick quack <em>quiet</em> <em>fox</em>']);
  assert.deepEqual(run({ match_phrase_prefix: { f: 'quick qu' } }), ['the <em>quick</em> <em>quack</em> quiet fox']);
});

test('highlight output is in the order of ES\'s HashMap', () => {
  const mapping = { properties: { a: { type: 'text' }, b: { type: 'text' }, q: { type: 'text' } } };
  // "a" (97) and "q" (113) share bucket 1 of 16, "b" (98) is bucket 2; within a bucket, request order.
  const result = highlight(
    { mapping, query: { match: { a: 'x' } }, highlight: { type: 'plain', require_field_match: false, fields: [{ b: {} }, { q: {} }, { a: {} }] } },
    { a: 'x', b: 'x', q: 'x' },
  );
  assert.deepEqual(result?.map(([name]) => name), ['q', 'a', 'b']);
});

test('unknown highlighter types and fvh without term vectors are 400s', () => {
  assert.throws(
    () => phaseFor({ mapping: TEXT, highlight: { type: 'magic', fields: { field1: {} } } }),
    (err: unknown) => err instanceof EsError && err.status === 400 && err.message === 'unknown highlighter type [magic] for the field [field1]',
  );
  assert.throws(
    () => phaseFor({ mapping: TEXT, highlight: { type: 'fvh', fields: { field1: {} } } }),
    (err: unknown) =>
      err instanceof EsError && err.message === 'the field [field1] should be indexed with term vector with position offsets to be used with fast vector highlighter',
  );
});

test('testHighlightingWithKeywordIgnoreBoundaryScanner: keyword values highlight whole, one fragment per value', () => {
  const testCase = { mapping: { properties: { tags: { type: 'keyword' } } }, query: { match: { tags: 'foo bar' } }, highlight: { type: 'plain', fields: { tags: { number_of_fragments: 2 } } } };
  assert.deepEqual(fragments(testCase, { tags: ['foo bar', 'foo bar', 'foo bar', 'foo baz'] }), ['<em>foo bar</em>', '<em>foo bar</em>']);
  assert.deepEqual(fragments(testCase, { tags: ['foo baz', 'foo baz', 'foo baz', 'foo bar'] }), ['<em>foo bar</em>']);
});

test('elastic/elasticsearch#87210: ES\'s fragments of a multi-valued field, ordered by score across values (fixed in 8.4)', () => {
  const mapping = { properties: { description: { type: 'text' } } };
  const source = {
    description: [
      'Lorem Ipsum string Generator that helps to create dummy text for all layout needs.',
      'It has roots in a piece of classical Latin literature from 45 BC, making it search string over 2000 years old.',
    ],
  };
  const run = (order: string) =>
    fragments({ mapping, query: { match: { description: 'search string' } }, highlight: { order, type: 'plain', fields: { '*': {} }, fragment_size: 50 } }, source);
  // The fragment texts are ES's own output quoted in the issue.
  const first = 'Lorem Ipsum <em>string</em> Generator that helps to create';
  const second = ' literature from 45 BC, making it <em>search</em> <em>string</em> over 2000 years old.';
  assert.deepEqual(run('score'), [second, first]);
  assert.deepEqual(run('none'), [first, second]);
});
