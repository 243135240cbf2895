/**
 * Queries that wrap other queries: bool (ObjectParser-based in ES, so its failures nest as "[bool] failed
 * to parse field [must]"), constant_score, dis_max, boosting; and the two constant ones, match_all and
 * match_none.
 */
import { EsError } from '../../../common/errors.js';
import type { BoolQuery, BoostingQuery, ConstantScoreQuery, DisMaxQuery, MatchAllQuery, MatchNoneQuery, QueryAst } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { ObjectParser, parseArray } from '../xcontent/object-parser.js';
import { parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost } from './common-params.js';
import type { QueryParseContext } from './parse-context.js';
import { declareBoostAndName, QueryOptions, VALUES_OR_NULL } from './query-options.js';

interface BoolState {
  context: QueryParseContext;
  must: QueryAst[];
  filter: QueryAst[];
  should: QueryAst[];
  mustNot: QueryAst[];
  minimumShouldMatch?: string;
  adjustPureNegative: boolean;
  boost: number;
  name?: string;
}

/** declareObjectArrayOrNull: a query, an array of queries, or null (ignored). */
function clauses(section: 'must' | 'filter' | 'should' | 'mustNot') {
  return (_parser: unknown, state: BoolState): void => {
    const parser = state.context.parser;
    if (parser.currentToken() === 'VALUE_NULL') return;
    state[section].push(...parseArray(parser, () => state.context.parseInner()));
  };
}

const BOOL_PARSER = new ObjectParser<BoolState>('bool')
  .declare('must', 'OBJECT_ARRAY_OR_NULL', clauses('must'))
  .declare('should', 'OBJECT_ARRAY_OR_NULL', clauses('should'))
  .declare('must_not', 'OBJECT_ARRAY_OR_NULL', clauses('mustNot'))
  .declare('filter', 'OBJECT_ARRAY_OR_NULL', clauses('filter'))
  .declare('adjust_pure_negative', 'BOOLEAN', (parser, state) => {
    state.adjustPureNegative = parser.booleanValue();
  })
  .declare('minimum_should_match', 'VALUE', (parser, state) => {
    const value = parser.textOrNull();
    if (value === null) delete state.minimumShouldMatch;
    else state.minimumShouldMatch = value;
  })
  .declare('_name', 'STRING', (parser, state) => {
    state.name = parser.text();
  })
  .declare('boost', 'FLOAT', (parser, state) => {
    state.boost = checkBoost(parser.floatValue());
  });

export function parseBool(context: QueryParseContext): BoolQuery {
  const state = BOOL_PARSER.parse(context.parser, {
    context,
    must: [],
    filter: [],
    should: [],
    mustNot: [],
    adjustPureNegative: true,
    boost: DEFAULTS.boost,
  });
  return {
    kind: 'bool',
    must: state.must,
    filter: state.filter,
    should: state.should,
    mustNot: state.mustNot,
    ...(state.minimumShouldMatch !== undefined && { minimumShouldMatch: state.minimumShouldMatch }),
    adjustPureNegative: state.adjustPureNegative,
    boost: state.boost,
    ...(state.name !== undefined && { name: state.name }),
  };
}

interface ConstantScoreState {
  filter: QueryAst | undefined;
  boost: number;
  name?: string;
}

const CONSTANT_SCORE_OPTIONS = declareBoostAndName(
  new QueryOptions<ConstantScoreState>('constant_score', { null: 'unexpected_token', array: 'unexpected_token' }),
).declare('filter', (_parser, state, context) => (state.filter = context.parseInner()), ['object']);

