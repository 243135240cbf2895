/**
 * ES's MatchQueryParser (with Lucene's QueryBuilder underneath): analyze the text with the field's search
 * analyzer, then make a term query for one token, a boolean query of per-position clauses for several
 * (SHOULD for operator OR, MUST for AND), a phrase for quoted/phrase types, a phrase-prefix for the
 * prefix types. Fields whose analyzer is Lucene's keyword analyzer take the text as one term, which their
 * field type parses (numbers, dates, booleans). Returns null when analysis leaves nothing and the caller
 * asked for null zero-terms handling (query_string).
 */
import type { Analyzer } from '../../../analysis/index.js';
import { EsError } from '../../../common/errors.js';
import type { Fuzziness, QueryValue } from '../ast/query-ast.js';
import type { BuildContext } from './build-context.js';
import type { MappedField } from './field-lookup.js';
import { checkPhraseSupport, fuzzyQuery, prefixQuery, termQuery } from './field-queries.js';
import { bool, MATCH_ALL, matchNone, withRewrite, type Occur, type PlanClause, type PlanQuery, type PositionedTerm } from './query-plan.js';
import { analyze, searchAnalyzer, type AnalyzedText } from './text-analysis.js';
import { javaString } from './value-conversion.js';

export type MatchType = 'boolean' | 'phrase' | 'phrase_prefix' | 'boolean_prefix';
export type ZeroTermsOption = 'none' | 'all' | 'null';

export interface MatchOptions {
  /** The query's `analyzer`, overriding the field's. */
  readonly analyzer?: Analyzer;
  readonly occur: Extract<Occur, 'should' | 'must'>;
  readonly phraseSlop: number;
  readonly fuzziness?: Fuzziness;
  /** `fuzzy_rewrite`: the rewrite method of the fuzzy queries fuzziness creates. */
  readonly fuzzyRewrite?: string;
  readonly prefixLength: number;
  readonly maxExpansions: number;
  readonly transpositions: boolean;
  readonly lenient: boolean;
  readonly zeroTermsQuery: ZeroTermsOption;
  readonly enablePositionIncrements: boolean;
}

export const DEFAULT_MATCH_OPTIONS: MatchOptions = {
  occur: 'should',
  phraseSlop: 0,
  prefixLength: 0,
  maxExpansions: 50,
  transpositions: true,
  lenient: false,
  zeroTermsQuery: 'none',
  enablePositionIncrements: true,
};

/** ZeroTermsQueryOption.asQuery. */
export function zeroTermsQuery(option: ZeroTermsOption): PlanQuery | null {
  if (option === 'all') return MATCH_ALL;
  if (option === 'none') return matchNone('Matching no documents because no terms present');
  return null;
}

/** Queries.newUnmappedFieldQuery / newUnmappedFieldsQuery: Java's list printing. */
export function unmappedFieldsQuery(fields: readonly string[]): PlanQuery {
  return matchNone(`unmapped fields [${fields.join(', ')}]`);
}

/** Queries.newLenientFieldQuery: what a lenient query becomes when its field cannot take the value. */
export function lenientFieldQuery(field: string, error: EsError): PlanQuery {
  return matchNone(`failed [${field}] query, caused by ${error.type}:[${error.reason}]`);
}

