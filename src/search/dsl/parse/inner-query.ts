/**
 * AbstractQueryBuilder.parseTopLevelQuery / parseInnerQueryBuilder: a query is an object with exactly one
 * key, the query's name, whose value is the query's object. Unknown names get ES's "unknown query [x]" with
 * suggestions; nesting beyond `indices.query.bool.max_nested_depth` fails before it can exhaust the stack.
 */
import type { QueryAst } from '../ast/query-ast.js';
import type { XContentParser } from '../xcontent/xcontent-parser.js';
import { suggest } from '../xcontent/object-parser.js';
import { illegalArgument, namedObjectNotFound, parsingError } from '../xcontent/xcontent-errors.js';
import { DEFAULT_MAX_NESTED_DEPTH, type QueryParseContext, type QueryParser } from './parse-context.js';
import { QUERY_PARSERS } from './query-registry.js';

/**
 * Every query name a default Elasticsearch 8 node registers. Names Gannet does not implement are still
 * candidates for "did you mean", and are refused as unsupported rather than unknown.
 */
const ES_QUERY_NAMES: readonly string[] = [
  'bool', 'boosting', 'combined_fields', 'constant_score', 'dis_max', 'distance_feature', 'exists', 'field_masking_span',
  'function_score', 'fuzzy', 'geo_bounding_box', 'geo_distance', 'geo_grid', 'geo_shape', 'has_child', 'has_parent', 'ids',
  'intervals', 'knn', 'match', 'match_all', 'match_bool_prefix', 'match_none', 'match_phrase', 'match_phrase_prefix',
  'more_like_this', 'multi_match', 'nested', 'parent_id', 'percolate', 'pinned', 'prefix', 'query_string', 'range',
  'rank_feature', 'regexp', 'rule', 'script', 'script_score', 'semantic', 'shape', 'simple_query_string', 'span_containing',
  'span_field_masking', 'span_first', 'span_multi', 'span_near', 'span_not', 'span_or', 'span_term', 'span_within',
  'sparse_vector', 'term', 'terms', 'terms_set', 'text_expansion', 'weighted_tokens', 'wildcard', 'wrapper',
];

export interface TopLevelQueryOptions {
  readonly maxNestedDepth?: number;
}

/** parseTopLevelQuery: parses one query object and starts the nesting count. */
export function parseTopLevelQuery(parser: XContentParser, options: TopLevelQueryOptions = {}): QueryAst {
  const context: QueryParseContext = {
    parser,
    maxNestedDepth: options.maxNestedDepth ?? DEFAULT_MAX_NESTED_DEPTH,
    depth: 0,
    parseInner: () => parseInnerQuery(context),
  };
  return parseInnerQuery(context);
}

/** parseInnerQueryBuilder: the parser stands on the query's START_OBJECT (or just before it). */
export function parseInnerQuery(context: QueryParseContext): QueryAst {
  const parser = context.parser;
  if (parser.currentToken() !== 'START_OBJECT') {
    if (parser.nextToken() !== 'START_OBJECT') {
      throw parsingError(parser.tokenLocation(), '[_na] query malformed, must start with start_object');
    }
  }
  if (parser.nextToken() === 'END_OBJECT') {
    // '{}' as a query clause: deprecated in 5.0, removed in 6.0.
    const location = parser.tokenLocation();
    throw illegalArgument(`query malformed, empty clause found at [${location.line}:${location.column}]`);
  }
  if (parser.currentToken() !== 'FIELD_NAME') {
    throw parsingError(parser.tokenLocation(), '[_na] query malformed, no field after start_object');
  }
  const queryName = parser.currentName()!;
  if (parser.nextToken() !== 'START_OBJECT') {
    throw parsingError(parser.tokenLocation(), `[${queryName}] query malformed, no start_object after query name`);
  }
  const query = parseNamedQuery(context, queryName);
  if (parser.currentToken() !== 'END_OBJECT') {
    throw parsingError(parser.tokenLocation(), `[${queryName}] malformed query, expected [END_OBJECT] but found [${parser.currentToken()}]`);
  }
  if (parser.nextToken() !== 'END_OBJECT') {
    throw parsingError(parser.tokenLocation(), `[${queryName}] malformed query, expected [END_OBJECT] but found [${parser.currentToken()}]`);
  }
  return query;
}

function parseNamedQuery(context: QueryParseContext, queryName: string): QueryAst {
  const parser = context.parser;
  context.depth++;
  if (context.depth > context.maxNestedDepth) {
    throw illegalArgument(
      'The nested depth of the query exceeds the maximum nested depth for queries set in [indices.query.bool.max_nested_depth]',
    );
  }
  const queryParser: QueryParser | undefined = Object.hasOwn(QUERY_PARSERS, queryName) ? QUERY_PARSERS[queryName] : undefined;
  if (queryParser === undefined) {
    const location = parser.tokenLocation();
    if (ES_QUERY_NAMES.includes(queryName)) {
      // A real Elasticsearch query that Gannet does not run: say so rather than pretend it does not exist.
      throw parsingError(location, `query [${queryName}] is not supported by this node`);
    }
    throw parsingError(
      location,
      `unknown query [${queryName}]${suggest(queryName, ES_QUERY_NAMES)}`,
      namedObjectNotFound(location, `unknown field [${queryName}]`),
    );
  }
  const query = queryParser(context);
  context.depth--;
  return query;
}