export function parseConstantScore(context: QueryParseContext): ConstantScoreQuery {
  const state: ConstantScoreState = { filter: undefined, boost: DEFAULTS.boost };
  CONSTANT_SCORE_OPTIONS.parseFields(context, state);
  const { filter, boost, name } = state;
  if (filter === undefined) throw parsingError(context.parser.tokenLocation(), "[constant_score] requires a 'filter' element");
  return { kind: 'constant_score', filter, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

interface DisMaxState {
  queries: QueryAst[] | undefined;
  tieBreaker: number;
  boost: number;
  name?: string;
}

const DIS_MAX_OPTIONS = declareBoostAndName(new QueryOptions<DisMaxState>('dis_max'), VALUES_OR_NULL)
  .declare('tie_breaker', (parser, state) => (state.tieBreaker = parser.floatValue()), VALUES_OR_NULL)
  .declare(
    'queries',
    (parser, state, context) => {
      const queries = (state.queries ??= []);
      if (parser.currentToken() === 'START_OBJECT') {
        queries.push(context.parseInner());
        return;
      }
      // As ES: each round parses a query from where the previous one ended; an empty array is malformed.
      for (let current = parser.currentToken(); current !== 'END_ARRAY'; current = parser.nextToken()) {
        queries.push(context.parseInner());
      }
    },
    ['object', 'array'],
  );

export function parseDisMax(context: QueryParseContext): DisMaxQuery {
  const state: DisMaxState = { queries: undefined, tieBreaker: DEFAULTS.tieBreaker, boost: DEFAULTS.boost };
  DIS_MAX_OPTIONS.parseFields(context, state);
  const { queries, tieBreaker, boost, name } = state;
  if (queries === undefined) throw parsingError(context.parser.tokenLocation(), "[dis_max] requires 'queries' field with at least one clause");
  return { kind: 'dis_max', queries, tieBreaker, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

interface BoostingState {
  positive: QueryAst | undefined;
  negative: QueryAst | undefined;
  negativeBoost: number;
  boost: number;
  name?: string;
}

// BoostingQueryBuilder has no branch for arrays and nulls: it reads on past them.
const BOOSTING_OPTIONS = declareBoostAndName(new QueryOptions<BoostingState>('boosting', { null: 'skip', array: 'skip' }))
  .declare('positive', (_parser, state, context) => (state.positive = context.parseInner()), ['object'])
  .declare('negative', (_parser, state, context) => (state.negative = context.parseInner()), ['object'])
  .declare('negative_boost', (parser, state) => (state.negativeBoost = parser.floatValue()));

export function parseBoosting(context: QueryParseContext): BoostingQuery {
  const parser = context.parser;
  const state: BoostingState = { positive: undefined, negative: undefined, negativeBoost: -1, boost: DEFAULTS.boost };
  BOOSTING_OPTIONS.parseFields(context, state);
  const { positive, negative, negativeBoost, boost, name } = state;
  if (positive === undefined) throw parsingError(parser.tokenLocation(), "[boosting] query requires 'positive' query to be set'");
  if (negative === undefined) throw parsingError(parser.tokenLocation(), "[boosting] query requires 'negative' query to be set'");
  if (negativeBoost < 0) {
    throw parsingError(parser.tokenLocation(), "[boosting] query requires 'negative_boost' to be set to be a positive value'");
  }
  return { kind: 'boosting', positive, negative, negativeBoost, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

interface StandardState {
  boost: number;
  name?: string;
}

function standardParser(queryName: string): ObjectParser<StandardState> {
  return new ObjectParser<StandardState>(queryName)
    .declare('boost', 'FLOAT', (parser, state) => {
      state.boost = checkBoost(parser.floatValue());
    })
    .declare('_name', 'STRING', (parser, state) => {
      state.name = parser.text();
    });
}

const MATCH_ALL_PARSER = standardParser('match_all');
const MATCH_NONE_PARSER = standardParser('match_none');

/** MatchAll/MatchNoneQueryBuilder.fromXContent: their ObjectParser's failures come back as a ParsingException. */
function parseStandard(context: QueryParseContext, parser: ObjectParser<StandardState>): StandardState {
  try {
    return parser.parse(context.parser, { boost: DEFAULTS.boost });
  } catch (err) {
    if (err instanceof EsError && (err.type === 'x_content_parse_exception' || err.type === 'illegal_argument_exception')) {
      throw parsingError(context.parser.tokenLocation(), err.reason, err);
    }
    throw err;
  }
}

export function parseMatchAll(context: QueryParseContext): MatchAllQuery {
  const state = parseStandard(context, MATCH_ALL_PARSER);
  return { kind: 'match_all', boost: state.boost, ...(state.name !== undefined && { name: state.name }) };
}

export function parseMatchNone(context: QueryParseContext): MatchNoneQuery {
  const state = parseStandard(context, MATCH_NONE_PARSER);
  return { kind: 'match_none', boost: state.boost, ...(state.name !== undefined && { name: state.name }) };
}
