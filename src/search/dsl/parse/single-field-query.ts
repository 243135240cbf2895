/**
 * The shape of the queries on one field (term, prefix, wildcard, regexp, fuzzy, range, match and its phrase
 * variants): `{"<kind>": {"<field>": value}}` (the short form) or `{"<kind>": {"<field>": {...options}}}` (the
 * long form), one field only. ES repeats this loop in each builder's fromXContent; here it is written once, and
 * a kind declares its long form's options, how its short form reads, and which bare tokens it takes.
 */
import type { Token, XContentParser } from '../xcontent/xcontent-parser.js';
import { parsingError } from '../xcontent/xcontent-errors.js';
import type { QueryParseContext } from './parse-context.js';
import type { OptionReader, QueryOptions } from './query-options.js';

export interface SingleFieldQuery<S> {
  /** The long form's options; their query name is the kind's. */
  readonly options: QueryOptions<S>;
  /** Reads the short form's value; a kind without a short form (range) leaves it out and refuses in isShortForm. */
  readonly readShortForm?: OptionReader<S>;
  /**
   * Whether a token that does not open an object is the short form's value (true) or passed over (false), or
   * a refusal (throws). Without it every such token is a short form value.
   */
  readonly isShortForm?: (parser: XContentParser, token: Token | undefined, fieldName: string | undefined) => boolean;
}

/** AbstractQueryBuilder.throwParsingExceptionOnMultipleFields. */
export function throwOnMultipleFields(parser: XContentParser, queryName: string, processed: string | undefined, current: string | undefined): void {
  if (processed !== undefined) {
    throw parsingError(parser.tokenLocation(), `[${queryName}] query doesn't support multiple fields, found [${processed}] and [${current}]`);
  }
}

/** Reads the query object the parser stands on into `state`; returns the field name (undefined when none came). */
export function parseSingleFieldQuery<S>(context: QueryParseContext, query: SingleFieldQuery<S>, state: S): string | undefined {
  const parser = context.parser;
  const queryName = query.options.queryName;
  let queryField: string | undefined;
  let currentFieldName: string | undefined;
  for (let token = parser.nextToken(); token !== 'END_OBJECT'; token = parser.nextToken()) {
    if (token === 'FIELD_NAME') {
      currentFieldName = parser.currentName();
    } else if (token === 'START_OBJECT') {
      throwOnMultipleFields(parser, queryName, queryField, currentFieldName);
      queryField = currentFieldName;
      currentFieldName = query.options.parseFields(context, state) ?? currentFieldName;
    } else if (query.isShortForm?.(parser, token, currentFieldName) ?? true) {
      throwOnMultipleFields(parser, queryName, queryField, currentFieldName);
      queryField = currentFieldName;
      query.readShortForm?.(parser, state, context);
    }
  }
  return queryField;
}
