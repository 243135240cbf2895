/**
 * Lucene's WeightedSpanTermExtractor (with ES's CustomQueryScorer additions), run against one value of the
 * highlighted field: which terms are highlighted, with what weight, and whether only inside the spans where
 * a phrase actually matched (position-sensitive). Term queries highlight every occurrence; a phrase
 * highlights its terms only where the phrase matches in this value (and nothing when it does not); multi-term
 * queries (prefix, wildcard, fuzzy, terms) expand against the value's own terms. With require_field_match
 * (fieldName set) only the highlighted field's queries count; without it every query counts, and phrases are
 * matched against this field's tokens.
 */
import type { HighlightQuery, PositionedTerm, PositionedTerms } from './highlight-query.js';
import { ListSpans, nearOrdered, nearUnordered, NO_MORE_POSITIONS, type PositionRange } from './spans.js';
import { damerauLevenshtein, wildcardMatcher } from './term-matchers.js';
import { luceneRegExp } from '../aggregations/support/lucene-regexp.js';

export interface WeightedSpanTerm {
  weight: number;
  positionSensitive: boolean;
  /** Matched phrase spans, as [start, end] positions inclusive (Lucene's PositionSpan). */
  readonly positionSpans: PositionRange[];
}

/** The analyzed value as Lucene's MemoryIndex holds it: positions per term, terms in sorted order. */
export class ValueIndex {
  readonly positions = new Map<string, number[]>();
  private sortedTerms: string[] | undefined;

  add(term: string, position: number): void {
    const list = this.positions.get(term);
    if (list === undefined) this.positions.set(term, [position]);
    else list.push(position);
  }

  /** Terms in index order (Lucene sorts by UTF-8 bytes; UTF-16 order agrees outside surrogate pairs). */
  terms(): string[] {
    this.sortedTerms ??= [...this.positions.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.sortedTerms;
  }
}

/** WeightedSpanTerm.checkPosition. */
export function checkPosition(term: WeightedSpanTerm, position: number): boolean {
  return term.positionSpans.some((span) => position >= span.start && position <= span.end);
}

const float = Math.fround;

export class WeightedTermExtractor {
  private readonly terms = new Map<string, WeightedSpanTerm>();

  constructor(
    /** The field being highlighted, or null when require_field_match is off. */
    private readonly fieldName: string | null,
    private readonly index: ValueIndex,
  ) {}

  extract(query: HighlightQuery): Map<string, WeightedSpanTerm> {
    this.visit(query, 1);
    return this.terms;
  }

  private fieldMatches(field: string): boolean {
    return this.fieldName === null || this.fieldName === field;
  }

  /** PositionCheckingMap.put: a term once seen position-insensitive stays insensitive. */
  private put(text: string, term: WeightedSpanTerm): void {
    const previous = this.terms.get(text);
    this.terms.set(text, term);
    if (previous !== undefined && !previous.positionSensitive) term.positionSensitive = false;
  }

  private visit(query: HighlightQuery, boost: number): void {
    switch (query.type) {
      case 'boost':
        return this.visit(query.query, float(boost * query.boost));
      case 'bool':
        for (const clause of query.clauses) if (clause.occur !== 'must_not') this.visit(clause.query, boost);
        return;
      case 'constant_score':
      case 'function_score':
      case 'named':
        return this.visit(query.query, boost);
      case 'boosting':
        return this.visit(query.positive, boost);
      case 'dis_max':
        for (const inner of query.queries) this.visit(inner, boost);
        return;
      case 'term':
        return this.weightedTerms(query.field, [query.term], boost);
      case 'synonym':
        return this.weightedTerms(query.field, query.terms, boost);
      case 'blended_terms':
        // ES rewrites the blended query into boosted term queries before extraction.
        for (const term of query.terms) this.weightedTerms(term.field, [term.term], float(boost * term.boost));
        return;
      case 'phrase':
        return this.phrase(query.field, query.terms, query.slop, boost);
      case 'multi_phrase':
        return this.multiPhrase(query.field, query.terms, query.slop, boost);
      case 'phrase_prefix':
        return this.phrasePrefix(query, boost);
      case 'prefix':
      case 'wildcard':
      case 'regexp':
      case 'fuzzy':
      case 'term_set':
        return this.multiTerm(query, boost);
      default:
        return;
    }
  }

