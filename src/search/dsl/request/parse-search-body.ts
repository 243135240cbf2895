/**
 * The `_search` request body (SearchSourceBuilder.parseXContent with checkTrailingTokens): every key ES
 * knows, with ES's errors for unknown keys ("Unknown key for a VALUE_STRING in [x].") and wrong value
 * types. Sections Gannet does not run (collapse, rescore, suggest, knn, ...) are refused by name instead of
 * being silently ignored.
 */
import { parseTimeValueMillis } from '../../../common/time-value.js';
import type { JsonValue, QueryAst, QueryValue } from '../ast/query-ast.js';
import { parseTopLevelQuery } from '../parse/inner-query.js';
import { isValueToken, XContentParser } from '../xcontent/xcontent-parser.js';
import { illegalArgument, parsingError } from '../xcontent/xcontent-errors.js';
import { parseFieldAndFormat, parseHighlight, parseSourceFilter, parseStoredFields } from './parse-fetch.js';
import { parseSlice } from './parse-slice.js';
import { fieldOrScoreSort, parseSort } from './parse-sort.js';
import {
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
  type FieldAndFormat,
  type SliceSpec,
  type SortSpec,
  type SourceFilter,
  type StoredFields,
} from './search-request.js';

/** Body sections ES accepts that Gannet does not run (yet): refused clearly. */
const UNSUPPORTED_SECTIONS = new Set([
  'collapse', 'rescore', 'suggest', 'knn', 'retriever', 'rank', 'sub_searches', 'script_fields', 'ext', 'pit',
  'runtime_mappings', 'indices_boost',
]);

export interface SearchBodyOptions {
  /** indices.query.bool.max_nested_depth. */
  readonly maxNestedDepth?: number;
}

/** The mutable state of one parse; frozen into a SearchRequest at the end. */
export interface SearchRequestDraft {
  query?: QueryAst;
  postFilter?: QueryAst;
  from?: number;
  size?: number;
  sort?: SortSpec[];
  searchAfter?: (QueryValue | null)[];
  trackTotalHitsUpTo?: number;
  trackScores?: boolean;
  source?: SourceFilter;
  storedFields?: StoredFields;
  docvalueFields?: FieldAndFormat[];
  fields?: FieldAndFormat[];
  highlight?: { [key: string]: JsonValue };
  timeoutMillis?: number;
  terminateAfter?: number;
  minScore?: number;
  explain?: boolean;
  version?: boolean;
  seqNoPrimaryTerm?: boolean;
  profile?: boolean;
  stats?: string[];
  aggregations?: { [name: string]: JsonValue };
  slice?: SliceSpec;
}

