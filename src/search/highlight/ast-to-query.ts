/**
 * Builds the highlighter's Lucene-shaped query from Gannet's query AST, the way ES's query builders turn
 * the DSL into Lucene queries, as far as highlighting can tell the difference: match queries analyze their
 * text with the field's search analyzer into term, synonym and boolean queries (fuzzy when asked);
 * match_phrase uses the search-quote analyzer and keeps positions (gaps from removed stop words included);
 * term-level queries keep their value (keyword fields through their normalizer; regexp patterns as given); non-text fields and queries
 * without terms (ranges, exists, ids, match_all) contribute nothing. query_string and simple_query_string
 * are not taken apart: they highlight nothing.
 */
import type { AnalysisRegistry, Analyzer } from '../../analysis/index.js';
import type { FieldBoost, Fuzziness, QueryAst, QueryValue } from '../dsl/ast/query-ast.js';
import type { FieldCatalog, MappedField } from '../fetch/field-catalog.js';
import { keywordTokenizerAnalyzer, registryOrGlobal, searchAnalyzer } from './field-analysis.js';
import { boosted, MATCH_NONE, type HighlightQuery, type PositionedTerm, type PositionedTerms } from './highlight-query.js';

export interface QueryBuildContext {
  readonly catalog: FieldCatalog;
  readonly analysis?: AnalysisRegistry;
}

interface AnalyzedToken {
  readonly term: string;
  readonly position: number;
}

function analyzeText(analyzer: Analyzer, text: string): AnalyzedToken[] {
  const stream = analyzer.tokenStream(text);
  const tokens: AnalyzedToken[] = [];
  let position = -1;
  while (stream.incrementToken()) {
    position += stream.token.positionIncrement;
    tokens.push({ term: stream.token.term, position });
  }
  stream.end();
  return tokens;
}

/** BytesRefs.toBytesRef(value).utf8ToString(): the value's toString. */
function valueText(value: QueryValue): string {
  return typeof value === 'string' ? value : String(value);
}

/** Fuzziness.asDistance: AUTO picks 0, 1 or 2 edits from the term length in code points. */
function fuzzyEdits(fuzziness: Fuzziness, term: string): number {
  if (fuzziness.kind === 'edits') return fuzziness.edits;
  const length = [...term].length;
  return length < fuzziness.low ? 0 : length < fuzziness.high ? 1 : 2;
}

function isTextLike(field: MappedField | undefined): field is MappedField {
  return field !== undefined && (field.options.type === 'text' || field.options.type === 'keyword');
}

/** KeywordFieldType.indexedValueForSearch: the value through the field's normalizer. */
function normalizeKeyword(field: MappedField, analysis: AnalysisRegistry | undefined, text: string): string {
  if (field.options.type !== 'keyword' || field.options.normalizer === null) return text;
  const normalizer = registryOrGlobal(analysis).findNormalizer(field.options.normalizer);
  if (normalizer === undefined) return text;
  return analyzeText(normalizer, text)
    .map((token) => token.term)
    .join('');
}

interface TermOptions {
  readonly fuzziness?: Fuzziness;
  readonly prefixLength?: number;
  readonly maxExpansions?: number;
  readonly transpositions?: boolean;
}

function termOrFuzzy(field: string, term: string, options: TermOptions): HighlightQuery {
  if (options.fuzziness === undefined) return { type: 'term', field, term };
  return {
    type: 'fuzzy',
    field,
    term,
    maxEdits: fuzzyEdits(options.fuzziness, term),
    prefixLength: options.prefixLength ?? 0,
    maxExpansions: options.maxExpansions ?? 50,
    transpositions: options.transpositions ?? true,
  };
}

/** Groups tokens by position: stacked tokens (increment 0) share one. */
function byPosition(tokens: readonly AnalyzedToken[]): PositionedTerms[] {
  const groups: PositionedTerms[] = [];
  for (const token of tokens) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.position === token.position) groups[groups.length - 1] = { terms: [...last.terms, token.term], position: last.position };
    else groups.push({ terms: [token.term], position: token.position });
  }
  return groups;
}

export class HighlightQueryBuilder {
  constructor(private readonly context: QueryBuildContext) {}