  /** extractWeightedTerms: every query term of a matching field, position-insensitive. */
  private weightedTerms(field: string, texts: readonly string[], boost: number): void {
    if (!this.fieldMatches(field)) return;
    for (const text of new Set(texts)) this.put(text, { weight: boost, positionSensitive: false, positionSpans: [] });
  }

  private termSpans(term: string): ListSpans {
    return ListSpans.ofPositions(this.index.positions.get(term) ?? []);
  }

  /** extractWeightedSpanTerms for a span query given as its clauses (each a disjunction of terms). */
  private spanTerms(field: string, clauses: readonly (readonly string[])[], slop: number, inOrder: boolean, boost: number): void {
    if (this.fieldName !== null && this.fieldName !== field) return;
    const allTerms = new Set(clauses.flat());
    if (allTerms.size === 0) return;
    const clauseSpans = clauses.map((terms) =>
      terms.length === 1 ? this.termSpans(terms[0]!) : ListSpans.union(terms.map((term) => (this.index.positions.get(term) ?? []).map((p) => ({ start: p, end: p + 1 })))),
    );
    let spans: PositionRange[];
    if (clauseSpans.some((clause) => clause.isEmpty)) spans = [];
    else if (clauseSpans.length === 1) spans = drain(clauseSpans[0]!);
    else spans = inOrder ? nearOrdered(clauseSpans, slop) : nearUnordered(clauseSpans, slop);
    if (spans.length === 0) return;
    const positionSpans = spans.map((span) => ({ start: span.start, end: span.end - 1 }));
    for (const text of allTerms) {
      const existing = this.terms.get(text);
      if (existing === undefined) this.put(text, { weight: boost, positionSensitive: true, positionSpans: [...positionSpans] });
      else existing.positionSpans.push(...positionSpans);
    }
  }

  /** PhraseQuery: one term is a SpanTermQuery; several a SpanNearQuery with the position gaps added to the slop. */
  private phrase(field: string, terms: readonly PositionedTerm[], slop: number, boost: number): void {
    if (terms.length === 1) return this.spanTerms(field, [[terms[0]!.term]], 0, true, boost);
    if (terms.length === 0) return;
    const first = terms[0]!.position;
    const last = terms[terms.length - 1]!.position;
    const positionGaps = Math.max(0, last - first - terms.length + 1);
    this.spanTerms(field, terms.map((term) => [term.term]), slop + positionGaps, slop === 0, boost);
  }

  /** MultiPhraseQuery: a SpanOrQuery per position; empty positions (from 0) count as gaps. */
  private multiPhrase(field: string, terms: readonly PositionedTerms[], slop: number, boost: number): void {
    if (terms.length === 0) return;
    const maxPosition = Math.max(...terms.map((entry) => entry.position));
    const byPosition: (string[] | undefined)[] = new Array(maxPosition + 1).fill(undefined);
    for (const entry of terms) {
      const list = (byPosition[entry.position] ??= []);
      list.push(...entry.terms);
    }
    let positionGaps = 0;
    const clauses: string[][] = [];
    for (const list of byPosition) {
      if (list === undefined) positionGaps++;
      else clauses.push(list);
    }
    if (clauses.length === 1) return this.spanTerms(field, clauses, 0, true, boost);
    this.spanTerms(field, clauses, slop + positionGaps, slop === 0, boost);
  }

