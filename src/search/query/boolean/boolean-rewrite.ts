/**
 * BooleanQuery's rewrite rules, as Lucene 9 applies them (one rule per call; the searcher rewrites again
 * until nothing changes). Each rule keeps the matching documents and, up to float rounding where Lucene
 * itself accepts it (summed boosts of duplicate clauses), the scores.
 */
import type { Query } from '../../core/query.js';
import type { IndexSearcher } from '../../searcher/index-searcher.js';
import { BoostQuery } from '../boost-query.js';
import { ConstantScoreQuery } from '../constant-score-query.js';
import { MatchAllDocsQuery } from '../match-all-docs-query.js';
import { MatchNoDocsQuery } from '../match-no-docs-query.js';
import type { BooleanClause, Occur } from './boolean-clause.js';
import { BooleanQuery } from './boolean-query.js';

type Rule = (query: BooleanQuery, searcher: IndexSearcher) => Query | null;

const RULES: readonly Rule[] = [
  trivialShapes,
  rewriteClauses,
  dropDuplicateNonScoringClauses,
  requiredAndExcluded,
  redundantFilters,
  filterThatIsAlsoShould,
  (query) => (query.minimumShouldMatch <= 1 ? mergeDuplicates(query, 'should') : null),
  (query) => mergeDuplicates(query, 'must'),
  matchAllWithFilters,
  flattenNestedDisjunctions,
  shouldCountAgainstMinimum,
];

export function rewriteBoolean(query: BooleanQuery, searcher: IndexSearcher): Query {
  for (const rule of RULES) {
    const rewritten = rule(query, searcher);
    if (rewritten !== null) return rewritten;
  }
  return query;
}

function contains(queries: readonly Query[], query: Query): boolean {
  return queries.some((candidate) => candidate.equals(query));
}

function trivialShapes(query: BooleanQuery): Query | null {
  const clauses = query.clauses;
  if (clauses.length === 0) return new MatchNoDocsQuery('empty BooleanQuery');
  if (clauses.every((clause) => clause.occur === 'must_not')) return new MatchNoDocsQuery('pure negative BooleanQuery');
  if (clauses.length === 1) {
    const clause = clauses[0]!;
    if (query.minimumShouldMatch === 1 && clause.occur === 'should') return clause.query;
    if (query.minimumShouldMatch === 0) {
      if (clause.occur === 'should' || clause.occur === 'must') return clause.query;
      // A lone filter: no scoring clause, so every match scores 0.
      if (clause.occur === 'filter') return new BoostQuery(new ConstantScoreQuery(clause.query), 0);
    }
  }
  return null;
}

/** Rewrites every clause; a clause that matches nothing empties a required slot or disappears. */
function rewriteClauses(query: BooleanQuery, searcher: IndexSearcher): Query | null {
  let changed = false;
  const clauses: BooleanClause[] = [];
  for (const clause of query.clauses) {
    let rewritten: Query;
    if (clause.occur === 'filter' || clause.occur === 'must_not') {
      // Clauses that do not score can take the no-scoring simplifications.
      rewritten = new ConstantScoreQuery(clause.query).rewrite(searcher);
      if (rewritten instanceof ConstantScoreQuery) rewritten = rewritten.query;
    } else {
      rewritten = clause.query.rewrite(searcher);
    }
    if (rewritten === clause.query && !(clause.query instanceof MatchNoDocsQuery)) {
      clauses.push(clause);
      continue;
    }
    changed = true;
    if (rewritten instanceof MatchNoDocsQuery) {
      if (clause.occur === 'must' || clause.occur === 'filter') return rewritten;
      continue; // a should or must_not clause that matches nothing changes nothing
    }
    clauses.push({ query: rewritten, occur: clause.occur });
  }
  return changed ? new BooleanQuery(clauses, query.minimumShouldMatch) : null;
}

function dropDuplicateNonScoringClauses(query: BooleanQuery): Query | null {
  const kept: BooleanClause[] = [];
  for (const clause of query.clauses) {
    const nonScoring = clause.occur === 'filter' || clause.occur === 'must_not';
    if (nonScoring && kept.some((other) => other.occur === clause.occur && other.query.equals(clause.query))) continue;
    kept.push(clause);
  }
  return kept.length !== query.clauses.length ? new BooleanQuery(kept, query.minimumShouldMatch) : null;
}

function unwrapScoring(query: Query): Query {
  let unwrapped = query;
  if (unwrapped instanceof BoostQuery) unwrapped = unwrapped.query;
  if (unwrapped instanceof ConstantScoreQuery) unwrapped = unwrapped.query;
  return unwrapped;
}

function requiredAndExcluded(query: BooleanQuery): Query | null {
  const mustNot = query.clausesOf('must_not');
  if (mustNot.length === 0) return null;
  const must = query.clausesOf('must');
  const filter = query.clausesOf('filter');
  if (mustNot.some((excluded) => contains(must, excluded) || contains(filter, excluded))) {
    return new MatchNoDocsQuery('FILTER or MUST clause also in MUST_NOT');
  }
  for (const required of must) {
    const unwrapped = unwrapScoring(required);
    if (unwrapped !== required && contains(mustNot, unwrapped)) return new MatchNoDocsQuery('MUST clause also in MUST_NOT');
  }
  if (mustNot.some((excluded) => excluded instanceof MatchAllDocsQuery)) return new MatchNoDocsQuery('MUST_NOT clause is MatchAllDocsQuery');
  return null;
}

