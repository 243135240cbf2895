/**
 * Where the query matches the highlighted field's content, as the UnifiedHighlighter's offsets enum sees it.
 *
 * Weight-matches mode (ES 8.19's default when require_field_match is true): Lucene's Weight#matches on the
 * document. A phrase (exact or sloppy) is ONE match from its first to its last term; a boolean query
 * yields nothing when a required clause fails or a prohibited one matches, and only the clauses that match
 * contribute; every match has frequency 1 and scores under its query's terms joined with spaces. Clauses
 * on other fields cannot be evaluated from this field's value: they are taken as matching (the hit did
 * match the search query) when required and as not matching when prohibited.
 *
 * Term mode (require_field_match false, or weight matches switched off): every occurrence of a query term
 * is a match of its own, phrase terms only where the phrase matches (the span extraction the plain
 * highlighter uses), with the term's frequency in the document.
 */
import type { HighlightQuery, PositionedTerms } from '../highlight-query.js';
import { ListSpans, nearUnordered, type PositionRange } from '../spans.js';
import { checkPosition, ValueIndex, WeightedTermExtractor } from '../weighted-terms.js';
import { damerauLevenshtein, wildcardMatcher } from '../term-matchers.js';
import type { OffsetMatch } from './passages.js';

export interface ContentToken {
  readonly term: string;
  readonly position: number;
  readonly start: number;
  readonly end: number;
}

/** The content's tokens by term (MemoryIndex). */
export class ContentIndex {
  readonly byTerm = new Map<string, ContentToken[]>();
  readonly valueIndex = new ValueIndex();

  constructor(readonly tokens: readonly ContentToken[]) {
    for (const token of tokens) {
      const list = this.byTerm.get(token.term);
      if (list === undefined) this.byTerm.set(token.term, [token]);
      else list.push(token);
      this.valueIndex.add(token.term, token.position);
    }
  }

  at(term: string): readonly ContentToken[] {
    return this.byTerm.get(term) ?? [];
  }
}

/** true: matches with these hits; 'other': a clause on another field (unknown here); false: no match. */
type Outcome = { readonly matched: true; readonly hits: OffsetMatch[] } | { readonly matched: false } | { readonly matched: 'other' };

const NO_MATCH: Outcome = { matched: false };
const OTHER: Outcome = { matched: 'other' };

function hitsOf(tokens: readonly ContentToken[], term: string): Outcome {
  if (tokens.length === 0) return NO_MATCH;
  return { matched: true, hits: tokens.map((token) => ({ start: token.start, end: token.end, term, freq: 1 })) };
}

export class WeightMatcher {
  constructor(
    private readonly field: string,
    private readonly index: ContentIndex,
  ) {}

  /** The matches, in offset order; empty when the document does not match. */
  matches(query: HighlightQuery): OffsetMatch[] {
    const outcome = this.visit(query);
    return outcome.matched === true ? outcome.hits : [];
  }

