/**
 * The DSL's query plan feeds the highlighter directly (its shapes are the highlighter's): the same
 * fragments as from the AST for the kinds both handle, and query_string, which only the plan takes apart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnalysisRegistry } from '../../../../src/analysis/index.js';
import { parseMapping } from '../../../../src/mapping/index.js';
import { buildContext } from '../../../../src/search/dsl/build/build-context.js';
import { buildTopLevelQuery } from '../../../../src/search/dsl/build/build-query.js';
import { FieldLookup } from '../../../../src/search/dsl/build/field-lookup.js';
import { parseTopLevelQuery } from '../../../../src/search/dsl/parse/inner-query.js';
import { XContentParser } from '../../../../src/search/dsl/xcontent/xcontent-parser.js';
import { parseSource } from '../../../../src/search/fetch/source-tree.js';
import { parseHighlight } from '../../../../src/search/highlight/highlight-options.js';
import { HighlightPhase } from '../../../../src/search/highlight/highlight-phase.js';

const MAPPING = parseMapping({ properties: { title: { type: 'text' }, tag: { type: 'keyword' } } });
const ANALYSIS = AnalysisRegistry.global();
const SOURCE = parseSource(Buffer.from(JSON.stringify({ title: 'The quick brown fox jumps over the lazy quick dog', tag: 'Fox' })));
const HIGHLIGHT = parseHighlight({ type: 'plain', require_field_match: false, fields: { title: {}, tag: {} } });

function run(query: object, mode: 'ast' | 'plan'): Array<[string, string[]]> | undefined {
  const ast = parseTopLevelQuery(XContentParser.fromString(JSON.stringify(query)));
  const input =
    mode === 'ast'
      ? { ast }
      : { built: buildTopLevelQuery(ast, buildContext({ fields: new FieldLookup(MAPPING), analysis: ANALYSIS })) };
  const result = HighlightPhase.create({ index: 'test', mapping: MAPPING, analysis: ANALYSIS }, HIGHLIGHT, input).highlight(SOURCE, { id: '1' });
  return result === undefined ? undefined : [...result];
}

test('plan and AST give the same highlights', () => {
  const queries = [
    { match: { title: 'quick fox' } },
    { match_phrase: { title: 'quick brown' } },
    { bool: { must: [{ term: { tag: 'Fox' } }], should: [{ prefix: { title: 'laz' } }], must_not: [{ match: { title: 'dog' } }] } },
    { multi_match: { query: 'lazy dog', fields: ['title^2', 'tag'] } },
    { constant_score: { filter: { match: { title: 'jumps' } }, boost: 3 } },
  ];
  for (const query of queries) assert.deepEqual(run(query, 'plan'), run(query, 'ast'), JSON.stringify(query));
});

test('query_string highlights through the plan', () => {
  assert.deepEqual(run({ query_string: { query: 'title:"quick brown" OR title:lazy' } }, 'plan'), [
    ['title', ['The <em>quick</em> <em>brown</em> fox jumps over the <em>lazy</em> quick dog']],
  ]);
  // Built from the AST alone, query_string is not taken apart.
  assert.equal(run({ query_string: { query: 'title:lazy' } }, 'ast'), undefined);
});
