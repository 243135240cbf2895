import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseQuery, serializeQuery, toJsonText, type FieldBoost, type Fuzziness, type QueryAst, type QueryValue } from '../../../../src/search/dsl/index.js';

/** A float32 that survives JSON (no -0, finite). */
const float32 = (max = 1e6): fc.Arbitrary<number> => fc.float({ min: 0, max, noNaN: true, noDefaultInfinity: true }).map((value) => Math.abs(Math.fround(value)));
const nonNegativeInt = fc.integer({ min: 0, max: 2147483647 });
const field = fc.stringMatching(/^[a-z][a-z0-9_.]{0,10}$/).filter((name) => name !== 'boost' && name !== '_name');
const text = fc.string({ maxLength: 20 });
const optional = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined });

/** JSON scalars as the parser keeps them: safe numbers, exact big integers (bigint), strings, booleans. */
const value: fc.Arbitrary<QueryValue> = fc.oneof(
  text,
  fc.boolean(),
  fc.integer(),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0) && !(Number.isInteger(v) && !Number.isSafeInteger(v))),
);

const fuzziness: fc.Arbitrary<Fuzziness> = fc.oneof(
  fc.constantFrom(0, 1, 2).map((edits) => ({ kind: 'edits' as const, edits: edits as 0 | 1 | 2 })),
  fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 10 })).map(([a, b]) => ({ kind: 'auto' as const, low: Math.min(a, b), high: Math.max(a, b) })),
);

// fc.record builds prototype-less objects; the parser builds plain ones.
const fields: fc.Arbitrary<FieldBoost[]> = fc.uniqueArray(
  fc.record({ field, boost: float32(100) }).map((entry) => ({ ...entry })),
  { selector: (entry) => entry.field, maxLength: 4 },
);
const operator = fc.constantFrom('or' as const, 'and' as const);
const zeroTerms = fc.constantFrom('none' as const, 'all' as const);
const rewrite = optional(fc.constantFrom('constant_score', 'top_terms_10', 'scoring_boolean'));

/** Adds the common boost and optional _name. */
function common<T extends object>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T & { boost: number; name?: string }> {
  return fc.tuple(arbitrary, float32(), optional(text)).map(([query, boost, name]) => ({ ...query, boost, ...(name !== undefined && { name }) }));
}

function strip<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, entry]) => entry !== undefined)) as T;
}