  build(query: QueryAst): HighlightQuery {
    return this.visit(query);
  }

  private field(name: string): MappedField | undefined {
    return this.context.catalog.get(name);
  }

  private visit(query: QueryAst): HighlightQuery {
    const built = this.visitUnboosted(query);
    const withBoost = 'boost' in query ? boosted(built, query.boost) : built;
    return query.name === undefined ? withBoost : { type: 'named', name: query.name, query: withBoost };
  }

  private visitUnboosted(query: QueryAst): HighlightQuery {
    switch (query.kind) {
      case 'bool':
        return {
          type: 'bool',
          clauses: [
            ...query.must.map((q) => ({ occur: 'must' as const, query: this.visit(q) })),
            ...query.should.map((q) => ({ occur: 'should' as const, query: this.visit(q) })),
            ...query.filter.map((q) => ({ occur: 'filter' as const, query: this.visit(q) })),
            ...query.mustNot.map((q) => ({ occur: 'must_not' as const, query: this.visit(q) })),
          ],
        };
      case 'constant_score':
        return { type: 'constant_score', query: this.visit(query.filter) };
      case 'dis_max':
        return { type: 'dis_max', queries: query.queries.map((q) => this.visit(q)) };
      case 'boosting':
        return { type: 'boosting', positive: this.visit(query.positive), negative: this.visit(query.negative) };
      case 'function_score':
        return { type: 'function_score', query: query.query === undefined ? { type: 'match_all' } : this.visit(query.query) };
      case 'term':
        return this.termQuery(query.field, valueText(query.value), query.caseInsensitive);
      case 'terms': {
        const field = this.field(query.field);
        if (!isTextLike(field)) return MATCH_NONE;
        return { type: 'term_set', field: field.name, terms: query.values.map((value) => normalizeKeyword(field, this.context.analysis, valueText(value))) };
      }
      case 'prefix': {
        const field = this.field(query.field);
        if (!isTextLike(field)) return MATCH_NONE;
        return { type: 'prefix', field: field.name, prefix: normalizeKeyword(field, this.context.analysis, query.value), caseInsensitive: query.caseInsensitive };
      }
      case 'wildcard': {
        const field = this.field(query.field);
        if (!isTextLike(field)) return MATCH_NONE;
        return { type: 'wildcard', field: field.name, pattern: normalizeKeyword(field, this.context.analysis, query.value), caseInsensitive: query.caseInsensitive };
      }
      case 'regexp': {
        const field = this.field(query.field);
        if (!isTextLike(field)) return MATCH_NONE;
        return { type: 'regexp', field: field.name, pattern: query.value, flags: query.flags, caseInsensitive: query.caseInsensitive };
      }
      case 'fuzzy': {
        const field = this.field(query.field);
        if (!isTextLike(field)) return MATCH_NONE;
        const term = normalizeKeyword(field, this.context.analysis, valueText(query.value));
        return termOrFuzzy(field.name, term, {
          fuzziness: query.fuzziness,
          prefixLength: query.prefixLength,
          maxExpansions: query.maxExpansions,
          transpositions: query.transpositions,
        });
      }
      case 'match':
        return this.matchQuery(query.field, valueText(query.query), query.analyzer, {
          fuzziness: query.fuzziness,
          prefixLength: query.prefixLength,
          maxExpansions: query.maxExpansions,
          transpositions: query.fuzzyTranspositions,
        });
      case 'match_phrase':
        return this.phraseQuery(query.field, valueText(query.query), query.analyzer, query.slop, undefined);
      case 'match_phrase_prefix':
        return this.phraseQuery(query.field, valueText(query.query), query.analyzer, query.slop, query.maxExpansions);
      case 'multi_match':
        return this.multiMatch(query);
      default:
        return { type: 'match_all' };
    }
  }

  private termQuery(fieldName: string, value: string, caseInsensitive: boolean): HighlightQuery {
    const field = this.field(fieldName);
    if (!isTextLike(field)) return MATCH_NONE;
    const term = field.options.type === 'keyword' ? normalizeKeyword(field, this.context.analysis, value) : value;
    // A case-insensitive term query is an automaton query: expanded like a wildcard with no wildcards.
    if (caseInsensitive) return { type: 'wildcard', field: field.name, pattern: term.replace(/[*?\\]/g, '\\$&'), caseInsensitive: true };
    return { type: 'term', field: field.name, term };
  }