  private visit(query: HighlightQuery): Outcome {
    switch (query.type) {
      case 'boost':
      case 'constant_score':
      case 'function_score':
      case 'named':
        return this.visit(query.query);
      case 'boosting':
        return this.visit(query.positive);
      case 'bool':
        return this.bool(query.clauses);
      case 'dis_max':
        return this.disjunction(query.queries.map((inner) => this.visit(inner)), 1);
      case 'match_all':
        return { matched: true, hits: [] };
      case 'match_none':
        return NO_MATCH;
      case 'term':
        return query.field !== this.field ? OTHER : hitsOf(this.index.at(query.term), query.term);
      case 'synonym': {
        if (query.field !== this.field) return OTHER;
        const key = query.terms.join(' ');
        return hitsOf(query.terms.flatMap((term) => this.index.at(term)), key);
      }
      case 'blended_terms': {
        const outcomes = query.terms.map((term) => (term.field !== this.field ? OTHER : hitsOf(this.index.at(term.term), term.term)));
        return this.disjunction(outcomes, 1);
      }
      case 'phrase':
        if (query.field !== this.field) return OTHER;
        return this.phrase(query.terms.map((term) => ({ terms: [term.term], position: term.position })), query.slop);
      case 'multi_phrase':
        return query.field !== this.field ? OTHER : this.phrase(query.terms, query.slop);
      case 'phrase_prefix': {
        if (query.field !== this.field) return OTHER;
        const last = query.terms[query.terms.length - 1];
        if (last === undefined) return NO_MATCH;
        const expansions = this.index.valueIndex
          .terms()
          .filter((term) => term.startsWith(last.term))
          .slice(0, query.maxExpansions);
        if (expansions.length === 0) return NO_MATCH;
        const leading: PositionedTerms[] = query.terms.slice(0, -1).map((term) => ({ terms: [term.term], position: term.position }));
        return this.phrase([...leading, { terms: expansions, position: last.position }], query.slop);
      }
      case 'prefix':
      case 'wildcard':
      case 'regexp':
      case 'fuzzy':
      case 'term_set':
        return query.field !== this.field ? OTHER : this.multiTerm(query);
      default:
        // Ranges, exists and the like: their fields are not this one.
        return OTHER;
    }
  }

  /** BooleanWeight.matches. */
  private bool(clauses: Extract<HighlightQuery, { type: 'bool' }>['clauses']): Outcome {
    const hits: OffsetMatch[] = [];
    let required = 0;
    let shouldCount = 0;
    let shouldMatched = 0;
    for (const clause of clauses) {
      const outcome = this.visit(clause.query);
      if (clause.occur === 'must_not') {
        if (outcome.matched === true) return NO_MATCH;
        continue;
      }
      if (clause.occur === 'must' || clause.occur === 'filter') {
        required++;
        if (outcome.matched === false) return NO_MATCH;
      } else {
        shouldCount++;
        if (outcome.matched !== false) shouldMatched++;
      }
      if (outcome.matched === true) hits.push(...outcome.hits);
    }
    // ES's bool query needs one should clause when it has no required clause.
    if (required === 0 && shouldCount > 0 && shouldMatched === 0) return NO_MATCH;
    return { matched: true, hits };
  }

  private disjunction(outcomes: readonly Outcome[], needed: number): Outcome {
    const hits: OffsetMatch[] = [];
    let matched = 0;
    let other = false;
    for (const outcome of outcomes) {
      if (outcome.matched === true) {
        matched++;
        hits.push(...outcome.hits);
      } else if (outcome.matched === 'other') other = true;
    }
    if (matched >= needed) return { matched: true, hits };
    return other ? OTHER : NO_MATCH;
  }

  /** PhraseQuery/MultiPhraseQuery matches: one span per phrase occurrence, keyed by all its terms. */
  private phrase(groups: readonly PositionedTerms[], slop: number): Outcome {
    if (groups.length === 0) return NO_MATCH;
    const key = groups.flatMap((group) => group.terms).join(' ');
    if (groups.length === 1) return hitsOf(groups[0]!.terms.flatMap((term) => this.index.at(term)), key);
    const tokensOf = (group: PositionedTerms): ContentToken[] => group.terms.flatMap((term) => this.index.at(term));
    const clauseTokens = groups.map(tokensOf);
    if (clauseTokens.some((tokens) => tokens.length === 0)) return NO_MATCH;
    const hits: OffsetMatch[] = [];
    if (slop === 0) {
      const first = groups[0]!.position;
      for (const anchor of clauseTokens[0]!) {
        const chosen: ContentToken[] = [anchor];
        let ok = true;
        for (let i = 1; i < groups.length && ok; i++) {
          const wanted = anchor.position + groups[i]!.position - first;
          const token = clauseTokens[i]!.find((candidate) => candidate.position === wanted);
          if (token === undefined) ok = false;
          else chosen.push(token);
        }
        if (ok) hits.push({ start: anchor.start, end: chosen[chosen.length - 1]!.end, term: key, freq: 1 });
      }
    } else {
      // Sloppy phrases as Lucene's span near query finds them (SloppyPhraseMatcher differs in corner cases).
      const gaps = Math.max(0, groups[groups.length - 1]!.position - groups[0]!.position - groups.length + 1);
      const spans = nearUnordered(
        clauseTokens.map((tokens) => ListSpans.union([dedupePositions(tokens)])),
        slop + gaps,
      );
      const all = clauseTokens.flat();
      for (const span of spans) {
        const inside = all.filter((token) => token.position >= span.start && token.position < span.end);
        hits.push({ start: Math.min(...inside.map((t) => t.start)), end: Math.max(...inside.map((t) => t.end)), term: key, freq: 1 });
      }
    }
    return hits.length === 0 ? NO_MATCH : { matched: true, hits };
  }

