/** The query parsers by ES query name (SearchModule's registerQuery list, for the kinds Gannet runs). */
import type { QueryKind } from '../ast/query-ast.js';
import { parseBool, parseBoosting, parseConstantScore, parseDisMax, parseMatchAll, parseMatchNone } from './compound-queries.js';
import { parseFunctionScore } from './function-score.js';
import { parseMatch, parseMatchPhrase, parseMatchPhrasePrefix } from './match-queries.js';
import { parseMultiMatch } from './multi-match.js';
import type { QueryParser } from './parse-context.js';
import { parseQueryString, parseSimpleQueryString } from './query-string.js';
import { parseExists, parseIds, parseRange } from './range-exists-ids.js';
import { parseFuzzy, parsePrefix, parseRegexp, parseTerm, parseTerms, parseWildcard } from './term-queries.js';

export const QUERY_PARSERS: Readonly<Record<QueryKind, QueryParser>> & Readonly<Record<string, QueryParser | undefined>> = {
  match_all: parseMatchAll,
  match_none: parseMatchNone,
  match: parseMatch,
  match_phrase: parseMatchPhrase,
  match_phrase_prefix: parseMatchPhrasePrefix,
  multi_match: parseMultiMatch,
  term: parseTerm,
  terms: parseTerms,
  range: parseRange,
  exists: parseExists,
  prefix: parsePrefix,
  wildcard: parseWildcard,
  regexp: parseRegexp,
  fuzzy: parseFuzzy,
  ids: parseIds,
  bool: parseBool,
  constant_score: parseConstantScore,
  dis_max: parseDisMax,
  boosting: parseBoosting,
  function_score: parseFunctionScore,
  query_string: parseQueryString,
  simple_query_string: parseSimpleQueryString,
};
