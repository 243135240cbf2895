/**
 * The state one query parse carries: the token parser and the nesting depth of named queries, which ES
 * bounds with `indices.query.bool.max_nested_depth` (default 20) to keep deep JSON from exhausting the stack.
 */
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import type { QueryAst } from '../ast/query-ast.js';

/** indices.query.bool.max_nested_depth's default. */
export const DEFAULT_MAX_NESTED_DEPTH = 20;

export interface QueryParseContext {
  readonly parser: XContentParser;
  readonly maxNestedDepth: number;
  /** Named queries currently being parsed (this one included). */
  depth: number;
  /** Parses the query object the parser stands on (or starts at the next token); see parseInnerQuery. */
  parseInner(): QueryAst;
}

export type QueryParser = (context: QueryParseContext) => QueryAst;
