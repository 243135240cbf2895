/**
 * `sort` (SortBuilder.fromXContent, FieldSortBuilder and ScoreSortBuilder parsers): a field name, an object
 * `{"field": "desc"}` / `{"field": {options}}`, or an array of those. `_score` sorts by score (desc by
 * default), anything else by field (asc by default), `_doc` by index order.
 */
import { noEnumConstant } from '../parse/common-params.js';
import { ObjectParser } from '../xcontent/object-parser.js';
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import type { QueryValue } from '../ast/query-ast.js';
import type { SortMode, SortOrder, SortSpec } from './search-request.js';

type FieldSortState = { -readonly [K in keyof Extract<SortSpec, { kind: 'field' }>]: Extract<SortSpec, { kind: 'field' }>[K] };

/** SortOrder.fromString. */
export function readSortOrder(text: string): SortOrder {
  const upper = text.toUpperCase();
  if (upper === 'ASC') return 'asc';
  if (upper === 'DESC') return 'desc';
  throw noEnumConstant('org.elasticsearch.search.sort.SortOrder', upper);
}

/** SortMode.fromString. */
function readSortMode(text: string): SortMode {
  const lower = text.toLowerCase();
  if (lower === 'min' || lower === 'max' || lower === 'sum' || lower === 'avg' || lower === 'median') return lower;
  throw illegalArgument(`Unknown SortMode [${text}]`);
}

const FIELD_SORT_PARSER = new ObjectParser<FieldSortState>('field_sort')
  .declare('missing', 'VALUE', (parser, state) => {
    const value = parser.objectText();
    if (value === null) delete state.missing;
    else state.missing = value as QueryValue;
  })
  .declare('unmapped_type', 'STRING', (parser, state) => {
    state.unmappedType = parser.text();
  })
  .declare('order', 'STRING', (parser, state) => {
    state.order = readSortOrder(parser.text());
  })
  .declare('mode', 'STRING', (parser, state) => {
    state.mode = readSortMode(parser.text());
  })
  .declare('numeric_type', 'STRING', (parser, state) => {
    // FieldSortBuilder.setNumericType.
    const numericType = parser.text().toLowerCase();
    if (numericType !== 'long' && numericType !== 'double' && numericType !== 'date' && numericType !== 'date_nanos') {
      throw illegalArgument(`invalid value for [numeric_type], must be [long, double, date, date_nanos], got ${numericType}`);
    }
    state.numericType = numericType;
  })
  .declare('format', 'STRING', (parser, state) => {
    state.format = parser.text();
  })
  .declare('nested', 'OBJECT', (parser) => {
    throw parsingError(parser.tokenLocation(), '[nested] sorting is not supported');
  })
  .declare('nested_path', 'STRING', (parser) => {
    throw parsingError(parser.tokenLocation(), '[nested_path] has been removed in favour of the [nested] parameter');
  })
  .declare('nested_filter', 'OBJECT', (parser) => {
    throw parsingError(parser.tokenLocation(), '[nested_filter] has been removed in favour of the [nested] parameter');
  });

interface ScoreSortState {
  order: SortOrder;
}

const SCORE_SORT_PARSER = new ObjectParser<ScoreSortState>('_score').declare('order', 'STRING', (parser, state) => {
  state.order = readSortOrder(parser.text());
});

/** SortBuilder.fieldOrScoreSort with an optional explicit order. */
export function fieldOrScoreSort(name: string, order?: SortOrder): SortSpec {
  if (name === '_score') return { kind: 'score', order: order ?? 'desc' };
  return { kind: 'field', field: name, order: order ?? 'asc' };
}

/** SortBuilder.fromXContent: the parser stands on the value of `sort` (an array, an object or a string). */
export function parseSort(parser: XContentParser): SortSpec[] {
  const sorts: SortSpec[] = [];
  const token = parser.currentToken();
  if (token === 'START_ARRAY') {
    for (let item = parser.nextToken(); item !== 'END_ARRAY'; item = parser.nextToken()) {
      if (item === 'START_OBJECT') parseCompoundSortField(parser, sorts);
      else if (item === 'VALUE_STRING') sorts.push(fieldOrScoreSort(parser.text()));
      else throw illegalArgument('malformed sort format, within the sort array, an object, or an actual string are allowed');
    }
  } else if (token === 'VALUE_STRING') {
    sorts.push(fieldOrScoreSort(parser.text()));
  } else if (token === 'START_OBJECT') {
    parseCompoundSortField(parser, sorts);
  } else {
    throw illegalArgument('malformed sort format, either start with array, object or an actual string');
  }
  return sorts;
}

function parseCompoundSortField(parser: XContentParser, sorts: SortSpec[]): void {
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token !== 'FIELD_NAME') continue;
    const fieldName = parser.currentName()!;
    const value = parser.nextToken();
    if (value === 'VALUE_STRING') {
      sorts.push(fieldOrScoreSort(fieldName, readSortOrder(parser.text())));
    } else if (fieldName === '_score') {
      sorts.push({ kind: 'score', ...SCORE_SORT_PARSER.parse(parser, { order: 'desc' }) });
    } else if (fieldName === '_script' || fieldName === '_geo_distance' || fieldName === '_geoDistance') {
      throw parsingError(parser.tokenLocation(), `[${fieldName}] sorting is not supported`);
    } else {
      sorts.push({ ...FIELD_SORT_PARSER.parse(parser, { kind: 'field', field: fieldName, order: 'asc' }) });
    }
  }
}
