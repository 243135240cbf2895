/**
 * search/: the execution core. Queries (what the user asked, no index) become Weights (bound to a
 * searcher's statistics), which hand out Scorers (cursors over one segment); collectors keep the hits;
 * fetch helpers read `_id`/`_source` and doc values of the hits. This is what other layers may use.
 */

// searching
export { IndexSearcher, DEFAULT_MAX_CLAUSE_COUNT } from './searcher/index-searcher.js';
export type { IndexSearcherOptions, SearchOptions, SearchOutcome, StatisticsOverride, TopDocsOptions } from './searcher/index-searcher.js';
export { CANCELLATION_WINDOW } from './searcher/leaf-scoring.js';
export { TermStates } from './searcher/term-states.js';

// contracts
export { Query } from './core/query.js';
export { Weight } from './core/weight.js';
export { Scorer, type Scorable } from './core/scorer.js';
export { NO_MORE_DOCS, type DocIdSetIterator } from './core/doc-id-set-iterator.js';
export { needsScores, type ScoreMode } from './core/score-mode.js';
export type { LeafContext } from './core/leaf-context.js';
export { ConstantScoreWeight, ConstantScoreScorer } from './core/constant-score-weight.js';
export { Explanation, type ExplanationJson } from './explanation.js';
export { floatToJsonNumber, floatToString, nextUpFloat } from './float32.js';

// scoring
export { BM25Similarity, BM25SimScorer, type BM25Options } from './similarity/bm25.js';
export type { CollectionStatistics, SimScorer, Similarity, TermStatistics } from './similarity/similarity.js';

// queries
export { Term } from './query/term/term.js';
export { TermQuery } from './query/term/term-query.js';
export { BooleanQuery } from './query/boolean/boolean-query.js';
export type { BooleanClause, Occur } from './query/boolean/boolean-clause.js';
export { PhraseQuery, type PhraseOptions } from './query/phrase/phrase-query.js';
export { MatchAllDocsQuery } from './query/match-all-docs-query.js';
export { MatchNoDocsQuery } from './query/match-no-docs-query.js';
export { ConstantScoreQuery } from './query/constant-score-query.js';
export { BoostQuery } from './query/boost-query.js';
export { DisjunctionMaxQuery } from './query/dismax-query.js';
export { DocValuesRangeQuery } from './query/doc-values-range-query.js';
export { ExistsQuery } from './query/exists-query.js';
export { TermInSetQuery } from './query/multiterm/term-in-set-query.js';
export { MultiTermQuery } from './query/multiterm/multi-term-query.js';
export { PrefixQuery } from './query/multiterm/prefix-query.js';
export { WildcardQuery, type WildcardOptions } from './query/multiterm/wildcard-query.js';
export { RegexpQuery, type RegexpOptions } from './query/multiterm/regexp-query.js';
export { FuzzyQuery, autoFuzziness, DEFAULT_MAX_EXPANSIONS, type FuzzyOptions } from './query/multiterm/fuzzy-query.js';
export { parseRewriteMethod, CONSTANT_SCORE, type RewriteMethod } from './query/multiterm/rewrite-method.js';
export type { TermMatcher } from './query/multiterm/term-matcher.js';

// collecting
export type { Collector, LeafCollector } from './collect/collector.js';
export { TopScoreDocCollector } from './collect/top-score-doc-collector.js';
export { TopFieldCollector } from './collect/top-field-collector.js';
export { TotalHitCountCollector } from './collect/total-hit-count-collector.js';
export { MultiCollector } from './collect/multi-collector.js';
export {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  esTotalHits,
  type FieldDoc,
  type ScoreDoc,
  type SortValue,
  type TopDocs,
  type TotalHits,
  type TotalHitsRelation,
} from './collect/top-docs.js';
export type { NumericSortMode, SortField, SortOrder, SortSpec } from './collect/sort.js';

// fetching
export { loadStoredHits, type StoredHit, type StoredHitOptions } from './fetch/stored-hits.js';
export { displayStoredValue, storedFieldsOfMapping } from './fetch/stored-field-values.js';
export { numericValues, ordValues, type NumericValues, type OrdValues } from './fetch/doc-value-reader.js';