const leaf: fc.Arbitrary<QueryAst> = fc.oneof(
  common(fc.constant({ kind: 'match_all' as const })),
  common(fc.constant({ kind: 'match_none' as const })),
  common(
    fc
      .record({
        field,
        query: value,
        operator,
        analyzer: optional(fc.constantFrom('standard', 'simple')),
        fuzziness: optional(fuzziness),
        prefixLength: nonNegativeInt,
        maxExpansions: fc.integer({ min: 1, max: 1000 }),
        fuzzyTranspositions: fc.boolean(),
        fuzzyRewrite: rewrite,
        minimumShouldMatch: optional(fc.constantFrom('1', '75%', '3<90%')),
        lenient: fc.boolean(),
        zeroTermsQuery: zeroTerms,
        autoGenerateSynonymsPhraseQuery: fc.boolean(),
      })
      .map((q) => strip({ kind: 'match' as const, ...q })),
  ),
  common(fc.record({ field, query: value, analyzer: optional(fc.constant('standard')), slop: nonNegativeInt, zeroTermsQuery: zeroTerms }).map((q) => strip({ kind: 'match_phrase' as const, ...q }))),
  common(
    fc
      .record({ field, query: value, analyzer: optional(fc.constant('simple')), slop: nonNegativeInt, maxExpansions: nonNegativeInt, zeroTermsQuery: zeroTerms })
      .map((q) => strip({ kind: 'match_phrase_prefix' as const, ...q })),
  ),
  common(
    fc
      .record({
        query: value,
        fields,
        type: fc.constantFrom('best_fields' as const, 'most_fields' as const, 'cross_fields' as const, 'phrase' as const, 'phrase_prefix' as const, 'bool_prefix' as const),
        operator,
        analyzer: optional(fc.constant('standard')),
        slop: nonNegativeInt,
        fuzziness: optional(fuzziness),
        prefixLength: nonNegativeInt,
        maxExpansions: fc.integer({ min: 1, max: 1000 }),
        fuzzyTranspositions: fc.boolean(),
        fuzzyRewrite: rewrite,
        minimumShouldMatch: optional(fc.constantFrom('2', '-1')),
        tieBreaker: optional(float32(1)),
        lenient: optional(fc.boolean()),
        zeroTermsQuery: zeroTerms,
        autoGenerateSynonymsPhraseQuery: fc.boolean(),
      })
      .map((q) => {
        const withoutFuzziness = q.type === 'cross_fields' || q.type === 'phrase' || q.type === 'phrase_prefix';
        return strip({ kind: 'multi_match' as const, ...q, fuzziness: withoutFuzziness ? undefined : q.fuzziness, slop: q.type === 'bool_prefix' ? 0 : q.slop });
      }),
  ),
  common(fc.record({ field, value, caseInsensitive: fc.boolean() }).map((q) => ({ kind: 'term' as const, ...q }))),
  common(fc.record({ field, values: fc.array(value, { maxLength: 5 }) }).map((q) => ({ kind: 'terms' as const, ...q }))),
  common(
    fc
      .record({
        field,
        from: optional(value),
        to: optional(value),
        includeLower: fc.boolean(),
        includeUpper: fc.boolean(),
        format: optional(fc.constantFrom('yyyy-MM-dd', 'epoch_millis', 'strict_date_optional_time')),
        timeZone: optional(fc.constantFrom('UTC', '+01:00', 'Europe/Paris')),
        relation: optional(fc.constantFrom('intersects' as const, 'contains' as const, 'within' as const)),
      })
      .map((q) => strip({ kind: 'range' as const, ...q })),
  ),
  common(field.map((name) => ({ kind: 'exists' as const, field: name }))),
  common(fc.record({ field, value: text, rewrite, caseInsensitive: fc.boolean() }).map((q) => strip({ kind: 'prefix' as const, ...q }))),
  common(fc.record({ field, value: text, rewrite, caseInsensitive: fc.boolean() }).map((q) => strip({ kind: 'wildcard' as const, ...q }))),
  common(
    fc
      .record({ field, value: text, flags: fc.integer({ min: 0, max: 0xff }), maxDeterminizedStates: nonNegativeInt, rewrite, caseInsensitive: fc.boolean() })
      .map((q) => strip({ kind: 'regexp' as const, ...q })),
  ),
  common(
    fc
      .record({ field, value, fuzziness, prefixLength: nonNegativeInt, maxExpansions: nonNegativeInt, transpositions: fc.boolean(), rewrite })
      .map((q) => strip({ kind: 'fuzzy' as const, ...q })),
  ),
  common(fc.uniqueArray(text, { maxLength: 5 }).map((values) => ({ kind: 'ids' as const, values }))),
  common(
    fc
      .record({
        query: text,
        defaultField: optional(field),
        fields: optional(fields),
        defaultOperator: operator,
        analyzer: optional(fc.constant('standard')),
        quoteAnalyzer: optional(fc.constant('simple')),
        quoteFieldSuffix: optional(fc.constant('.exact')),
        allowLeadingWildcard: optional(fc.boolean()),
        analyzeWildcard: optional(fc.boolean()),
        enablePositionIncrements: fc.boolean(),
        escape: fc.boolean(),
        fuzziness,
        fuzzyPrefixLength: nonNegativeInt,
        fuzzyMaxExpansions: nonNegativeInt,
        fuzzyRewrite: rewrite,
        fuzzyTranspositions: fc.boolean(),
        phraseSlop: nonNegativeInt,
        type: fc.constantFrom('best_fields' as const, 'most_fields' as const, 'phrase' as const),
        tieBreaker: optional(float32(1)),
        rewrite,
        minimumShouldMatch: optional(fc.constant('50%')),
        lenient: optional(fc.boolean()),
        timeZone: optional(fc.constantFrom('UTC', 'Asia/Tokyo')),
        maxDeterminizedStates: nonNegativeInt,
        autoGenerateSynonymsPhraseQuery: fc.boolean(),
      })
      .map((q) => strip({ kind: 'query_string' as const, ...q })),
  ),
  common(
    fc
      .record({
        query: text,
        fields,
        defaultOperator: operator,
        analyzer: optional(fc.constant('standard')),
        flags: fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 1023 })),
        lenient: optional(fc.boolean()),
        analyzeWildcard: fc.boolean(),
        quoteFieldSuffix: optional(fc.constant('.exact')),
        minimumShouldMatch: optional(fc.constant('1')),
        fuzzyPrefixLength: nonNegativeInt,
        fuzzyMaxExpansions: nonNegativeInt,
        fuzzyTranspositions: fc.boolean(),
        autoGenerateSynonymsPhraseQuery: fc.boolean(),
      })
      .map((q) => strip({ kind: 'simple_query_string' as const, ...q })),
  ),
);

