/**
 * The Lucene-shaped query the highlighter reads terms and phrases from: the same shapes ES's query builders
 * produce (TermQuery, BooleanQuery, PhraseQuery, ...) as plain data, with the same `type` names and fields
 * as the DSL's query plan for the kinds they share, so either source can feed the highlighter. Kinds the
 * highlighter cannot take terms from (ranges, exists, ...) are kept as opaque leaves and contribute nothing,
 * as in Lucene's WeightedSpanTermExtractor.
 */

export type Occur = 'must' | 'filter' | 'should' | 'must_not';

export interface PositionedTerm {
  readonly term: string;
  readonly position: number;
}

export interface PositionedTerms {
  readonly terms: readonly string[];
  readonly position: number;
}

export type HighlightQuery =
  | { readonly type: 'term'; readonly field: string; readonly term: string }
  /** Lucene's SynonymQuery: terms at one position (stacked tokens of a match query). */
  | { readonly type: 'synonym'; readonly field: string; readonly terms: readonly string[] }
  | { readonly type: 'bool'; readonly clauses: readonly { readonly occur: Occur; readonly query: HighlightQuery }[] }
  | { readonly type: 'boost'; readonly query: HighlightQuery; readonly boost: number }
  | { readonly type: 'constant_score'; readonly query: HighlightQuery }
  | { readonly type: 'dis_max'; readonly queries: readonly HighlightQuery[] }
  | { readonly type: 'phrase'; readonly field: string; readonly terms: readonly PositionedTerm[]; readonly slop: number }
  /** Lucene's MultiPhraseQuery: several terms may stand at one position. */
  | { readonly type: 'multi_phrase'; readonly field: string; readonly terms: readonly PositionedTerms[]; readonly slop: number }
  /** ES's MultiPhrasePrefixQuery: the last position is a prefix expanded against the document's terms. */
  | { readonly type: 'phrase_prefix'; readonly field: string; readonly terms: readonly PositionedTerm[]; readonly slop: number; readonly maxExpansions: number }
  | { readonly type: 'prefix'; readonly field: string; readonly prefix: string; readonly caseInsensitive: boolean }
  | { readonly type: 'wildcard'; readonly field: string; readonly pattern: string; readonly caseInsensitive: boolean }
  | {
      readonly type: 'fuzzy';
      readonly field: string;
      readonly term: string;
      readonly maxEdits: number;
      readonly prefixLength: number;
      readonly maxExpansions: number;
      readonly transpositions: boolean;
    }
  /** Lucene's RegexpQuery (flags are not interpreted: Lucene's default syntax is assumed). */
  | {
      readonly type: 'regexp';
      readonly field: string;
      readonly pattern: string;
      readonly flags: number;
      readonly caseInsensitive: boolean;
    }
  /** Lucene's TermInSetQuery (a `terms` query). */
  | { readonly type: 'term_set'; readonly field: string; readonly terms: readonly string[] }
  /** ES's cross_fields blending: one term over several fields. */
  | { readonly type: 'blended_terms'; readonly terms: readonly { readonly field: string; readonly term: string; readonly boost: number }[] }
  | { readonly type: 'function_score'; readonly query: HighlightQuery }
  /** FunctionScoreQuery.boostByQuery: only the positive query is highlighted. */
  | { readonly type: 'boosting'; readonly positive: HighlightQuery; readonly negative: HighlightQuery }
  | { readonly type: 'named'; readonly name: string; readonly query: HighlightQuery }
  /** Queries that carry no highlightable terms. */
  | {
      readonly type:
        | 'match_all'
        | 'match_none'
        | 'term_range'
        | 'long_range'
        | 'double_range'
        | 'long_set'
        | 'double_set'
        | 'bytes_range'
        | 'field_exists';
    };

/** A query with its boost, omitting BoostQuery for 1 as ES's builders do. */
export function boosted(query: HighlightQuery, boost: number): HighlightQuery {
  return boost === 1 ? query : { type: 'boost', query, boost };
}

export const MATCH_NONE: HighlightQuery = { type: 'match_none' };
