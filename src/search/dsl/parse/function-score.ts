/**
 * function_score (FunctionScoreQueryBuilder.fromXContent) with the score functions Gannet knows: weight,
 * field_value_factor and the gauss/linear/exp decays. Either one function inline or a `functions` array of
 * {filter, function, weight} entries, never both.
 */
import type { BoostMode, FilterFunction, FieldValueModifier, FunctionScoreMode, FunctionScoreQuery, MultiValueMode, QueryAst, ScoreFunction } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { isValueToken, type XContentParser } from '../xcontent/xcontent-parser.js';
import type { JsonValue } from '../xcontent/xcontent-parser.js';
import { illegalArgument, namedObjectNotFound, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost, noEnumConstant } from './common-params.js';
import type { QueryParseContext } from './parse-context.js';

const MISPLACED_FUNCTION_MESSAGE_PREFIX = 'you can either define [functions] array or a single function, not both. ';

const SCORE_MODES: readonly FunctionScoreMode[] = ['first', 'avg', 'max', 'sum', 'min', 'multiply'];
const BOOST_MODES: readonly BoostMode[] = ['multiply', 'replace', 'sum', 'avg', 'max', 'min'];
const MODIFIERS: readonly FieldValueModifier[] = ['none', 'log', 'log1p', 'log2p', 'ln', 'ln1p', 'ln2p', 'square', 'sqrt', 'reciprocal'];
/** Registered by ES but not run by Gannet. */
const UNSUPPORTED_FUNCTIONS = ['script_score', 'random_score'];

function enumValue<T extends string>(values: readonly T[], text: string, enumClass: string): T {
  const lower = text.toLowerCase() as T;
  if (values.includes(lower)) return lower;
  throw noEnumConstant(enumClass, text.toUpperCase());
}

/** ScoreFunctionBuilder.setWeight: no negative weights. */
function checkWeight(weight: number): number {
  if (weight < 0) throw illegalArgument('[weight] cannot be negative for a filtering function');
  return weight;
}

export function parseFunctionScore(context: QueryParseContext): FunctionScoreQuery {
  const parser = context.parser;
  let query: QueryAst | undefined;
  let boost: number = DEFAULTS.boost;
  let name: string | undefined;
  let scoreMode: FunctionScoreMode = 'multiply';
  let maxBoost: number = DEFAULTS.maxBoost;
  let minScore: number | undefined;
  let boostMode: BoostMode | undefined;
  let functionArrayFound = false;
  let singleFunctionFound = false;
  let singleFunctionName: string | undefined;
  const functions: FilterFunction[] = [];
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      if (currentFieldName === 'query') {
        if (query !== undefined) throw parsingError(parser.tokenLocation(), 'failed to parse [function_score] query. [query] is already defined.');
        query = context.parseInner();
      } else {
        if (singleFunctionFound) alreadyFoundFunction(parser, singleFunctionName, currentFieldName);
        if (functionArrayFound) misplaced(parser, `already found [functions] array, now encountering [${currentFieldName}].`);
        singleFunctionFound = true;
        singleFunctionName = currentFieldName;
        functions.push({ function: parseScoreFunction(parser, currentFieldName!) });
      }
    } else if (token === 'START_ARRAY') {
      if (currentFieldName !== 'functions') {
        throw parsingError(parser.tokenLocation(), `failed to parse [function_score] query. array [${currentFieldName}] is not supported`);
      }
      if (singleFunctionFound) misplaced(parser, `already found [${singleFunctionName}], now encountering [functions].`);
      functionArrayFound = true;
      currentFieldName = parseFunctionsArray(context, functions);
    } else if (isValueToken(token)) {
      if (currentFieldName === 'score_mode') {
        scoreMode = enumValue(SCORE_MODES, parser.text(), 'org.elasticsearch.common.lucene.search.function.FunctionScoreQuery.ScoreMode');
      } else if (currentFieldName === 'boost_mode') {
        boostMode = enumValue(BOOST_MODES, parser.text(), 'org.elasticsearch.common.lucene.search.function.CombineFunction');
      } else if (currentFieldName === 'max_boost') {
        maxBoost = parser.floatValue();
      } else if (currentFieldName === 'boost') {
        boost = parser.floatValue();
      } else if (currentFieldName === '_name') {
        name = parser.text();
      } else if (currentFieldName === 'min_score') {
        minScore = parser.floatValue();
      } else {
        if (singleFunctionFound) alreadyFoundFunction(parser, singleFunctionName, currentFieldName);
        if (functionArrayFound) misplaced(parser, `already found [functions] array, now encountering [${currentFieldName}].`);
        if (currentFieldName !== 'weight') {
          throw parsingError(parser.tokenLocation(), `failed to parse [function_score] query. field [${currentFieldName}] is not supported`);
        }
        functions.push({ function: { type: 'weight' }, weight: checkWeight(parser.floatValue()) });
        singleFunctionFound = true;
        singleFunctionName = currentFieldName;
      }
    }
  }
  return {
    kind: 'function_score',
    ...(query !== undefined && { query }),
    functions,
    scoreMode,
    ...(boostMode !== undefined && { boostMode }),
    maxBoost,
    ...(minScore !== undefined && { minScore }),
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}

function alreadyFoundFunction(parser: XContentParser, found: string | undefined, encountered: string | undefined): never {
  throw parsingError(
    parser.tokenLocation(),
    `failed to parse [function_score] query. already found function [${found}], now encountering [${encountered}]. use [functions] array if you want to define several functions.`,
  );
}

