/**
 * The Lucene-shaped query a query AST builds into, against one index's mapping and analyzers: exactly the
 * Lucene queries Elasticsearch's builders would create (TermQuery, BooleanQuery, PhraseQuery, ...), as plain
 * data. It is the seam between the DSL (which knows ES) and the execution core (which knows Lucene):
 * to-execution.ts turns it into the core's Query objects, and planToString prints it in Lucene's syntax for
 * explain/profile output. Nothing here reads an index.
 */
import type { BoostMode, DecayShape, FieldValueModifier, FunctionScoreMode, MultiValueMode } from '../ast/query-ast.js';

export type Occur = 'must' | 'filter' | 'should' | 'must_not';

export interface PlanClause {
  readonly occur: Occur;
  readonly query: PlanQuery;
}

/** A term at its position in a phrase (positions follow the analyzer's increments; gaps stay gaps). */
export interface PositionedTerm {
  readonly term: string;
  readonly position: number;
}

export type PlanScoreFunction =
  | { readonly kind: 'weight' }
  | {
      readonly kind: 'field_value_factor';
      readonly field: string;
      readonly factor: number;
      readonly modifier: FieldValueModifier;
      readonly missing?: number;
      /** scaled_float: doc values hold value * scaling factor; they are divided by it (ES's field data does). */
      readonly scalingFactor?: number;
    }
  | {
      readonly kind: 'decay';
      readonly shape: DecayShape;
      readonly field: string;
      /** Numbers for numeric fields; epoch milliseconds and millisecond durations for dates. */
      readonly origin: number;
      readonly scale: number;
      readonly offset: number;
      readonly decay: number;
      readonly multiValueMode: MultiValueMode;
      readonly scalingFactor?: number;
    };

export interface PlanFilterFunction {
  /** Undefined: every document. */
  readonly filter?: PlanQuery;
  readonly function: PlanScoreFunction;
  readonly weight?: number;
}

export type PlanQuery =
  | { readonly type: 'match_all' }
  /**
   * `rewritten` marks a query ES's builders would already have rewritten to match_none (an unmapped term
   * query, say): the enclosing bool/constant_score/boosting rewrites itself to match_none when it meets one.
   */
  | { readonly type: 'match_none'; readonly reason: string; readonly rewritten?: boolean }
  | { readonly type: 'term'; readonly field: string; readonly term: string }
  | { readonly type: 'bool'; readonly clauses: readonly PlanClause[]; readonly minimumShouldMatch: number }
  | { readonly type: 'boost'; readonly query: PlanQuery; readonly boost: number }
  | { readonly type: 'constant_score'; readonly query: PlanQuery }
  | { readonly type: 'dis_max'; readonly queries: readonly PlanQuery[]; readonly tieBreaker: number }
  | { readonly type: 'phrase'; readonly field: string; readonly terms: readonly PositionedTerm[]; readonly slop: number }
  /** ES's MultiPhrasePrefixQuery: the last position's terms are prefixes, expanded to at most maxExpansions terms. */
  | {
      readonly type: 'phrase_prefix';
      readonly field: string;
      readonly terms: readonly PositionedTerm[];
      readonly slop: number;
      readonly maxExpansions: number;
    }
  /** `rewrite`: ES's rewrite method name when the query gave one (constant_score by default). */
  | { readonly type: 'prefix'; readonly field: string; readonly prefix: string; readonly caseInsensitive: boolean; readonly rewrite?: string }
  | { readonly type: 'wildcard'; readonly field: string; readonly pattern: string; readonly caseInsensitive: boolean; readonly rewrite?: string }
  | {
      readonly type: 'regexp';
      readonly field: string;
      readonly pattern: string;
      /** Lucene RegExp syntax flags (masked to RegExp.ALL). */
      readonly flags: number;
      readonly caseInsensitive: boolean;
      readonly maxDeterminizedStates: number;
      readonly rewrite?: string;
    }
  | {
      readonly type: 'fuzzy';
      readonly field: string;
      readonly term: string;
      readonly maxEdits: number;
      readonly prefixLength: number;
      readonly maxExpansions: number;
      readonly transpositions: boolean;
      /** Defaults to top_terms_blended_freqs_<maxExpansions>. */
      readonly rewrite?: string;
    }
  /** Lucene's TermRangeQuery over the term dictionary (text, keyword, boolean); undefined = open. */
  | {
      readonly type: 'term_range';
      readonly field: string;
      readonly lower?: string;
      readonly upper?: string;
      readonly includeLower: boolean;
      readonly includeUpper: boolean;
    }
  /** An inclusive range over long doc values (long/integer/short/byte, date millis, scaled_float, boolean 0/1). */
  | { readonly type: 'long_range'; readonly field: string; readonly lower: bigint; readonly upper: bigint }
  /**
   * Inclusive ranges over sorted set doc values of raw byte terms (an ip field's exact, CIDR and range
   * queries): bounds are the hex of the 16-byte addresses; a doc matches when a value is in any range.
   */
  | { readonly type: 'bytes_range'; readonly field: string; readonly ranges: readonly { readonly lower: string; readonly upper: string }[] }
  /** An inclusive range over double doc values (double/float/half_float, already at the field's precision). */
  | { readonly type: 'double_range'; readonly field: string; readonly lower: number; readonly upper: number }
  /** Documents whose numeric doc values contain one of the values (LongPoint/DoublePoint.newSetQuery). */
  | { readonly type: 'long_set'; readonly field: string; readonly values: readonly bigint[] }
  | { readonly type: 'double_set'; readonly field: string; readonly values: readonly number[] }
  /** Lucene's TermInSetQuery (constant score). */
  | { readonly type: 'term_set'; readonly field: string; readonly terms: readonly string[] }
  /** Documents with a value for the field (FieldExistsQuery: doc values, norms or terms). */
  | { readonly type: 'field_exists'; readonly field: string }
  /** ES's BlendedTermQuery.dismaxBlendedQuery: one term across fields, scored with blended statistics. */
  | {
      readonly type: 'blended_terms';
      readonly terms: readonly { readonly field: string; readonly term: string; readonly boost: number }[];
      readonly tieBreaker: number;
    }
  | {
      readonly type: 'function_score';
      readonly query: PlanQuery;
      readonly functions: readonly PlanFilterFunction[];
      readonly scoreMode: FunctionScoreMode;
      readonly boostMode: BoostMode;
      readonly maxBoost: number;
      readonly minScore?: number;
    }
  /** FunctionScoreQuery.boostByQuery: scores of positive matches that also match negative are multiplied. */
  | { readonly type: 'boosting'; readonly positive: PlanQuery; readonly negative: PlanQuery; readonly negativeBoost: number }
  /** A query with a `_name`, reported in a hit's matched_queries. */
  | { readonly type: 'named'; readonly name: string; readonly query: PlanQuery };