  private multiTerm(query: Extract<HighlightQuery, { type: 'prefix' | 'wildcard' | 'regexp' | 'fuzzy' | 'term_set' }>): Outcome {
    const matches = multiTermMatcher(query);
    const hits: OffsetMatch[] = [];
    for (const term of this.index.valueIndex.terms()) {
      if (!matches(term)) continue;
      // Fuzzy queries rewrite to term queries; the others stay one automaton query (keyed by its toString).
      const key = query.type === 'fuzzy' ? term : `${query.field}:${'prefix' in query ? query.prefix + '*' : 'pattern' in query ? query.pattern : query.terms.join(' ')}`;
      for (const token of this.index.at(term)) hits.push({ start: token.start, end: token.end, term: key, freq: 1 });
    }
    return hits.length === 0 ? NO_MATCH : { matched: true, hits };
  }
}

function dedupePositions(tokens: readonly ContentToken[]): PositionRange[] {
  const positions = [...new Set(tokens.map((token) => token.position))].sort((a, b) => a - b);
  return positions.map((position) => ({ start: position, end: position + 1 }));
}

function multiTermMatcher(query: Extract<HighlightQuery, { type: 'prefix' | 'wildcard' | 'regexp' | 'fuzzy' | 'term_set' }>): (term: string) => boolean {
  switch (query.type) {
    case 'prefix':
      return query.caseInsensitive ? (term) => term.toLowerCase().startsWith(query.prefix.toLowerCase()) : (term) => term.startsWith(query.prefix);
    case 'wildcard':
      return wildcardMatcher(query.pattern, query.caseInsensitive);
    case 'term_set': {
      const set = new Set(query.terms);
      return (term) => set.has(term);
    }
    case 'fuzzy':
      return (term) => {
        const prefix = [...query.term].slice(0, query.prefixLength);
        const candidate = [...term];
        if (prefix.some((char, i) => candidate[i] !== char)) return false;
        return damerauLevenshtein(candidate.slice(prefix.length), [...query.term].slice(prefix.length), query.transpositions) <= query.maxEdits;
      };
    case 'regexp': {
      // The term mode's extractor knows Lucene's regexp syntax; reuse it through a one-term index.
      return (term) => {
        const index = new ValueIndex();
        index.add(term, 0);
        return new WeightedTermExtractor(null, index).extract(query).size > 0;
      };
    }
  }
}

/** Term mode: each highlighted term occurrence, with its frequency in the content. */
export function termModeMatches(query: HighlightQuery, fieldName: string | null, index: ContentIndex): OffsetMatch[] {
  const terms = new WeightedTermExtractor(fieldName, index.valueIndex).extract(query);
  const matches: OffsetMatch[] = [];
  for (const [term, weighted] of terms) {
    const tokens = index.at(term);
    for (const token of tokens) {
      if (weighted.positionSensitive && !checkPosition(weighted, token.position)) continue;
      matches.push({ start: token.start, end: token.end, term, freq: tokens.length });
    }
  }
  return matches;
}