function misplaced(parser: XContentParser, detail: string): never {
  throw parsingError(parser.tokenLocation(), `failed to parse [function_score] query. [${MISPLACED_FUNCTION_MESSAGE_PREFIX}${detail}]`);
}

/** parseFiltersAndFunctions: returns the last field name seen, as ES does. */
function parseFunctionsArray(context: QueryParseContext, functions: FilterFunction[]): string | undefined {
  const parser = context.parser;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_ARRAY'; token = parser.nextToken()) {
    let filter: QueryAst | undefined;
    let scoreFunction: ScoreFunction | undefined;
    let scoreFunctionName: string | undefined;
    let weight: number | undefined;
    if (token !== 'START_OBJECT') {
      throw parsingError(
        parser.tokenLocation(),
        `failed to parse [START_OBJECT]. malformed query, expected a [${token}] while parsing functions but got a [function_score] instead`,
      );
    }
    for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
      if (inner === 'FIELD_NAME') {
        currentFieldName = parser.currentName();
      } else if (inner === 'START_OBJECT') {
        if (currentFieldName === 'filter') {
          filter = context.parseInner();
        } else {
          if (scoreFunction !== undefined) {
            throw parsingError(
              parser.tokenLocation(),
              `failed to parse function_score functions. already found [${scoreFunctionName}], now encountering [${currentFieldName}].`,
            );
          }
          scoreFunctionName = currentFieldName;
          scoreFunction = parseScoreFunction(parser, currentFieldName!);
        }
      } else if (isValueToken(inner)) {
        if (currentFieldName === 'weight') weight = parser.floatValue();
        else throw parsingError(parser.tokenLocation(), `failed to parse [function_score] query. field [${currentFieldName}] is not supported`);
      }
    }
    if (weight !== undefined) checkWeight(weight);
    if (scoreFunction === undefined && weight !== undefined) scoreFunction = { type: 'weight' };
    if (scoreFunction === undefined) {
      throw parsingError(parser.tokenLocation(), 'failed to parse [function_score] query. an entry in functions list is missing a function.');
    }
    functions.push({ ...(filter !== undefined && { filter }), function: scoreFunction, ...(weight !== undefined && { weight }) });
  }
  return currentFieldName;
}

/** parser.namedObject(ScoreFunctionBuilder.class, name): the parser stands on the function's START_OBJECT. */
function parseScoreFunction(parser: XContentParser, name: string): ScoreFunction {
  switch (name) {
    case 'field_value_factor':
      return parseFieldValueFactor(parser);
    case 'gauss':
    case 'linear':
    case 'exp':
      return parseDecay(parser, name);
    default:
      if (UNSUPPORTED_FUNCTIONS.includes(name)) {
        throw parsingError(parser.tokenLocation(), `[function_score] function [${name}] is not supported by this node`);
      }
      throw namedObjectNotFound(parser.tokenLocation(), `unknown field [${name}]`);
  }
}

/** FieldValueFactorFunctionBuilder.fromXContent. */
function parseFieldValueFactor(parser: XContentParser): ScoreFunction {
  let field: string | undefined;
  let factor = 1;
  let modifier: FieldValueModifier = 'none';
  let missing: number | undefined;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (isValueToken(token)) {
      if (currentFieldName === 'field') field = parser.text();
      else if (currentFieldName === 'factor') factor = parser.floatValue();
      else if (currentFieldName === 'modifier') {
        modifier = enumValue(MODIFIERS, parser.text(), 'org.elasticsearch.common.lucene.search.function.FieldValueFactorFunction.Modifier');
      } else if (currentFieldName === 'missing') missing = parser.doubleValue();
      else throw parsingError(parser.tokenLocation(), `field_value_factor query does not support [${currentFieldName}]`);
    } else if (currentFieldName === 'factor' && (token === 'START_ARRAY' || token === 'START_OBJECT')) {
      throw parsingError(parser.tokenLocation(), "[field_value_factor] field 'factor' does not support lists or objects");
    }
  }
  if (field === undefined) throw parsingError(parser.tokenLocation(), "[field_value_factor] required field 'field' missing");
  return { type: 'field_value_factor', field, factor, modifier, ...(missing !== undefined && { missing }) };
}

const MULTI_VALUE_MODES: readonly MultiValueMode[] = ['sum', 'avg', 'median', 'min', 'max'];

/** DecayFunctionParser.fromXContent: `{"<field>": {origin, scale, offset, decay}, "multi_value_mode": ...}`. */
function parseDecay(parser: XContentParser, shape: 'gauss' | 'linear' | 'exp'): ScoreFunction {
  let multiValueMode: MultiValueMode = 'min';
  let field: string | undefined;
  let params: { [key: string]: JsonValue } | undefined;
  let token = parser.nextToken();
  while (token === 'FIELD_NAME') {
    const currentFieldName = parser.currentName()!;
    token = parser.nextToken();
    if (token === 'START_OBJECT') {
      field = currentFieldName;
      params = parser.readValue() as { [key: string]: JsonValue };
    } else if (currentFieldName === 'multi_value_mode') {
      const text = parser.text();
      const mode = text.toLowerCase() as MultiValueMode;
      if (!MULTI_VALUE_MODES.includes(mode)) throw illegalArgument(`Illegal sort mode: ${text}`);
      multiValueMode = mode;
    } else {
      throw parsingError(parser.tokenLocation(), 'malformed score function score parameters.');
    }
    token = parser.nextToken();
  }
  if (field === undefined || params === undefined) throw parsingError(parser.tokenLocation(), 'malformed score function score parameters.');
  return { type: 'decay', shape, field, params, multiValueMode };
}