export type PlanType = PlanQuery['type'];

export const MATCH_ALL: PlanQuery = { type: 'match_all' };

export function matchNone(reason: string, rewritten?: boolean): PlanQuery {
  return rewritten ? { type: 'match_none', reason, rewritten } : { type: 'match_none', reason };
}

export function bool(clauses: readonly PlanClause[], minimumShouldMatch = 0): PlanQuery {
  return { type: 'bool', clauses, minimumShouldMatch };
}

/** BoostQuery, omitted for a boost of 1 (as AbstractQueryBuilder.toQuery does). */
export function boosted(query: PlanQuery, boost: number): PlanQuery {
  return boost === 1 ? query : { type: 'boost', query, boost };
}

/** Sets a multi-term query's rewrite method (prefix, wildcard, regexp, fuzzy); other queries pass through. */
export function withRewrite(query: PlanQuery, rewrite: string | undefined): PlanQuery {
  if (rewrite === undefined) return query;
  if (query.type === 'prefix' || query.type === 'wildcard' || query.type === 'regexp' || query.type === 'fuzzy') return { ...query, rewrite };
  return query;
}

/** Drops the `_name` and boost wrappers to reach the query that decides matching. */
export function unwrap(query: PlanQuery): PlanQuery {
  let current = query;
  while (current.type === 'named' || current.type === 'boost') current = current.query;
  return current;
}

export function isRewrittenMatchNone(query: PlanQuery): boolean {
  const inner = unwrap(query);
  return inner.type === 'match_none' && inner.rewritten === true;
}

export function isMatchAll(query: PlanQuery): boolean {
  return unwrap(query).type === 'match_all';
}

/**
 * The queries a compound plan wraps (a bool's clauses, dis_max's queries, the query inside boost, constant_score,
 * named and function_score, boosting's positive and negative), or undefined for a leaf. function_score's
 * per-function filters are included only when asked: Lucene's clause count does not visit them, a search for
 * the automata a query will build must.
 */
export function childPlans(plan: PlanQuery, options: { functionFilters?: boolean } = {}): readonly PlanQuery[] | undefined {
  switch (plan.type) {
    case 'bool':
      return plan.clauses.map((clause) => clause.query);
    case 'dis_max':
      return plan.queries;
    case 'boost':
    case 'constant_score':
    case 'named':
      return [plan.query];
    case 'function_score': {
      if (options.functionFilters !== true) return [plan.query];
      const filters = plan.functions.flatMap((fn) => (fn.filter === undefined ? [] : [fn.filter]));
      return [plan.query, ...filters];
    }
    case 'boosting':
      return [plan.positive, plan.negative];
    default:
      return undefined;
  }
}
