/**
 * What to return per hit: `_source` (FetchSourceContext.fromXContent), `stored_fields` (StoredFieldsContext),
 * `fields`/`docvalue_fields` entries (FieldAndFormat), and the shape of `highlight` (HighlightBuilder's keys;
 * the highlighting itself belongs to the fetch phase).
 */
import { ObjectParser, suggest } from '../xcontent/object-parser.js';
import { isValueToken, setOwn, type JsonValue, type XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError, xContentParseError } from '../xcontent/xcontent-errors.js';
import type { FieldAndFormat, SourceFilter, StoredFields } from './search-request.js';

function unknownKey(parser: XContentParser, field: string | undefined): never {
  const location = parser.tokenLocation();
  throw parsingError(location, `Unknown key for a ${parser.currentToken()} in [${field}].`);
}

function stringArray(parser: XContentParser, field: string | undefined): string[] {
  const values: string[] = [];
  for (let token = parser.nextToken(); token !== 'END_ARRAY'; token = parser.nextToken()) {
    if (token !== 'VALUE_STRING') unknownKey(parser, field);
    values.push(parser.text());
  }
  return values;
}

/**
 * FetchSourceContext.fromXContent: true/false, "pattern", ["patterns"], or {includes, excludes, exclude_vectors}.
 * `exclude_vectors` (ES 9: keep vector fields out of `_source`; the Python DSL sends `false` on every document
 * search) is read as ES reads it and has nothing to do here: Gannet has no vector field types.
 */
export function parseSourceFilter(parser: XContentParser): SourceFilter {
  const token = parser.currentToken();
  let fetch = true;
  let includes: string[] = [];
  let excludes: string[] = [];
  if (token === 'VALUE_BOOLEAN') {
    fetch = parser.booleanValue();
  } else if (token === 'VALUE_STRING') {
    includes = [parser.text()];
  } else if (token === 'START_ARRAY') {
    includes = [];
    while (parser.nextToken() !== 'END_ARRAY') includes.push(parser.text());
  } else if (token === 'START_OBJECT') {
    let currentFieldName: string | undefined;
    for (let next = parser.nextToken(); next !== 'END_OBJECT'; next = parser.nextToken()) {
      if (next === 'FIELD_NAME') {
        currentFieldName = parser.currentName();
      } else if (currentFieldName === 'exclude_vectors' && (next === 'VALUE_BOOLEAN' || next === 'VALUE_STRING')) {
        parser.booleanValue();
      } else if (next === 'START_ARRAY' || next === 'VALUE_STRING') {
        const isIncludes = currentFieldName === 'includes' || currentFieldName === 'include';
        const isExcludes = currentFieldName === 'excludes' || currentFieldName === 'exclude';
        if (!isIncludes && !isExcludes) unknownKey(parser, currentFieldName);
        const values = next === 'START_ARRAY' ? stringArray(parser, currentFieldName) : [parser.text()];
        if (isIncludes) includes = values;
        else excludes = values;
      } else {
        unknownKey(parser, currentFieldName);
      }
    }
  } else {
    throw parsingError(parser.tokenLocation(), `Expected one of [VALUE_BOOLEAN, VALUE_STRING, START_ARRAY, START_OBJECT] but found [${token}]`);
  }
  return { fetch, includes, excludes };
}

/** StoredFieldsContext.fromList: `_none_` alone disables stored fields; mixed with others it is an error. */
export function storedFieldsFromList(fields: readonly string[]): StoredFields {
  if (fields.length === 1 && fields[0] === '_none_') return { fetch: false, fields: [] };
  if (fields.includes('_none_')) throw illegalArgument('cannot combine _none_ with other fields');
  return { fetch: true, fields: [...fields] };
}

export function parseStoredFields(parser: XContentParser, fieldName: string): StoredFields {
  const token = parser.currentToken();
  if (token === 'VALUE_STRING') return storedFieldsFromList([parser.text()]);
  if (token === 'START_ARRAY') {
    const list: string[] = [];
    while (parser.nextToken() !== 'END_ARRAY') list.push(parser.text());
    return storedFieldsFromList(list);
  }
  throw parsingError(parser.tokenLocation(), `Expected [VALUE_STRING] or [START_ARRAY] in [${fieldName}] but found [${token}]`);
}

interface FieldAndFormatState {
  field?: string;
  format?: string | null;
  includeUnmapped?: boolean;
}

const FIELD_AND_FORMAT_PARSER = new ObjectParser<FieldAndFormatState>('fetch_field_and_format')
  .declare('field', 'STRING', (parser, state) => {
    state.field = parser.text();
  })
  .declare('format', 'STRING_OR_NULL', (parser, state) => {
    state.format = parser.textOrNull();
  })
  .declare('include_unmapped', 'BOOLEAN', (parser, state) => {
    state.includeUnmapped = parser.booleanValue();
  });

/** FieldAndFormat.fromXContent: a field name, or {field, format, include_unmapped}. */
export function parseFieldAndFormat(parser: XContentParser): FieldAndFormat {
  if (isValueToken(parser.currentToken())) return { field: parser.text() };
  const state = FIELD_AND_FORMAT_PARSER.parse(parser, {});
  if (state.field === undefined) throw illegalArgument('Required [field]');
  return {
    field: state.field,
    ...(state.format !== undefined && state.format !== null && { format: state.format }),
    ...(state.includeUnmapped !== undefined && { includeUnmapped: state.includeUnmapped }),
  };
}

/** The highlighter options HighlightBuilder (and its field builders) declare. */
const HIGHLIGHT_KEYS = new Set([
  'pre_tags', 'post_tags', 'order', 'highlight_filter', 'fragment_size', 'number_of_fragments', 'require_field_match',
  'boundary_scanner', 'boundary_max_scan', 'boundary_chars', 'boundary_scanner_locale', 'type', 'fragmenter',
  'no_match_size', 'force_source', 'phrase_limit', 'max_analyzed_offset', 'options', 'highlight_query', 'tags_schema',
  'encoder', 'fields',
]);

/** The highlight section: an object with known keys and a `fields` object (or array of one-key objects). */
export function parseHighlight(parser: XContentParser): { [key: string]: JsonValue } {
  if (parser.currentToken() !== 'START_OBJECT') {
    throw xContentParseError(parser.tokenLocation(), `[highlight] Expected START_OBJECT but was: ${parser.currentToken()}`);
  }
  const highlight: { [key: string]: JsonValue } = {};
  for (let token = parser.nextToken(); token === 'FIELD_NAME'; token = parser.nextToken()) {
    const key = parser.currentName()!;
    const keyLocation = parser.tokenLocation();
    if (!HIGHLIGHT_KEYS.has(key)) throw xContentParseError(keyLocation, `[highlight] unknown field [${key}]${suggest(key, HIGHLIGHT_KEYS)}`);
    parser.nextToken();
    const valueLocation = parser.tokenLocation();
    const value = parser.readValue();
    if (key === 'fields' && !isHighlightFields(value)) {
      throw xContentParseError(
        valueLocation,
        '[fields] can be a single object with any number of fields or an array where each entry is an object with a single field',
      );
    }
    setOwn(highlight, key, value);
  }
  return highlight;
}

function isPlainObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHighlightFields(value: JsonValue): boolean {
  if (isPlainObject(value)) return true;
  return Array.isArray(value) && value.every((entry) => isPlainObject(entry) && Object.keys(entry).length === 1);
}
