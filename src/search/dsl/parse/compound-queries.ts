/**
 * Queries that wrap other queries: bool (ObjectParser-based in ES, so its failures nest as "[bool] failed
 * to parse field [must]"), constant_score, dis_max, boosting; and the two constant ones, match_all and
 * match_none.
 */
import { EsError } from '../../../common/errors.js';
import type { BoolQuery, BoostingQuery, ConstantScoreQuery, DisMaxQuery, MatchAllQuery, MatchNoneQuery, QueryAst } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { ObjectParser, parseArray } from '../xcontent/object-parser.js';
import { isValueToken } from '../xcontent/xcontent-parser.js';
import { parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost } from './common-params.js';
import type { QueryParseContext } from './parse-context.js';

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

export function parseConstantScore(context: QueryParseContext): ConstantScoreQuery {
  const parser = context.parser;
  let filter: QueryAst | undefined;
  let name: string | undefined;
  let boost: number = DEFAULTS.boost;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      if (currentFieldName !== 'filter') throw parsingError(parser.tokenLocation(), `[constant_score] query does not support [${currentFieldName}]`);
      filter = context.parseInner();
    } else if (isValueToken(token)) {
      if (currentFieldName === '_name') name = parser.text();
      else if (currentFieldName === 'boost') boost = parser.floatValue();
      else throw parsingError(parser.tokenLocation(), `[constant_score] query does not support [${currentFieldName}]`);
    } else {
      throw parsingError(parser.tokenLocation(), `unexpected token [${token}]`);
    }
  }
  if (filter === undefined) throw parsingError(parser.tokenLocation(), "[constant_score] requires a 'filter' element");
  return { kind: 'constant_score', filter, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

export function parseDisMax(context: QueryParseContext): DisMaxQuery {
  const parser = context.parser;
  let boost: number = DEFAULTS.boost;
  let tieBreaker: number = DEFAULTS.tieBreaker;
  const queries: QueryAst[] = [];
  let queriesFound = false;
  let name: string | undefined;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      if (currentFieldName !== 'queries') throw parsingError(parser.tokenLocation(), `[dis_max] query does not support [${currentFieldName}]`);
      queriesFound = true;
      queries.push(context.parseInner());
    } else if (token === 'START_ARRAY') {
      if (currentFieldName !== 'queries') throw parsingError(parser.tokenLocation(), `[dis_max] query does not support [${currentFieldName}]`);
      queriesFound = true;
      // As ES: each round parses a query from where the previous one ended; an empty array is malformed.
      for (let current: string | undefined = token; current !== 'END_ARRAY'; current = parser.nextToken()) {
        queries.push(context.parseInner());
      }
    } else if (currentFieldName === 'boost') {
      boost = parser.floatValue();
    } else if (currentFieldName === 'tie_breaker') {
      tieBreaker = parser.floatValue();
    } else if (currentFieldName === '_name') {
      name = parser.text();
    } else {
      throw parsingError(parser.tokenLocation(), `[dis_max] query does not support [${currentFieldName}]`);
    }
  }
  if (!queriesFound) throw parsingError(parser.tokenLocation(), "[dis_max] requires 'queries' field with at least one clause");
  return { kind: 'dis_max', queries, tieBreaker, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

export function parseBoosting(context: QueryParseContext): BoostingQuery {
  const parser = context.parser;
  let positive: QueryAst | undefined;
  let negative: QueryAst | undefined;
  let boost: number = DEFAULTS.boost;
  let negativeBoost = -1;
  let name: string | undefined;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      if (currentFieldName === 'positive') positive = context.parseInner();
      else if (currentFieldName === 'negative') negative = context.parseInner();
      else throw parsingError(parser.tokenLocation(), `[boosting] query does not support [${currentFieldName}]`);
    } else if (isValueToken(token)) {
      if (currentFieldName === 'negative_boost') negativeBoost = parser.floatValue();
      else if (currentFieldName === '_name') name = parser.text();
      else if (currentFieldName === 'boost') boost = parser.floatValue();
      else throw parsingError(parser.tokenLocation(), `[boosting] query does not support [${currentFieldName}]`);
    }
  }
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
