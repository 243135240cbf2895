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
import type { QueryParseContext } from './parse-context.js';
import { declareBoostAndName, QueryOptions, refusalError, STRUCTURE_IS_UNKNOWN_TOKEN, VALUES_OR_NULL, type OptionReader } from './query-options.js';
import { parseSingleFieldQuery, type SingleFieldQuery } from './single-field-query.js';

interface RangeState {
  from: QueryValue | null;
  to: QueryValue | null;
  includeLower: boolean;
  includeUpper: boolean;
  timeZone: string | undefined;
  boost: number;
  name?: string;
  format: string | undefined;
  relation: string | undefined;
}

/** gt/gte/lt/lte set a bound and whether it is included; from/to set only the bound. */
function bound(end: 'from' | 'to', inclusive?: boolean): OptionReader<RangeState> {
  return (parser, state) => {
    state[end] = parser.objectText();
    if (inclusive === undefined) return;
    if (end === 'from') state.includeLower = inclusive;
    else state.includeUpper = inclusive;
  };
}

const RANGE: SingleFieldQuery<RangeState> = {
  // RangeQueryBuilder refuses structures before it looks at the name; nulls reach the accessors.
  options: declareBoostAndName(new QueryOptions<RangeState>('range', { object: 'unknown_token', array: 'unknown_token' }), VALUES_OR_NULL)
    .declare('from', bound('from'), VALUES_OR_NULL)
    .declare('to', bound('to'), VALUES_OR_NULL)
    .declare('gt', bound('from', false), VALUES_OR_NULL)
    .declare('gte', bound('from', true), VALUES_OR_NULL)
    .declare('lt', bound('to', false), VALUES_OR_NULL)
    .declare('lte', bound('to', true), VALUES_OR_NULL)
    .declare('include_lower', (parser, state) => (state.includeLower = parser.booleanValue()), VALUES_OR_NULL)
    .declare('include_upper', (parser, state) => (state.includeUpper = parser.booleanValue()), VALUES_OR_NULL)
    .declare('time_zone', (parser, state) => (state.timeZone = parser.text()), VALUES_OR_NULL)
    .declare('format', (parser, state) => (state.format = parser.text()), VALUES_OR_NULL)
    .declare('relation', (parser, state) => (state.relation = parser.text()), VALUES_OR_NULL),
  // No short form: a bare value is refused, anything else passed over.
  isShortForm: (parser, token, fieldName) => {
    if (isValueToken(token)) throw refusalError(parser, 'range', 'does_not_support', fieldName);
    return false;
  },
};

export function parseRange(context: QueryParseContext): RangeQuery {
  const state: RangeState = {
    from: null,
    to: null,
    includeLower: true,
    includeUpper: true,
    timeZone: undefined,
    boost: DEFAULTS.boost,
    format: undefined,
    relation: undefined,
  };
  const fieldName = parseSingleFieldQuery(context, RANGE, state);
  const { from, to, timeZone, format, relation, name } = state;
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
    includeLower: state.includeLower,
    includeUpper: state.includeUpper,
    ...(format !== undefined && { format }),
    ...(timeZone !== undefined && { timeZone }),
    ...(relation !== undefined && { relation: readRelation(relation) }),
    boost: checkBoost(state.boost),
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

interface ExistsState {
  field: string | undefined;
  boost: number;
  name?: string;
}

const EXISTS_OPTIONS = declareBoostAndName(new QueryOptions<ExistsState>('exists', STRUCTURE_IS_UNKNOWN_TOKEN)).declare(
  'field',
  (parser, state) => (state.field = parser.text()),
);

export function parseExists(context: QueryParseContext): ExistsQuery {
  const state: ExistsState = { field: undefined, boost: DEFAULTS.boost };
  EXISTS_OPTIONS.parseFields(context, state);
  const { field, boost, name } = state;
  if (field === undefined) throw parsingError(context.parser.tokenLocation(), '[exists] must be provided with a [field]');
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
