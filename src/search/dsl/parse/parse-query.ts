/**
 * Parses one query object (`{"match": {...}}`) from bytes, text or an already-parsed JSON value: what the
 * count, delete_by_query and validate APIs need besides `_search` bodies.
 */
import type { JsonValue, QueryAst } from '../ast/query-ast.js';
import { toJsonText } from '../ast/serialize-query.js';
import { XContentParser } from '../xcontent/xcontent-parser.js';
import { parseTopLevelQuery, type TopLevelQueryOptions } from './inner-query.js';

export function parseQuery(input: Uint8Array | string | { readonly [key: string]: JsonValue }, options: TopLevelQueryOptions = {}): QueryAst {
  const parser =
    typeof input === 'string'
      ? XContentParser.fromString(input)
      : input instanceof Uint8Array
        ? new XContentParser(input)
        : XContentParser.fromString(toJsonText(input as JsonValue));
  return parseTopLevelQuery(parser, options);
}