const { query } = fc.letrec<{ query: QueryAst; compound: QueryAst }>((tie) => ({
  query: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('compound')),
  compound: fc.oneof(
    common(
      fc
        .record({
          must: fc.array(tie('query'), { maxLength: 2 }),
          filter: fc.array(tie('query'), { maxLength: 2 }),
          should: fc.array(tie('query'), { maxLength: 2 }),
          mustNot: fc.array(tie('query'), { maxLength: 2 }),
          minimumShouldMatch: optional(fc.constantFrom('1', '50%')),
          adjustPureNegative: fc.boolean(),
        })
        .map((q) => strip({ kind: 'bool' as const, ...q })),
    ),
    common(tie('query').map((filter) => ({ kind: 'constant_score' as const, filter }))),
    common(fc.record({ queries: fc.array(tie('query'), { minLength: 1, maxLength: 3 }), tieBreaker: float32(1) }).map((q) => ({ kind: 'dis_max' as const, ...q }))),
    common(fc.record({ positive: tie('query'), negative: tie('query'), negativeBoost: float32(10) }).map((q) => ({ kind: 'boosting' as const, ...q }))),
    common(
      fc
        .record({
          query: optional(tie('query')),
          functions: fc.array(
            fc.oneof(
              fc.record({ filter: optional(tie('query')), weight: float32(10) }).map((entry) => strip({ ...entry, function: { type: 'weight' as const } })),
              fc
                .record({
                  filter: optional(tie('query')),
                  weight: optional(float32(10)),
                  function: fc.oneof(
                    fc
                      .record({
                        field,
                        factor: float32(10),
                        modifier: fc.constantFrom('none' as const, 'log1p' as const, 'sqrt' as const),
                        missing: optional(fc.double({ min: 0, max: 100, noNaN: true })),
                      })
                      .map((fn) => strip({ type: 'field_value_factor' as const, ...fn })),
                    fc
                      .record({ field, shape: fc.constantFrom('gauss' as const, 'exp' as const, 'linear' as const), multiValueMode: fc.constantFrom('min' as const, 'max' as const, 'avg' as const) })
                      .map((fn) => ({ type: 'decay' as const, ...fn, params: { origin: 'now', scale: '10d' } })),
                  ),
                })
                .map((entry) => strip(entry)),
            ),
            { maxLength: 3 },
          ),
          scoreMode: fc.constantFrom('multiply' as const, 'sum' as const, 'first' as const),
          boostMode: optional(fc.constantFrom('replace' as const, 'sum' as const)),
          maxBoost: float32(),
          minScore: optional(float32(10)),
        })
        .map((q) => strip({ kind: 'function_score' as const, ...q })),
    ),
  ),
}));

test('parse(serialize(ast)) == ast for every query kind', () => {
  fc.assert(
    fc.property(query, (ast) => {
      const json = toJsonText(serializeQuery(ast));
      assert.deepEqual(parseQuery(json), ast, json);
    }),
    { numRuns: 400 },
  );
});

test('serialization is stable: parse(serialize(parse(serialize(ast)))) == parse(serialize(ast))', () => {
  fc.assert(
    fc.property(query, (ast) => {
      const once = parseQuery(toJsonText(serializeQuery(ast)));
      assert.equal(toJsonText(serializeQuery(once)), toJsonText(serializeQuery(ast)));
    }),
    { numRuns: 100 },
  );
});
