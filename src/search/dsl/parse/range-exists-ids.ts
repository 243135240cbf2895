/** range, exists and ids (RangeQueryBuilder, ExistsQueryBuilder, IdsQueryBuilder.fromXContent). */
import { EsError } from '../../../common/errors.js';
import { DateFormatError } from '../../../mapping/date/date-errors.js';
import { dateFormatter } from '../../../mapping/date/date-formatter.js';
import { parseZoneId } from '../../../mapping/date/zones.js';
import type { ExistsQuery, IdsQuery, QueryValue, RangeQuery, RangeRelation } from '../ast/query-ast.js';
import { DEFAULTS } from '../ast/query-ast.js';
import { ObjectParser, parseArray } from '../xcontent/object-parser.js';
import { isValueToken } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { checkBoost } from './common-params.js';
import { checkSingleField, unknownToken } from './match-queries.js';
import type { QueryParseContext } from './parse-context.js';

export function parseRange(context: QueryParseContext): RangeQuery {
  const parser = context.parser;
  let fieldName: string | undefined;
  let from: QueryValue | null = null;
  let to: QueryValue | null = null;
  let includeLower = true;
  let includeUpper = true;
  let timeZone: string | undefined;
  let boost: number = DEFAULTS.boost;
  let name: string | undefined;
  let format: string | undefined;
  let relation: string | undefined;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField(parser, 'range', fieldName, currentFieldName);
      fieldName = currentFieldName;
      for (let inner = parser.nextToken(); inner !== 'END_OBJECT'; inner = parser.nextToken()) {
        if (inner === 'FIELD_NAME') {
          currentFieldName = parser.currentName();
          continue;
        }
        if (inner === 'START_OBJECT' || inner === 'START_ARRAY') unknownToken(parser, 'range', currentFieldName);
        switch (currentFieldName) {
          case 'from':
            from = parser.objectText();
            break;
          case 'to':
            to = parser.objectText();
            break;
          case 'include_lower':
            includeLower = parser.booleanValue();
            break;
          case 'include_upper':
            includeUpper = parser.booleanValue();
            break;
          case 'boost':
            boost = parser.floatValue();
            break;
          case 'gt':
            from = parser.objectText();
            includeLower = false;
            break;
          case 'gte':
            from = parser.objectText();
            includeLower = true;
            break;
          case 'lt':
            to = parser.objectText();
            includeUpper = false;
            break;
          case 'lte':
            to = parser.objectText();
            includeUpper = true;
            break;
          case 'time_zone':
            timeZone = parser.text();
            break;
          case 'format':
            format = parser.text();
            break;
          case 'relation':
            relation = parser.text();
            break;
          case '_name':
            name = parser.text();
            break;
          default:
            throw parsingError(parser.tokenLocation(), `[range] query does not support [${currentFieldName}]`);
        }
      }
    } else if (isValueToken(token)) {
      throw parsingError(parser.tokenLocation(), `[range] query does not support [${currentFieldName}]`);
    }
  }
  if (fieldName === undefined || fieldName.length === 0) throw illegalArgument('field name is null or empty');
  if (timeZone !== undefined && parseZoneId(timeZone) === undefined) {
    throw illegalArgument(`java.time.zone.ZoneRulesException: Unknown time-zone ID: ${timeZone}`);
  }
  if (format !== undefined) checkDateFormat(format);
  return {
    kind: 'range',
    field: fieldName,
    ...(from !== null && { from }),
    ...(to !== null && { to }),
    includeLower,
    includeUpper,
    ...(format !== undefined && { format }),
    ...(timeZone !== undefined && { timeZone }),
    ...(relation !== undefined && { relation: readRelation(relation) }),
    boost: checkBoost(boost),
    ...(name !== undefined && { name }),
  };
}

/** RangeQueryBuilder.format: the pattern must compile (DateFormatter.forPattern). */
function checkDateFormat(format: string): void {
  try {
    dateFormatter(format);
  } catch (err) {
    if (err instanceof DateFormatError) throw illegalArgument(err.message);
    throw err;
  }
}

/** ShapeRelation.getRelationByName, restricted to what a range query accepts. */
function readRelation(text: string): RangeRelation {
  const lower = text.toLowerCase();
  if (lower === 'intersects' || lower === 'contains' || lower === 'within') return lower;
  if (lower === 'disjoint') throw illegalArgument(`[range] query does not support relation [${text}]`);
  throw illegalArgument(`${text} is not a valid relation`);
}

export function parseExists(context: QueryParseContext): ExistsQuery {
  const parser = context.parser;
  let field: string | undefined;
  let name: string | undefined;
  let boost: number = DEFAULTS.boost;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (isValueToken(token)) {
      if (currentFieldName === 'field') field = parser.text();
      else if (currentFieldName === '_name') name = parser.text();
      else if (currentFieldName === 'boost') boost = parser.floatValue();
      else throw parsingError(parser.tokenLocation(), `[exists] query does not support [${currentFieldName}]`);
    } else {
      unknownToken(parser, 'exists', currentFieldName);
    }
  }
  if (field === undefined) throw parsingError(parser.tokenLocation(), '[exists] must be provided with a [field]');
  if (field.length === 0) throw illegalArgument('field name is null or empty');
  return { kind: 'exists', field, boost: checkBoost(boost), ...(name !== undefined && { name }) };
}

interface IdsState {
  values: string[];
  boost: number;
  name?: string;
}

const IDS_PARSER = new ObjectParser<IdsState>('ids')
  .declare('values', 'STRING_ARRAY', (parser, state) => {
    state.values.push(...parseArray(parser, (p) => p.text()));
  })
  .declare('boost', 'FLOAT', (parser, state) => {
    state.boost = checkBoost(parser.floatValue());
  })
  .declare('_name', 'STRING', (parser, state) => {
    state.name = parser.text();
  });

export function parseIds(context: QueryParseContext): IdsQuery {
  const parser = context.parser;
  let state: IdsState;
  try {
    state = IDS_PARSER.parse(parser, { values: [], boost: DEFAULTS.boost });
  } catch (err) {
    // IdsQueryBuilder rethrows its parser's IllegalArgumentExceptions as a ParsingException.
    if (err instanceof EsError && (err.type === 'x_content_parse_exception' || err.type === 'illegal_argument_exception')) {
      throw parsingError(parser.tokenLocation(), err.reason, err);
    }
    throw err;
  }
  // Ids are a set in ES: the first occurrence keeps its place.
  const values = [...new Set(state.values)];
  return { kind: 'ids', values, boost: state.boost, ...(state.name !== undefined && { name: state.name }) };
}
