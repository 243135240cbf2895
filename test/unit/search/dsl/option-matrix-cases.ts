/**
 * The inputs of the option matrix: every option of every query kind whose parser is a hand-written ES loop,
 * plus one unknown option, met with each kind of JSON token, in the long form and (for single-field kinds)
 * the short form. The recorded outcome of each (an AST or an error) is in option-matrix.golden.ts, written by
 * make-option-matrix.mjs from the parsers as they were before they moved onto declared option tables, so any
 * change of behaviour, down to an error's location, shows up as a failing case.
 */
import { EsError } from '../../../../src/common/errors.js';
import { parseQuery, type QueryAst } from '../../../../src/search/dsl/index.js';

/** One token of each kind the loops tell apart. */
const TOKENS = ['"x"', '"2"', '2', '-1', 'true', 'null', '{}', '["x"]', '[{"match_all":{}}]'] as const;

const MATCH_TEXT = [
  'analyzer', 'boost', 'fuzziness', 'prefix_length', 'max_expansions', 'operator', 'minimum_should_match', 'fuzzy_rewrite',
  'fuzzy_transpositions', 'lenient', 'zero_terms_query', '_name', 'auto_generate_synonyms_phrase_query',
];

/** Options of the single-field kinds, read inside `{"<kind>": {"f": {...}}}`, with the value that makes a valid query. */
const SINGLE_FIELD: Record<string, { options: string[]; valid: string }> = {
  match: { options: ['query', ...MATCH_TEXT, 'slop', 'cutoff_frequency'], valid: '"query":"x"' },
  match_phrase: { options: ['query', 'analyzer', 'boost', 'slop', 'max_expansions', '_name', 'zero_terms_query'], valid: '"query":"x"' },
  match_phrase_prefix: { options: ['query', 'analyzer', 'boost', 'slop', 'max_expansions', '_name', 'zero_terms_query'], valid: '"query":"x"' },
  term: { options: ['term', 'value', '_name', 'boost', 'case_insensitive'], valid: '"value":"x"' },
  prefix: { options: ['value', '_name', 'boost', 'rewrite', 'case_insensitive'], valid: '"value":"x"' },
  wildcard: { options: ['wildcard', 'value', '_name', 'boost', 'rewrite', 'case_insensitive'], valid: '"value":"x"' },
  regexp: { options: ['value', '_name', 'boost', 'rewrite', 'case_insensitive', 'flags', 'flags_value', 'max_determinized_states'], valid: '"value":"x"' },
  fuzzy: { options: ['term', 'value', 'boost', 'fuzziness', 'prefix_length', 'max_expansions', 'transpositions', 'rewrite', '_name'], valid: '"value":"x"' },
  range: {
    options: ['from', 'to', 'include_lower', 'include_upper', 'boost', 'gt', 'gte', 'lt', 'lte', 'time_zone', 'format', 'relation', '_name'],
    valid: '"gte":1',
  },
};

/** Kinds whose options sit directly in `{"<kind>": {...}}`, with what makes a valid query. */
const FLAT: Record<string, { options: string[]; valid: string }> = {
  exists: { options: ['field', '_name', 'boost'], valid: '"field":"f"' },
  terms: { options: ['boost', '_name', 'f'], valid: '"f":["x"]' },
  multi_match: { options: ['query', 'fields', 'type', 'slop', 'tie_breaker', ...MATCH_TEXT], valid: '"query":"x"' },
  query_string: {
    options: [
      'query', 'fields', 'default_field', 'default_operator', 'analyzer', 'quote_analyzer', 'allow_leading_wildcard', 'max_determinized_states',
      'enable_position_increments', 'escape', 'fuzzy_prefix_length', 'fuzzy_max_expansions', 'fuzzy_rewrite', 'phrase_slop', 'fuzziness', 'boost',
      'type', 'tie_breaker', 'analyze_wildcard', 'rewrite', 'minimum_should_match', 'quote_field_suffix', 'lenient', 'time_zone', '_name',
      'auto_generate_synonyms_phrase_query', 'fuzzy_transpositions',
    ],
    valid: '"query":"x"',
  },
  simple_query_string: {
    options: [
      'query', 'fields', 'boost', 'analyzer', 'default_operator', 'flags', 'lenient', 'analyze_wildcard', '_name', 'minimum_should_match',
      'quote_field_suffix', 'auto_generate_synonyms_phrase_query', 'fuzzy_prefix_length', 'fuzzy_max_expansions', 'fuzzy_transpositions',
    ],
    valid: '"query":"x"',
  },
  constant_score: { options: ['filter', '_name', 'boost'], valid: '"filter":{"match_all":{}}' },
  dis_max: { options: ['queries', 'boost', 'tie_breaker', '_name'], valid: '"queries":[{"match_all":{}}]' },
  boosting: {
    options: ['positive', 'negative', 'negative_boost', '_name', 'boost'],
    valid: '"positive":{"match_all":{}},"negative":{"match_all":{}},"negative_boost":0.5',
  },
};

