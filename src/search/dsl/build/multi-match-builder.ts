/**
 * ES's MultiMatchQueryParser and the field expansion of QueryParserHelper: field patterns resolve against
 * the mapping (`*` skips metadata and unindexed fields), then best_fields/most_fields/phrase/phrase_prefix/
 * bool_prefix build one match query per field combined with dis_max (most_fields and bool_prefix with a
 * tie_breaker of 1, i.e. a sum), while cross_fields groups fields by analyzer and blends each term across
 * a group's fields.
 */
import type { Analyzer } from '../../../analysis/index.js';
import type { FieldBoost, MultiMatchType, QueryValue } from '../ast/query-ast.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import type { BuildContext } from './build-context.js';
import { isSearchableForAllFields, type MappedField } from './field-lookup.js';
import { termQuery } from './field-queries.js';
import {
  createFieldQuery,
  leniently,
  matchQuery,
  unmappedFieldsQuery,
  zeroTermsQuery,
  type MatchOptions,
  type MatchType,
  type TermFactory,
} from './match-builder.js';
import { applyMinimumShouldMatch } from './minimum-should-match.js';
import { boosted, unwrap, type PlanQuery } from './query-plan.js';
import { analyze, analyzerKey, searchAnalyzer, type AnalyzedText } from './text-analysis.js';
import { javaString } from './value-conversion.js';

/** MultiMatchQueryBuilder.Type: the match type each field gets and the default tie breaker. */
export const MULTI_MATCH_TYPES: Record<MultiMatchType, { matchType: MatchType; tieBreaker: number }> = {
  best_fields: { matchType: 'boolean', tieBreaker: 0 },
  most_fields: { matchType: 'boolean', tieBreaker: 1 },
  cross_fields: { matchType: 'boolean', tieBreaker: 0 },
  phrase: { matchType: 'phrase', tieBreaker: 0 },
  phrase_prefix: { matchType: 'phrase_prefix', tieBreaker: 0 },
  bool_prefix: { matchType: 'boolean_prefix', tieBreaker: 1 },
};

function isMatchAllPattern(pattern: string): boolean {
  return pattern === '*';
}

/** QueryParserHelper.resolveMappingField: a name or pattern into the fields it denotes, with the weight. */
export function resolveMappingField(context: BuildContext, pattern: string, weight: number, fieldSuffix?: string): Map<string, number> {
  const allField = isMatchAllPattern(pattern);
  const wildcard = pattern.includes('*');
  const fields = new Map<string, number>();
  for (const matched of context.fields.matchingFieldNames(pattern)) {
    let name = matched;
    if (fieldSuffix !== undefined && context.fields.get(name + fieldSuffix) !== undefined) name = name + fieldSuffix;
    const field = context.fields.get(name)!;
    if (allField && !isSearchableForAllFields(field)) continue;
    // Metadata fields only join a wildcard expansion if they support text search; Gannet's do not.
    if (wildcard && field.kind === 'metadata') continue;
    fields.set(name, Math.fround((fields.get(name) ?? 1) * weight));
  }
  return fields;
}

/** QueryParserHelper.resolveMappingFields: every entry expanded; a field reached twice multiplies its boosts. */
export function resolveMappingFields(context: BuildContext, fields: readonly FieldBoost[], fieldSuffix?: string): Map<string, number> {
  const resolved = new Map<string, number>();
  for (const entry of fields) {
    for (const [name, boost] of resolveMappingField(context, entry.field, entry.boost, fieldSuffix)) {
      resolved.set(name, resolved.has(name) ? Math.fround(boost * resolved.get(name)!) : boost);
    }
  }
  checkForTooManyFields(context, resolved.size);
  return resolved;
}

export function checkForTooManyFields(context: BuildContext, count: number, pattern?: string): void {
  if (count > context.maxClauseCount) {
    const what = pattern === undefined ? '' : `for [${pattern}] `;
    throw illegalArgument(`field expansion ${what}matches too many fields, limit: ${context.maxClauseCount}, got: ${count}`);
  }
}

/** QueryParserHelper.parseFieldsAndWeights over index.query.default_field. */
export function defaultFieldBoosts(context: BuildContext): FieldBoost[] {
  return context.defaultFields.map((entry) => {
    const caret = entry.indexOf('^');
    return caret < 0 ? { field: entry, boost: 1 } : { field: entry.slice(0, caret), boost: Math.fround(Number(entry.slice(caret + 1))) };
  });
}

export interface MultiMatchOptions extends MatchOptions {
  readonly tieBreaker?: number;
  readonly minimumShouldMatch?: string;
}

