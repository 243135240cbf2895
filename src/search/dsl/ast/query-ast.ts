/**
 * Gannet's query AST: one plain, immutable, serializable type per Elasticsearch query kind, holding exactly
 * what the ES JSON said once defaults are applied (Quickwit's query_ast idea). Nothing here knows an index:
 * resolving fields, analyzing text and converting values happen when the AST is built into a Lucene-shaped
 * query plan (../build/). Every node carries ES's common `boost` (a float32) and optional `_name`.
 */

/** A JSON scalar as ES keeps it: integers beyond 2^53 stay exact as bigint. */
export type QueryValue = string | number | bigint | boolean;

/** A JSON value (decay function parameters, raw subtrees). */
export type JsonValue = string | number | bigint | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export type Operator = 'or' | 'and';
export type ZeroTermsQuery = 'none' | 'all';

/** ES's Fuzziness: an edit distance, or AUTO with its length thresholds (default AUTO:3,6). */
export type Fuzziness = { readonly kind: 'edits'; readonly edits: 0 | 1 | 2 } | { readonly kind: 'auto'; readonly low: number; readonly high: number };

/** A field name or pattern with its boost, in request order ("title^2" -> {field: "title", boost: 2}). */
export interface FieldBoost {
  readonly field: string;
  readonly boost: number;
}

interface QueryBase {
  /** Multiplies the score; 1 unless given (ES's DEFAULT_BOOST). */
  readonly boost: number;
  /** `_name`: reported in `matched_queries`. */
  readonly name?: string;
}

export interface MatchAllQuery extends QueryBase {
  readonly kind: 'match_all';
}

export interface MatchNoneQuery extends QueryBase {
  readonly kind: 'match_none';
}

/** Options match and multi_match share for their analyzed boolean queries. */
interface FuzzyTextOptions {
  readonly fuzziness?: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  readonly fuzzyRewrite?: string;
}