const UNKNOWN = 'foo';

/** The option after what makes the query valid, or alone where it is one of those keys (JSON refuses repeats). */
function withValid(valid: string, option: string, token: string): string {
  return valid.includes(`"${option}":`) ? `"${option}":${token}` : `${valid},"${option}":${token}`;
}

export interface MatrixCase {
  readonly input: string;
  /** The kind's plain valid query: an AST outcome is recorded as its differences from this one's. */
  readonly base: string;
}

export function matrixCases(): MatrixCase[] {
  const cases: MatrixCase[] = [];
  for (const [kind, { options, valid }] of Object.entries(SINGLE_FIELD)) {
    const push = (input: string): void => void cases.push({ input, base: `{"${kind}":{"f":{${valid}}}}` });
    for (const option of [...options, UNKNOWN]) {
      for (const token of TOKENS) push(`{"${kind}":{"f":{${withValid(valid, option, token)}}}}`);
    }
    for (const token of TOKENS) {
      push(`{"${kind}":{"f":${token}}}`);
      push(`{"${kind}":{"f":${token},"g":"y"}}`);
      push(`{"${kind}":{"f":{${valid}},"g":${token}}}`);
    }
    push(`{"${kind}":{}}`);
    push(`{"${kind}":{"f":{}}}`);
    push(`{"${kind}":{"":{${valid}}}}`);
  }
  for (const [kind, { options, valid }] of Object.entries(FLAT)) {
    const push = (input: string): void => void cases.push({ input, base: `{"${kind}":{${valid}}}` });
    for (const option of [...options, UNKNOWN]) {
      for (const token of TOKENS) push(`{"${kind}":{${withValid(valid, option, token)}}}`);
    }
    push(`{"${kind}":{}}`);
    push(`{"${kind}":{${valid}}}`);
  }
  return cases;
}

/**
 * A parse outcome as one line: `ok` with the AST's differences from the base query's AST (`key=json`, `-key`
 * when the base has a key this one lacks), or the error with its location and causes.
 */
export function outcome({ input, base }: MatrixCase): string {
  let ast: QueryAst;
  try {
    ast = parseQuery(input);
  } catch (err) {
    if (!(err instanceof EsError)) return `thrown ${String(err)}`;
    return describeError(err);
  }
  const baseAst = parseQuery(base) as unknown as Record<string, unknown>;
  const actual = ast as unknown as Record<string, unknown>;
  const differences: string[] = [];
  for (const key of Object.keys(actual)) {
    if (json(actual[key]) !== json(baseAst[key])) differences.push(`${key}=${json(actual[key])}`);
  }
  for (const key of Object.keys(baseAst)) if (!(key in actual)) differences.push(`-${key}`);
  return ['ok', ...differences].join(' ');
}

function json(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));
}

function describeError(err: EsError): string {
  const metadata = err.metadata as { line?: number; col?: number } | undefined;
  const at = metadata?.line !== undefined ? ` @${metadata.line}:${metadata.col}` : '';
  const cause = err.causedBy !== undefined ? ` <- ${describeError(err.causedBy)}` : '';
  return `${err.type}: ${err.reason}${at}${cause}`;
}