/** SearchSourceBuilder.from/size/terminateAfter/trackTotalHitsUpTo setters and their checks. */
export const setters = {
  from(draft: SearchRequestDraft, from: number): void {
    if (from < 0) throw illegalArgument(`[from] parameter cannot be negative but was [${from}]`);
    draft.from = from;
  },
  size(draft: SearchRequestDraft, size: number): void {
    if (size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${size}]`);
    draft.size = size;
  },
  terminateAfter(draft: SearchRequestDraft, terminateAfter: number): void {
    if (terminateAfter < 0) throw illegalArgument('terminateAfter must be > 0');
    draft.terminateAfter = terminateAfter;
  },
  trackTotalHits(draft: SearchRequestDraft, track: boolean): void {
    draft.trackTotalHitsUpTo = track ? TRACK_TOTAL_HITS_ACCURATE : TRACK_TOTAL_HITS_DISABLED;
  },
  trackTotalHitsUpTo(draft: SearchRequestDraft, upTo: number): void {
    if (upTo < TRACK_TOTAL_HITS_DISABLED) {
      throw illegalArgument(`[track_total_hits] parameter must be positive or equals to -1, got ${upTo}`);
    }
    draft.trackTotalHitsUpTo = upTo;
  },
  /** SearchSourceBuilder.sort(String): appends. */
  sort(draft: SearchRequestDraft, sort: SortSpec): void {
    (draft.sort ??= []).push(sort);
  },
};

/** Parses a `_search` body (bytes or text) into a draft. */
export function parseSearchBody(body: Uint8Array | string, options: SearchBodyOptions = {}): SearchRequestDraft {
  const parser = typeof body === 'string' ? XContentParser.fromString(body) : new XContentParser(body);
  return parseSearchSource(parser, options);
}

export function parseSearchSource(parser: XContentParser, options: SearchBodyOptions = {}): SearchRequestDraft {
  const draft: SearchRequestDraft = {};
  let token = parser.currentToken();
  if (token !== 'START_OBJECT' && (token = parser.nextToken()) !== 'START_OBJECT') {
    throw parsingError(parser.tokenLocation(), `Expected [START_OBJECT] but found [${token ?? 'null'}]`);
  }
  const queryOptions = { maxNestedDepth: options.maxNestedDepth };
  let currentFieldName: string | undefined;
  for (token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (isValueToken(token)) {
      parseValueKey(parser, draft, currentFieldName);
    } else if (token === 'START_OBJECT') {
      parseObjectKey(parser, draft, currentFieldName, queryOptions);
    } else if (token === 'START_ARRAY') {
      parseArrayKey(parser, draft, currentFieldName);
    } else {
      throwUnknownKey(parser, currentFieldName);
    }
  }
  const trailing = parser.nextToken();
  if (trailing !== undefined) {
    throw parsingError(parser.tokenLocation(), `Unexpected token [${trailing}] found after the main object.`);
  }
  return draft;
}

function throwUnknownKey(parser: XContentParser, field: string | undefined): never {
  throw parsingError(parser.tokenLocation(), `Unknown key for a ${parser.currentToken()} in [${field}].`);
}

function unsupported(parser: XContentParser, field: string): never {
  throw parsingError(parser.tokenLocation(), `[${field}] is not supported by this node`);
}

function parseValueKey(parser: XContentParser, draft: SearchRequestDraft, field: string | undefined): void {
  switch (field) {
    case 'from':
      return setters.from(draft, parser.intValue());
    case 'size':
      return setters.size(draft, parser.intValue());
    case 'timeout':
      draft.timeoutMillis = parseTimeValueMillis(parser.text(), 'timeout');
      return;
    case 'terminate_after':
      return setters.terminateAfter(draft, parser.intValue());
    case 'min_score':
      draft.minScore = parser.floatValue();
      return;
    case 'version':
      draft.version = parser.booleanValue();
      return;
    case 'seq_no_primary_term':
      draft.seqNoPrimaryTerm = parser.booleanValue();
      return;
    case 'explain':
      draft.explain = parser.booleanValue();
      return;
    case 'track_scores':
      draft.trackScores = parser.booleanValue();
      return;
    case 'track_total_hits': {
      const isBoolean = parser.currentToken() === 'VALUE_BOOLEAN' || (parser.currentToken() === 'VALUE_STRING' && isBooleanText(parser.text()));
      if (isBoolean) setters.trackTotalHits(draft, parser.booleanValue());
      else setters.trackTotalHitsUpTo(draft, parser.intValue());
      return;
    }
    case '_source':
      draft.source = parseSourceFilter(parser);
      return;
    case 'stored_fields':
      draft.storedFields = parseStoredFields(parser, 'stored_fields');
      return;
    case 'sort':
      return setters.sort(draft, fieldOrScoreSort(parser.text()));
    case 'profile':
      draft.profile = parser.booleanValue();
      return;
    default:
      throwUnknownKey(parser, field);
  }
}

function parseObjectKey(parser: XContentParser, draft: SearchRequestDraft, field: string | undefined, queryOptions: { maxNestedDepth?: number }): void {
  switch (field) {
    case 'query':
      draft.query = parseTopLevelQuery(parser, queryOptions);
      return;
    case 'post_filter':
      draft.postFilter = parseTopLevelQuery(parser, queryOptions);
      return;
    case '_source':
      draft.source = parseSourceFilter(parser);
      return;
    case 'aggregations':
    case 'aggs':
      // Kept as given: the aggregations module owns their grammar and errors.
      draft.aggregations = parser.map();
      return;
    case 'highlight':
      draft.highlight = parseHighlight(parser);
      return;
    case 'sort':
      draft.sort = parseSort(parser);
      return;
    case 'slice':
      draft.slice = parseSlice(parser);
      return;
    default:
      if (field !== undefined && UNSUPPORTED_SECTIONS.has(field)) unsupported(parser, field);
      throwUnknownKey(parser, field);
  }
}

function parseArrayKey(parser: XContentParser, draft: SearchRequestDraft, field: string | undefined): void {
  switch (field) {
    case 'stored_fields':
      draft.storedFields = parseStoredFields(parser, 'stored_fields');
      return;
    case 'docvalue_fields':
      draft.docvalueFields = [];
      while (parser.nextToken() !== 'END_ARRAY') draft.docvalueFields.push(parseFieldAndFormat(parser));
      return;
    case 'fields':
      draft.fields = [];
      while (parser.nextToken() !== 'END_ARRAY') draft.fields.push(parseFieldAndFormat(parser));
      return;
    case 'sort':
      draft.sort = parseSort(parser);
      return;
    case 'stats': {
      draft.stats = [];
      for (let token = parser.nextToken(); token !== 'END_ARRAY'; token = parser.nextToken()) {
        if (token !== 'VALUE_STRING') throw parsingError(parser.tokenLocation(), `Expected [VALUE_STRING] in [stats] but found [${token}]`);
        draft.stats.push(parser.text());
      }
      return;
    }
    case '_source':
      draft.source = parseSourceFilter(parser);
      return;
    case 'search_after':
      draft.searchAfter = parseSearchAfter(parser);
      return;
    default:
      if (field !== undefined && UNSUPPORTED_SECTIONS.has(field)) unsupported(parser, field);
      throwUnknownKey(parser, field);
  }
}

/** SearchAfterBuilder.fromXContent: numbers, strings, booleans and nulls. */
function parseSearchAfter(parser: XContentParser): (QueryValue | null)[] {
  const values: (QueryValue | null)[] = [];
  for (let token = parser.nextToken(); token !== 'END_ARRAY'; token = parser.nextToken()) {
    if (token === 'VALUE_NUMBER' || token === 'VALUE_STRING' || token === 'VALUE_BOOLEAN' || token === 'VALUE_NULL') {
      values.push(parser.objectText());
    } else {
      throw parsingError(
        parser.tokenLocation(),
        `Expected [VALUE_STRING] or [VALUE_NUMBER] or [VALUE_BOOLEAN] or [VALUE_NULL] but found [${token}] inside search_after.`,
      );
    }
  }
  return values;
}

/** Booleans.isBoolean: exactly "true" or "false". */
export function isBooleanText(text: string): boolean {
  return text === 'true' || text === 'false';
}