/** Runs `build`, turning a failure into the lenient match_none when asked to. */
export function leniently(lenient: boolean, field: string, build: () => PlanQuery): PlanQuery {
  if (!lenient) return build();
  // A lenient failure only leaves its message in a match_none: no stack trace is captured for it (capturing one
  // per term was most of the cost of a 50,000-term query over a numeric field).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } catch (err) {
    if (err instanceof EsError) return lenientFieldQuery(field, err);
    throw err;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/** MatchQueryParser.parse(type, fieldName, value). */
export function matchQuery(context: BuildContext, type: MatchType, fieldName: string, value: QueryValue, options: MatchOptions): PlanQuery | null {
  const field = context.fields.get(fieldName);
  if (field === undefined) return unmappedFieldsQuery([fieldName]);
  const text = javaString(value);
  const analyzer = searchAnalyzer(context, field, type === 'phrase' || type === 'phrase_prefix', options.analyzer);
  if (analyzer === undefined && type !== 'phrase_prefix') {
    // Lucene's KeywordAnalyzer: no analysis, the field type takes the text as it is.
    const isStringField = field.kind === 'mapped' && (field.options.type === 'text' || field.options.type === 'keyword');
    if (type === 'boolean_prefix' && isStringField) return leniently(options.lenient, field.name, () => prefixQuery(context, field, text, false));
    return newTermQuery(context, field, text, options);
  }
  const analyzed = analyzer === undefined ? keywordTokens(text) : analyze(analyzer, text);
  const query = createFieldQuery(context, field, analyzed, type, options.occur, options);
  return query ?? zeroTermsQuery(options.zeroTermsQuery);
}

/** KeywordTokenizer's single token, even for an empty text. */
function keywordTokens(text: string): AnalyzedText {
  return { tokens: [{ term: text, positionIncrement: 1, endOffset: text.length }], finalOffset: text.length };
}

/** MatchQueryBuilder.newTermQuery: a fuzzy query with fuzziness, else the field type's term query. */
export function newTermQuery(context: BuildContext, field: MappedField, term: string, options: MatchOptions): PlanQuery {
  return leniently(options.lenient, field.name, () => {
    if (options.fuzziness !== undefined) {
      const fuzzy = fuzzyQuery(field, context, term, {
        fuzziness: options.fuzziness,
        prefixLength: options.prefixLength,
        maxExpansions: options.maxExpansions,
        transpositions: options.transpositions,
      });
      return withRewrite(fuzzy, options.fuzzyRewrite);
    }
    return termQuery(context, field, term);
  });
}

/** The hooks cross_fields replaces (blended terms instead of per-field term queries). */
export interface TermFactory {
  term(term: string): PlanQuery;
  prefix(term: string): PlanQuery;
  phrase(terms: readonly PositionedTerm[]): PlanQuery;
  phrasePrefix(terms: readonly PositionedTerm[]): PlanQuery;
}

function fieldTermFactory(context: BuildContext, field: MappedField, options: MatchOptions): TermFactory {
  return {
    term: (term) => newTermQuery(context, field, term, options),
    prefix: (term) => leniently(options.lenient, field.name, () => prefixQuery(context, field, term, false)),
    phrase: (terms) =>
      leniently(options.lenient, field.name, () => {
        checkPhraseSupport(field, false);
        return { type: 'phrase', field: field.name, terms, slop: options.phraseSlop };
      }),
    phrasePrefix: (terms) =>
      leniently(options.lenient, field.name, () => {
        checkPhraseSupport(field, true);
        return { type: 'phrase_prefix', field: field.name, terms, slop: options.phraseSlop, maxExpansions: options.maxExpansions };
      }),
  };
}

/** MatchQueryBuilder.createFieldQuery for a field (or, with `factory`, for blended fields). */
export function createFieldQuery(
  context: BuildContext,
  field: MappedField,
  analyzed: AnalyzedText,
  type: MatchType,
  occur: Extract<Occur, 'should' | 'must'>,
  options: MatchOptions,
  factory: TermFactory = fieldTermFactory(context, field, options),
): PlanQuery | null {
  const tokens = analyzed.tokens;
  if (tokens.length === 0) return null;
  let positionCount = 0;
  let hasSynonyms = false;
  for (const token of tokens) {
    if (token.positionIncrement !== 0) positionCount += token.positionIncrement;
    else hasSynonyms = true;
  }
  const endsAtText = tokens[tokens.length - 1]!.endOffset === analyzed.finalOffset;
  if (tokens.length === 1) {
    if (type === 'phrase_prefix') return factory.phrasePrefix(positioned(tokens, options.enablePositionIncrements));
    return type === 'boolean_prefix' && endsAtText ? factory.prefix(tokens[0]!.term) : factory.term(tokens[0]!.term);
  }
  if (type === 'phrase' && positionCount > 1) return factory.phrase(positioned(tokens, options.enablePositionIncrements));
  if (type === 'phrase_prefix') return factory.phrasePrefix(positioned(tokens, options.enablePositionIncrements));
  if (positionCount === 1 && hasSynonyms) {
    // analyzeBoolean: every token stacked at one position, alternatives of one another.
    return synonyms(tokens.map((token) => token.term), factory);
  }
  return multiBoolean(tokens, occur, type === 'boolean_prefix' && endsAtText, factory);
}

/** Token positions as PhraseQuery gets them: the first at 0, then by increments (or by one each). */
function positioned(tokens: AnalyzedText['tokens'], enablePositionIncrements: boolean): PositionedTerm[] {
  let position = -1;
  return tokens.map((token) => {
    position += enablePositionIncrements ? token.positionIncrement : 1;
    return { term: token.term, position };
  });
}

/**
 * analyzeMultiBoolean: one clause per position (stacked tokens at one position form a group whose terms are
 * alternatives), each with the operator's occur; the last one a prefix for the prefix types.
 */
function multiBoolean(tokens: AnalyzedText['tokens'], occur: Extract<Occur, 'should' | 'must'>, lastIsPrefix: boolean, factory: TermFactory): PlanQuery {
  const groups: string[][] = [];
  for (const token of tokens) {
    if (token.positionIncrement !== 0 || groups.length === 0) groups.push([token.term]);
    else groups[groups.length - 1]!.push(token.term);
  }
  const clauses: PlanClause[] = groups.map((group, index) => {
    const isLast = index === groups.length - 1;
    if (group.length === 1) return { occur, query: isLast && lastIsPrefix ? factory.prefix(group[0]!) : factory.term(group[0]!) };
    return { occur, query: synonyms(group, factory) };
  });
  return bool(clauses);
}

/**
 * Stacked terms as alternatives. Lucene's SynonymQuery scores them as one term; Gannet has no synonym filters,
 * so only custom chains that stack tokens get here, and a disjunction stands in for it.
 */
function synonyms(terms: readonly string[], factory: TermFactory): PlanQuery {
  return bool(terms.map((term) => ({ occur: 'should' as const, query: factory.term(term) })));
}