  private analyzerFor(field: MappedField, quoted: boolean, named: string | undefined): Analyzer {
    return searchAnalyzer(field, this.context.analysis, quoted, named) ?? keywordTokenizerAnalyzer();
  }

  /** MatchQueryParser for `match` (boolean type). */
  private matchQuery(fieldName: string, text: string, analyzerName: string | undefined, options: TermOptions): HighlightQuery {
    const field = this.field(fieldName);
    if (!isTextLike(field)) return MATCH_NONE;
    const groups = byPosition(analyzeText(this.analyzerFor(field, false, analyzerName), text));
    const perPosition = groups.map((group): HighlightQuery => {
      if (group.terms.length === 1) return termOrFuzzy(field.name, group.terms[0]!, options);
      if (options.fuzziness !== undefined) return { type: 'bool', clauses: group.terms.map((term) => ({ occur: 'should' as const, query: termOrFuzzy(field.name, term, options) })) };
      return { type: 'synonym', field: field.name, terms: group.terms };
    });
    if (perPosition.length === 0) return MATCH_NONE;
    if (perPosition.length === 1) return perPosition[0]!;
    return { type: 'bool', clauses: perPosition.map((query) => ({ occur: 'should' as const, query })) };
  }

  /** MatchQueryParser for `match_phrase` (maxExpansions undefined) and `match_phrase_prefix`. */
  private phraseQuery(fieldName: string, text: string, analyzerName: string | undefined, slop: number, maxExpansions: number | undefined): HighlightQuery {
    const field = this.field(fieldName);
    if (!isTextLike(field)) return MATCH_NONE;
    const groups = byPosition(analyzeText(this.analyzerFor(field, true, analyzerName), text));
    if (groups.length === 0) return MATCH_NONE;
    if (maxExpansions !== undefined) {
      const terms: PositionedTerm[] = groups.map((group) => ({ term: group.terms[0]!, position: group.position }));
      return { type: 'phrase_prefix', field: field.name, terms, slop, maxExpansions };
    }
    if (groups.length === 1 && groups[0]!.terms.length === 1) return { type: 'term', field: field.name, term: groups[0]!.terms[0]! };
    if (groups.every((group) => group.terms.length === 1)) {
      return { type: 'phrase', field: field.name, terms: groups.map((group) => ({ term: group.terms[0]!, position: group.position })), slop };
    }
    return { type: 'multi_phrase', field: field.name, terms: groups, slop };
  }

  /** Resolves multi_match's fields (patterns included) to mapped text and keyword fields with their boosts. */
  private multiMatchFields(fields: readonly FieldBoost[]): FieldBoost[] {
    const patterns = fields.length === 0 ? [{ field: '*', boost: 1 }] : fields;
    const out: FieldBoost[] = [];
    for (const { field, boost } of patterns) {
      for (const name of this.context.catalog.matchingFieldNames(field)) {
        if (isTextLike(this.field(name))) out.push({ field: name, boost });
      }
    }
    return out;
  }

  private multiMatch(query: Extract<QueryAst, { kind: 'multi_match' }>): HighlightQuery {
    const text = valueText(query.query);
    const options: TermOptions = {
      fuzziness: query.fuzziness,
      prefixLength: query.prefixLength,
      maxExpansions: query.maxExpansions,
      transpositions: query.fuzzyTranspositions,
    };
    const perField = this.multiMatchFields(query.fields).map(({ field, boost }) => {
      let built: HighlightQuery;
      if (query.type === 'phrase') built = this.phraseQuery(field, text, query.analyzer, query.slop, undefined);
      else if (query.type === 'phrase_prefix') built = this.phraseQuery(field, text, query.analyzer, query.slop, query.maxExpansions);
      else built = this.matchQuery(field, text, query.analyzer, options);
      return boosted(built, boost);
    });
    if (perField.length === 1) return perField[0]!;
    if (query.type === 'most_fields' || query.type === 'bool_prefix') return { type: 'bool', clauses: perField.map((q) => ({ occur: 'should' as const, query: q })) };
    return { type: 'dis_max', queries: perField };
  }
}