export interface MatchQuery extends QueryBase, FuzzyTextOptions {
  readonly kind: 'match';
  readonly field: string;
  readonly query: QueryValue;
  readonly operator: Operator;
  readonly analyzer?: string;
  readonly minimumShouldMatch?: string;
  readonly lenient: boolean;
  readonly zeroTermsQuery: ZeroTermsQuery;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export interface MatchPhraseQuery extends QueryBase {
  readonly kind: 'match_phrase';
  readonly field: string;
  readonly query: QueryValue;
  readonly analyzer?: string;
  readonly slop: number;
  readonly zeroTermsQuery: ZeroTermsQuery;
}

export interface MatchPhrasePrefixQuery extends QueryBase {
  readonly kind: 'match_phrase_prefix';
  readonly field: string;
  readonly query: QueryValue;
  readonly analyzer?: string;
  readonly slop: number;
  readonly maxExpansions: number;
  readonly zeroTermsQuery: ZeroTermsQuery;
}

export type MultiMatchType = 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';

export interface MultiMatchQuery extends QueryBase, FuzzyTextOptions {
  readonly kind: 'multi_match';
  readonly query: QueryValue;
  /** Empty means `index.query.default_field` (`*`). */
  readonly fields: readonly FieldBoost[];
  readonly type: MultiMatchType;
  readonly operator: Operator;
  readonly analyzer?: string;
  readonly slop: number;
  readonly minimumShouldMatch?: string;
  readonly tieBreaker?: number;
  /** Undefined means "not set": true when querying all fields, false otherwise. */
  readonly lenient?: boolean;
  readonly zeroTermsQuery: ZeroTermsQuery;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export interface TermQuery extends QueryBase {
  readonly kind: 'term';
  readonly field: string;
  readonly value: QueryValue;
  readonly caseInsensitive: boolean;
}

export interface TermsQuery extends QueryBase {
  readonly kind: 'terms';
  readonly field: string;
  readonly values: readonly QueryValue[];
}

export type RangeRelation = 'intersects' | 'contains' | 'within';

export interface RangeQuery extends QueryBase {
  readonly kind: 'range';
  readonly field: string;
  /** Lower bound; undefined = unbounded. */
  readonly from?: QueryValue;
  readonly to?: QueryValue;
  readonly includeLower: boolean;
  readonly includeUpper: boolean;
  readonly format?: string;
  readonly timeZone?: string;
  readonly relation?: RangeRelation;
}

export interface ExistsQuery extends QueryBase {
  readonly kind: 'exists';
  readonly field: string;
}

export interface PrefixQuery extends QueryBase {
  readonly kind: 'prefix';
  readonly field: string;
  readonly value: string;
  readonly rewrite?: string;
  readonly caseInsensitive: boolean;
}

export interface WildcardQuery extends QueryBase {
  readonly kind: 'wildcard';
  readonly field: string;
  readonly value: string;
  readonly rewrite?: string;
  readonly caseInsensitive: boolean;
}

export interface RegexpQuery extends QueryBase {
  readonly kind: 'regexp';
  readonly field: string;
  readonly value: string;
  /** RegexpFlag bits (Lucene's RegExp.ALL = 0xff by default). */
  readonly flags: number;
  readonly maxDeterminizedStates: number;
  readonly rewrite?: string;
  readonly caseInsensitive: boolean;
}

export interface FuzzyQuery extends QueryBase {
  readonly kind: 'fuzzy';
  readonly field: string;
  readonly value: QueryValue;
  readonly fuzziness: Fuzziness;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
  readonly rewrite?: string;
}

export interface IdsQuery extends QueryBase {
  readonly kind: 'ids';
  readonly values: readonly string[];
}

export interface BoolQuery extends QueryBase {
  readonly kind: 'bool';
  readonly must: readonly QueryAst[];
  readonly filter: readonly QueryAst[];
  readonly should: readonly QueryAst[];
  readonly mustNot: readonly QueryAst[];
  readonly minimumShouldMatch?: string;
  readonly adjustPureNegative: boolean;
}

export interface ConstantScoreQuery extends QueryBase {
  readonly kind: 'constant_score';
  readonly filter: QueryAst;
}

export interface DisMaxQuery extends QueryBase {
  readonly kind: 'dis_max';
  readonly queries: readonly QueryAst[];
  readonly tieBreaker: number;
}

export interface BoostingQuery extends QueryBase {
  readonly kind: 'boosting';
  readonly positive: QueryAst;
  readonly negative: QueryAst;
  readonly negativeBoost: number;
}

export type FunctionScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type BoostMode = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';
export type FieldValueModifier = 'none' | 'log' | 'log1p' | 'log2p' | 'ln' | 'ln1p' | 'ln2p' | 'square' | 'sqrt' | 'reciprocal';
export type DecayShape = 'gauss' | 'linear' | 'exp';
export type MultiValueMode = 'min' | 'max' | 'avg' | 'sum' | 'median';

export type ScoreFunction =
  | { readonly type: 'weight' }
  | {
      readonly type: 'field_value_factor';
      readonly field: string;
      readonly factor: number;
      readonly modifier: FieldValueModifier;
      readonly missing?: number;
    }
  | {
      readonly type: 'decay';
      readonly shape: DecayShape;
      readonly field: string;
      /** The field's decay parameters (origin, scale, offset, decay) as given; ES reads them per field type when building. */
      readonly params: { readonly [key: string]: JsonValue };
      readonly multiValueMode: MultiValueMode;
    };

export interface FilterFunction {
  /** Undefined means every document (match_all). */
  readonly filter?: QueryAst;
  readonly function: ScoreFunction;
  /** A weight multiplies the function's score; a bare `weight` function is only this. */
  readonly weight?: number;
}

export interface FunctionScoreQuery extends QueryBase {
  readonly kind: 'function_score';
  /** Undefined means match_all. */
  readonly query?: QueryAst;
  readonly functions: readonly FilterFunction[];
  readonly scoreMode: FunctionScoreMode;
  /** Undefined means not set (ES's default, multiply). */
  readonly boostMode?: BoostMode;
  readonly maxBoost: number;
  readonly minScore?: number;
}

export interface QueryStringQuery extends QueryBase {
  readonly kind: 'query_string';
  readonly query: string;
  readonly defaultField?: string;
  /** Undefined when `fields` was not given. */
  readonly fields?: readonly FieldBoost[];
  readonly defaultOperator: Operator;
  readonly analyzer?: string;
  readonly quoteAnalyzer?: string;
  readonly quoteFieldSuffix?: string;
  readonly allowLeadingWildcard?: boolean;
  readonly analyzeWildcard?: boolean;
  readonly enablePositionIncrements: boolean;
  readonly escape: boolean;
  readonly fuzziness: Fuzziness;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyRewrite?: string;
  readonly fuzzyTranspositions: boolean;
  readonly phraseSlop: number;
  readonly type: MultiMatchType;
  readonly tieBreaker?: number;
  readonly rewrite?: string;
  readonly minimumShouldMatch?: string;
  readonly lenient?: boolean;
  readonly timeZone?: string;
  readonly maxDeterminizedStates: number;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export interface SimpleQueryStringQuery extends QueryBase {
  readonly kind: 'simple_query_string';
  readonly query: string;
  /** Empty means `index.query.default_field`. */
  readonly fields: readonly FieldBoost[];
  readonly defaultOperator: Operator;
  readonly analyzer?: string;
  /** SimpleQueryStringFlag bits (ALL = -1). */
  readonly flags: number;
  readonly lenient?: boolean;
  readonly analyzeWildcard: boolean;
  readonly quoteFieldSuffix?: string;
  readonly minimumShouldMatch?: string;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  readonly autoGenerateSynonymsPhraseQuery: boolean;
}

export type QueryAst =
  | MatchAllQuery
  | MatchNoneQuery
  | MatchQuery
  | MatchPhraseQuery
  | MatchPhrasePrefixQuery
  | MultiMatchQuery
  | TermQuery
  | TermsQuery
  | RangeQuery
  | ExistsQuery
  | PrefixQuery
  | WildcardQuery
  | RegexpQuery
  | FuzzyQuery
  | IdsQuery
  | BoolQuery
  | ConstantScoreQuery
  | DisMaxQuery
  | BoostingQuery
  | FunctionScoreQuery
  | QueryStringQuery
  | SimpleQueryStringQuery;

export type QueryKind = QueryAst['kind'];

/** The query kinds Gannet parses, in ES's names. */
export const QUERY_KINDS: readonly QueryKind[] = [
  'match_all',
  'match_none',
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'multi_match',
  'term',
  'terms',
  'range',
  'exists',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'ids',
  'bool',
  'constant_score',
  'dis_max',
  'boosting',
  'function_score',
  'query_string',
  'simple_query_string',
];

/** ES's defaults (FuzzyQuery.defaultMaxExpansions etc.), shared by parsers and builders. */
export const DEFAULTS = {
  boost: 1,
  prefixLength: 0,
  maxExpansions: 50,
  fuzzyTranspositions: true,
  slop: 0,
  maxDeterminizedStates: 10000,
  regexpFlags: 0xff,
  simpleQueryStringFlags: -1,
  tieBreaker: 0,
  maxBoost: Math.fround(3.4028234663852886e38),
  autoFuzziness: { kind: 'auto', low: 3, high: 6 } as Fuzziness,
} as const;