/** MultiMatchQueryParser.parse over resolved fields. */
export function multiMatchQuery(context: BuildContext, type: MultiMatchType, fields: Map<string, number>, value: QueryValue, options: MultiMatchOptions): PlanQuery | null {
  const names = [...fields.keys()];
  if (!names.some((name) => context.fields.get(name) !== undefined)) return unmappedFieldsQuery(names);
  const tieBreaker = options.tieBreaker ?? MULTI_MATCH_TYPES[type].tieBreaker;
  const queries =
    type === 'cross_fields'
      ? crossFieldQueries(context, fields, value, options, tieBreaker)
      : fieldQueries(context, MULTI_MATCH_TYPES[type].matchType, fields, value, options);
  if (queries.length === 0) return zeroTermsQuery(options.zeroTermsQuery);
  if (queries.length === 1) return queries[0]!;
  return { type: 'dis_max', queries, tieBreaker };
}

function fieldQueries(context: BuildContext, matchType: MatchType, fields: Map<string, number>, value: QueryValue, options: MultiMatchOptions): PlanQuery[] {
  const queries: PlanQuery[] = [];
  for (const [name, boost] of fields) {
    if (context.fields.get(name) === undefined) continue;
    let query = matchQuery(context, matchType, name, value, options);
    if (query === null) continue;
    query = applyMinimumShouldMatch(query, options.minimumShouldMatch);
    if (boost !== 1 && query.type !== 'match_none') query = boosted(query, boost);
    queries.push(query);
  }
  return queries;
}

interface FieldAndBoost {
  readonly field: MappedField;
  readonly boost: number;
}

function crossFieldQueries(context: BuildContext, fields: Map<string, number>, value: QueryValue, options: MultiMatchOptions, tieBreaker: number): PlanQuery[] {
  const groups = new Map<string, { analyzer: Analyzer | undefined; fields: FieldAndBoost[] }>();
  for (const [name, boost] of fields) {
    const field = context.fields.get(name);
    if (field === undefined) continue;
    const analyzer = searchAnalyzer(context, field, false, options.analyzer);
    const key = analyzerKey(analyzer);
    let group = groups.get(key);
    if (group === undefined) {
      group = { analyzer, fields: [] };
      groups.set(key, group);
    }
    group.fields.push({ field, boost });
  }
  const queries: PlanQuery[] = [];
  const text = javaString(value);
  for (const group of groups.values()) {
    const representative = group.fields[0]!.field;
    // Lucene's QueryBuilder.createBooleanQuery always analyzes; the keyword analyzer keeps the text whole.
    const analyzed: AnalyzedText =
      group.analyzer === undefined ? { tokens: [{ term: text, positionIncrement: 1, endOffset: text.length }], finalOffset: text.length } : analyze(group.analyzer, text);
    const factory = group.fields.length === 1 ? undefined : blendedFactory(context, group.fields, tieBreaker, options.lenient);
    let query =
      factory === undefined
        ? createFieldQuery(context, representative, analyzed, 'boolean', options.occur, options)
        : createFieldQuery(context, representative, analyzed, 'boolean', options.occur, options, factory);
    query ??= zeroTermsQuery(options.zeroTermsQuery);
    if (query === null) continue;
    query = applyMinimumShouldMatch(query, options.minimumShouldMatch);
    if (group.fields.length === 1) query = boosted(query, group.fields[0]!.boost);
    queries.push(query);
  }
  return queries;
}

/** CrossFieldsQueryBuilder: terms are blended across the group's fields; phrases and prefixes are refused. */
function blendedFactory(context: BuildContext, fields: readonly FieldAndBoost[], tieBreaker: number, lenient: boolean): TermFactory {
  return {
    term: (term) => blendTerm(context, term, tieBreaker, lenient, fields),
    prefix: () => {
      throw illegalArgument("[multi_match] queries in [cross_fields] mode don't support prefix");
    },
    phrase: () => {
      throw illegalArgument("[multi_match] queries in [cross_fields] mode don't support phrases");
    },
    phrasePrefix: () => {
      throw illegalArgument("[multi_match] queries in [cross_fields] mode don't support phrase prefix");
    },
  };
}

/** MultiMatchQueryParser.blendTerms for one term: plain term queries blend, anything else joins the dis_max. */
export function blendTerm(context: BuildContext, term: string, tieBreaker: number, lenient: boolean, fields: readonly FieldAndBoost[]): PlanQuery {
  const blended: { field: string; term: string; boost: number }[] = [];
  const others: PlanQuery[] = [];
  for (const { field, boost } of fields) {
    let query = leniently(lenient, field.name, () => termQuery(context, field, term));
    let effectiveBoost = boost;
    while (query.type === 'boost') {
      effectiveBoost = Math.fround(effectiveBoost * query.boost);
      query = query.query;
    }
    if (query.type === 'term') {
      blended.push({ field: query.field, term: query.term, boost: effectiveBoost });
    } else {
      others.push(effectiveBoost !== 1 && unwrap(query).type !== 'match_none' ? boosted(query, effectiveBoost) : query);
    }
  }
  const queries = [...others];
  if (blended.length > 0) queries.push({ type: 'blended_terms', terms: blended, tieBreaker });
  return queries.length === 1 ? queries[0]! : { type: 'dis_max', queries, tieBreaker };
}