  /**
   * MultiPhrasePrefixQuery.rewrite against the value's terms: the last position's prefix expands to at most
   * max_expansions terms; with no expansion the remaining phrase is still extracted (ES keeps it in a bool).
   */
  private phrasePrefix(query: Extract<HighlightQuery, { type: 'phrase_prefix' }>, boost: number): void {
    if (query.terms.length === 0) return;
    const last = query.terms[query.terms.length - 1]!;
    const expansions: string[] = [];
    for (const term of this.index.terms()) {
      if (expansions.length >= query.maxExpansions) break;
      if (term.startsWith(last.term)) expansions.push(term);
    }
    const leading: PositionedTerms[] = query.terms.slice(0, -1).map((term) => ({ terms: [term.term], position: term.position }));
    if (expansions.length === 0) {
      if (leading.length > 0) this.multiPhrase(query.field, leading, query.slop, boost);
      return;
    }
    this.multiPhrase(query.field, [...leading, { terms: expansions, position: last.position }], query.slop, boost);
  }

  /** MultiTermQuery with SCORING_BOOLEAN_REWRITE against the value's terms: boosted term queries. */
  private multiTerm(query: MultiTermQuery, boost: number): void {
    if (!this.fieldMatches(query.field)) return;
    const matches = termMatcher(query);
    for (const term of this.index.terms()) {
      const termBoost = matches(term);
      if (termBoost !== undefined) this.weightedTerms(query.field, [term], float(boost * termBoost));
    }
  }
}

function drain(spans: ListSpans): PositionRange[] {
  const out: PositionRange[] = [];
  while (spans.nextStartPosition() !== NO_MORE_POSITIONS) out.push({ start: spans.startPosition(), end: spans.endPosition() });
  return out;
}

type MultiTermQuery = Extract<HighlightQuery, { type: 'prefix' | 'wildcard' | 'regexp' | 'fuzzy' | 'term_set' }>;

/** The regexp a RegexpQuery's pattern denotes; a pattern Gannet cannot translate matches nothing. */
function regexpMatcher(pattern: string, caseInsensitive: boolean): (term: string) => boolean {
  try {
    const regexp = luceneRegExp(pattern);
    const compiled = caseInsensitive ? new RegExp(regexp.source, regexp.flags + 'i') : regexp;
    return (term) => compiled.test(term);
  } catch {
    return () => false;
  }
}

/** Whether a document term matches a multi-term query, and the boost Lucene's terms enum gives it. */
function termMatcher(query: MultiTermQuery): (term: string) => number | undefined {
  switch (query.type) {
    case 'prefix': {
      const prefix = query.caseInsensitive ? query.prefix.toLowerCase() : query.prefix;
      return (term) => ((query.caseInsensitive ? term.toLowerCase() : term).startsWith(prefix) ? 1 : undefined);
    }
    case 'wildcard': {
      const matches = wildcardMatcher(query.pattern, query.caseInsensitive);
      return (term) => (matches(term) ? 1 : undefined);
    }
    case 'regexp': {
      const matches = regexpMatcher(query.pattern, query.caseInsensitive);
      return (term) => (matches(term) ? 1 : undefined);
    }
    case 'term_set': {
      const terms = new Set(query.terms);
      return (term) => (terms.has(term) ? 1 : undefined);
    }
    case 'fuzzy':
      return (term) => fuzzyBoost(query, term);
  }
}

function fuzzyBoost(query: Extract<HighlightQuery, { type: 'fuzzy' }>, term: string): number | undefined {
  const candidate = [...term];
  const target = [...query.term];
  const prefix = target.slice(0, query.prefixLength);
  if (candidate.length < prefix.length || prefix.some((char, i) => candidate[i] !== char)) return undefined;
  const distance = damerauLevenshtein(candidate.slice(prefix.length), target.slice(prefix.length), query.transpositions);
  if (distance > query.maxEdits) return undefined;
  if (distance === 0) return 1;
  // FuzzyTermsEnum: similarity = 1 - ed / min(candidate length, query term length), in code points.
  return float(1 - distance / Math.min(candidate.length, target.length));
}