/** Filters that repeat a must clause, or match everything while something else restricts, are redundant. */
function redundantFilters(query: BooleanQuery): Query | null {
  const filters = query.clausesOf('filter');
  if (filters.length === 0) return null;
  const must = query.clausesOf('must');
  const dropMatchAll = filters.length > 1 || must.length > 0;
  const kept = filters.filter((filter) => !(dropMatchAll && filter instanceof MatchAllDocsQuery) && !contains(must, filter));
  if (kept.length === filters.length) return null;
  const clauses = query.clauses.filter((clause) => clause.occur !== 'filter');
  for (const filter of kept) clauses.push({ query: filter, occur: 'filter' });
  return new BooleanQuery(clauses, query.minimumShouldMatch);
}

/** A should clause that is also a filter must match anyway: it becomes a must clause. */
function filterThatIsAlsoShould(query: BooleanQuery): Query | null {
  const filters = query.clausesOf('filter');
  const shoulds = query.clausesOf('should');
  if (filters.length === 0 || shoulds.length === 0) return null;
  const both = filters.filter((filter) => contains(shoulds, filter));
  if (both.length === 0) return null;
  let minimumShouldMatch = query.minimumShouldMatch;
  const clauses: BooleanClause[] = [];
  for (const clause of query.clauses) {
    if (!contains(both, clause.query)) {
      clauses.push(clause);
    } else if (clause.occur === 'should') {
      clauses.push({ query: clause.query, occur: 'must' });
      minimumShouldMatch--;
    }
  }
  return new BooleanQuery(clauses, Math.max(0, minimumShouldMatch));
}

/** From this many clauses, duplicates are looked for by hash (equal queries have equal hashCode()). */
const HASHED_DUPLICATE_SEARCH_FROM = 32;

/** Repeated scoring clauses become one clause whose boost is the sum of theirs. */
function mergeDuplicates(query: BooleanQuery, occur: Occur): Query | null {
  const clauses = query.clausesOf(occur);
  if (clauses.length < 2) return null;
  const merged: Array<{ query: Query; boost: number }> = [];
  // Many clauses (a fuzzy match over 200 words expands to thousands of terms) are bucketed by hashCode()
  // first: comparing each with every other one was quadratic and held the loop for tens of milliseconds.
  const byHash = clauses.length > HASHED_DUPLICATE_SEARCH_FROM ? new Map<number, Array<{ query: Query; boost: number }>>() : undefined;
  for (const clause of clauses) {
    let inner = clause;
    let boost = 1;
    while (inner instanceof BoostQuery) {
      boost *= inner.boost;
      inner = inner.query;
    }
    let candidates: Array<{ query: Query; boost: number }> = merged;
    if (byHash !== undefined) {
      const hash = inner.hashCode();
      let bucket = byHash.get(hash);
      if (bucket === undefined) byHash.set(hash, (bucket = []));
      candidates = bucket;
    }
    const existing = candidates.find((entry) => entry.query.equals(inner));
    if (existing !== undefined) {
      existing.boost += boost;
      continue;
    }
    const added = { query: inner, boost };
    merged.push(added);
    if (candidates !== merged) candidates.push(added);
  }
  if (merged.length === clauses.length) return null;
  const rebuilt: BooleanClause[] = merged.map(({ query: inner, boost }) => ({
    query: Math.fround(boost) === 1 ? inner : new BoostQuery(inner, boost),
    occur,
  }));
  for (const clause of query.clauses) if (clause.occur !== occur) rebuilt.push(clause);
  return new BooleanQuery(rebuilt, query.minimumShouldMatch);
}

/** A single scoring must on match-all plus filters: the filters, scored by the must clause's boost. */
function matchAllWithFilters(query: BooleanQuery): Query | null {
  const must = query.clausesOf('must');
  if (must.length !== 1 || query.clausesOf('filter').length === 0) return null;
  let scoring = must[0]!;
  let boost = 1;
  if (scoring instanceof BoostQuery) {
    boost = scoring.boost;
    scoring = scoring.query;
  }
  if (!(scoring instanceof MatchAllDocsQuery)) return null;
  const nonScoring = query.clauses.filter((clause) => clause.occur === 'filter' || clause.occur === 'must_not');
  let constant: Query = new ConstantScoreQuery(new BooleanQuery(nonScoring));
  if (boost !== 1) constant = new BoostQuery(constant, boost);
  const clauses: BooleanClause[] = [{ query: constant, occur: 'must' }];
  for (const should of query.clausesOf('should')) clauses.push({ query: should, occur: 'should' });
  return new BooleanQuery(clauses, query.minimumShouldMatch);
}

/** Should clauses that are themselves plain disjunctions are inlined, so WAND sees every term. */
function flattenNestedDisjunctions(query: BooleanQuery): Query | null {
  if (query.minimumShouldMatch > 1) return null;
  let changed = false;
  const clauses: BooleanClause[] = [];
  for (const clause of query.clauses) {
    if (clause.occur === 'should' && clause.query instanceof BooleanQuery && clause.query.isPureDisjunction()) {
      changed = true;
      clauses.push(...clause.query.clauses);
    } else {
      clauses.push(clause);
    }
  }
  return changed ? new BooleanQuery(clauses, query.minimumShouldMatch) : null;
}

function shouldCountAgainstMinimum(query: BooleanQuery): Query | null {
  const shoulds = query.clausesOf('should').length;
  if (shoulds < query.minimumShouldMatch) return new MatchNoDocsQuery('SHOULD clause count less than minimumNumberShouldMatch');
  if (shoulds > 0 && shoulds === query.minimumShouldMatch) {
    return new BooleanQuery(
      query.clauses.map((clause) => (clause.occur === 'should' ? { query: clause.query, occur: 'must' as const } : clause)),
      0,
    );
  }
  return null;
}
