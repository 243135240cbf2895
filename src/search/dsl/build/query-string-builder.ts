/**
 * query_string (QueryStringQueryBuilder.doToQuery + ES's QueryStringQueryParser over Lucene's
 * QueryParserBase): the syntax tree of the query text becomes a query with the classic parser's clause rules
 * (addClause: AND makes the previous clause required, NOT/- prohibits, the default operator decides bare
 * clauses), each term resolved over the default field or the `fields` list like a multi_match, and the
 * special forms: `_exists_:field`, `field:>=10`, `*`, prefixes, wildcards, regexps, fuzzy terms, ranges.
 */
import type { Analyzer } from '../../../analysis/index.js';
import { EsError } from '../../../common/errors.js';
import type { MultiMatchType, QueryStringQuery, SimpleQueryStringQuery } from '../ast/query-ast.js';
import { fuzzinessDistance, fuzzinessFromEdits, fuzzinessFromString } from '../parse/common-params.js';
import { discardEscapeChar, parseQueryStringSyntax, QueryStringSyntaxError, type Conjunction, type Modifier, type QsClause, type QsQuery } from '../syntax/query-string-parser.js';
import { queryShardError, type BuildContext } from './build-context.js';
import { illegalArgument } from '../xcontent/xcontent-errors.js';
import { fuzzyQuery, prefixQuery, rangeQuery, regexpQuery, wildcardQuery } from './field-queries.js';
import { leniently, unmappedFieldsQuery } from './match-builder.js';
import { applyMinimumShouldMatch } from './minimum-should-match.js';
import { defaultFieldBoosts, MULTI_MATCH_TYPES, multiMatchQuery, resolveMappingField, resolveMappingFields } from './multi-match-builder.js';
import { bool, boosted, MATCH_ALL, matchNone, type PlanClause, type PlanQuery } from './query-plan.js';
import { normalizeWithAnalyzer, searchAnalyzer } from './text-analysis.js';
import { buildSimpleQueryStringQuery } from './simple-query-string-builder.js';

const EXISTS_FIELD = '_exists_';

/** QueryParser.escape: a backslash before every character the syntax gives a meaning to. */
export function escapeQueryString(text: string): string {
  return text.replace(/[\\+\-!():^[\]"{}~*?|&/]/g, (c) => `\\${c}`);
}

export function buildQueryString(query: QueryStringQuery, context: BuildContext): PlanQuery | null {
  const fields = query.fields ?? [];
  if (fields.length > 0 && query.defaultField !== undefined) {
    throw new EsError('query_validation_exception', 'Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];');
  }
  const builder = new QueryStringBuilder(query, context);
  const text = query.escape ? escapeQueryString(query.query) : query.query;
  // ES's QueryStringQueryParser.parse: a blank query string matches nothing rather than failing to parse.
  if (text.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').length === 0) return matchNone('Matching no documents because no terms present');
  let syntax: QsQuery;
  try {
    syntax = parseQueryStringSyntax(text, builder.defaultField);
  } catch (err) {
    if (err instanceof QueryStringSyntaxError) throw queryShardError(context, `Failed to parse query [${query.query}]`, new EsError('parse_exception', err.message));
    throw err;
  }
  let built: PlanQuery | null;
  try {
    built = builder.query(syntax);
  } catch (err) {
    if (err instanceof QueryStringSyntaxError) throw queryShardError(context, `Failed to parse query [${query.query}]`, new EsError('parse_exception', err.message));
    throw err;
  }
  if (built === null) return null;
  return applyMinimumShouldMatch(fixNegative(built), query.minimumShouldMatch);
}

export function buildSimpleQueryString(query: SimpleQueryStringQuery, context: BuildContext): PlanQuery | null {
  return buildSimpleQueryStringQuery(query, context);
}

function fixNegative(query: PlanQuery): PlanQuery {
  if (query.type !== 'bool' || query.clauses.length === 0 || !query.clauses.every((clause) => clause.occur === 'must_not')) return query;
  return { ...query, clauses: [...query.clauses, { occur: 'filter', query: MATCH_ALL }] };
}

class QueryStringBuilder {
  /** Lucene's default field: `default_field`, `*`, or undefined when `fields` lists the fields. */
  readonly defaultField: string | undefined;
  private readonly fieldsAndWeights: Map<string, number>;
  private readonly lenient: boolean;
  private readonly forceAnalyzer: Analyzer | undefined;
  private readonly forceQuoteAnalyzer: Analyzer | undefined;
  private readonly tieBreaker: number;
  private readonly type: MultiMatchType;
  private readonly andOperator: boolean;

  constructor(
    private readonly ast: QueryStringQuery,
    private readonly context: BuildContext,
  ) {
    const isLenient = ast.lenient ?? context.queryStringLenient;
    const fields = ast.fields ?? [];
    if (ast.defaultField !== undefined) {
      if (ast.defaultField === '*') {
        this.defaultField = '*';
        this.fieldsAndWeights = resolveMappingField(context, '*', 1);
        this.lenient = ast.lenient ?? true;
      } else {
        this.defaultField = ast.defaultField;
        this.fieldsAndWeights = new Map();
        this.lenient = isLenient;
      }
    } else if (fields.length > 0) {
      this.defaultField = undefined;
      this.fieldsAndWeights = resolveMappingFields(context, fields);
      this.lenient = fields.some((entry) => entry.field === '*') ? (ast.lenient ?? true) : isLenient;
    } else {
      const defaults = defaultFieldBoosts(context);
      if (defaults.some((entry) => entry.field === '*')) {
        this.defaultField = '*';
        this.fieldsAndWeights = resolveMappingField(context, '*', 1);
        this.lenient = ast.lenient ?? true;
      } else {
        this.defaultField = undefined;
        this.fieldsAndWeights = resolveMappingFields(context, defaults);
        this.lenient = isLenient;
      }
    }
    this.forceAnalyzer = this.namedAnalyzer(ast.analyzer, 'analyzer');
    this.forceQuoteAnalyzer = this.namedAnalyzer(ast.quoteAnalyzer, 'quote_analyzer');
    this.type = ast.type;
    this.tieBreaker = ast.tieBreaker ?? MULTI_MATCH_TYPES[ast.type].tieBreaker;
    this.andOperator = ast.defaultOperator === 'and';
  }

  private namedAnalyzer(name: string | undefined, parameter: string): Analyzer | undefined {
    if (name === undefined) return undefined;
    const analyzer = this.context.analysis.findAnalyzer(name);
    if (analyzer === undefined) throw queryShardError(this.context, `[query_string] ${parameter} [${name}] not found`);
    return analyzer;
  }

  /** QueryParser.Query: clauses combined by addClause, a lone unmodified clause returned as itself. */
  query(syntax: QsQuery): PlanQuery | null {
    const clauses: PlanClause[] = [];
    let firstQuery: PlanQuery | null = null;
    syntax.items.forEach((item, index) => {
      if (item.kind === 'multi_term') {
        this.addMultiTermClauses(clauses, this.fieldQuery(item.field, discardEscapeChar(item.text, this.ast.query)));
        return;
      }
      const built = this.clause(item.clause);
      this.addClause(clauses, item.conjunction, item.modifier, built);
      if (index === 0 && item.modifier === 'none' && syntax.firstIsBare) firstQuery = built;
    });
    if (clauses.length === 1 && firstQuery !== null) return firstQuery;
    return this.booleanQuery(clauses);
  }

  /** QueryParserBase.addClause. */
  private addClause(clauses: PlanClause[], conjunction: Conjunction, modifier: Modifier, query: PlanQuery | null): void {
    const last = clauses[clauses.length - 1];
    if (last !== undefined && conjunction === 'and' && last.occur !== 'must_not') clauses[clauses.length - 1] = { occur: 'must', query: last.query };
    if (last !== undefined && this.andOperator && conjunction === 'or' && last.occur !== 'must_not') {
      clauses[clauses.length - 1] = { occur: 'should', query: last.query };
    }
    if (query === null) return;
    const prohibited = modifier === 'not';
    const required = this.andOperator ? !prohibited && conjunction !== 'or' : modifier === 'req' || (conjunction === 'and' && !prohibited);
    clauses.push({ occur: prohibited ? 'must_not' : required ? 'must' : 'should', query });
  }

  /** QueryParserBase.addMultiTermClauses: term-only results are flattened as they are, others take the default occur. */
  private addMultiTermClauses(clauses: PlanClause[], query: PlanQuery | null): void {
    if (query === null) return;
    if (query.type === 'bool' && query.clauses.every((clause) => clause.query.type === 'term')) {
      clauses.push(...query.clauses);
      return;
    }
    const occur = this.andOperator ? 'must' : 'should';
    if (query.type === 'bool') for (const clause of query.clauses) clauses.push({ occur, query: clause.query });
    else clauses.push({ occur, query });
  }

  /** getBooleanQuery (with ES's fixNegativeQueryIfNeeded); null for no clauses. */
  private booleanQuery(clauses: PlanClause[]): PlanQuery | null {
    if (clauses.length === 0) return null;
    if (clauses.length > this.context.maxClauseCount) throw new QueryStringSyntaxError(`Cannot parse '${this.ast.query}': too many boolean clauses`);
    return fixNegative(bool(clauses));
  }

  private clause(clause: QsClause): PlanQuery | null {
    const field = clause.field;
    let built: PlanQuery | null;
    if (clause.kind === 'group') {
      built = this.query(clause.query);
    } else {
      const term = clause.term;
      switch (term.kind) {
        case 'plain': {
          const text = discardEscapeChar(term.image, this.ast.query);
          built = term.fuzzySlop === undefined ? this.fieldQuery(field, text) : this.bareFuzzy(field, term.fuzzySlop, text);
          break;
        }
        case 'wildcard':
          built = this.wildcardQuery(field, term.image);
          break;
        case 'prefix':
          built = this.prefixQuery(field, discardEscapeChar(term.image.slice(0, -1), this.ast.query));
          break;
        case 'regexp':
          built = this.regexpQuery(field, term.image.slice(1, -1));
          break;
        case 'quoted': {
          let slop = this.ast.phraseSlop;
          if (term.fuzzySlop !== undefined) {
            const parsed = Number.parseFloat(term.fuzzySlop.slice(1));
            if (!Number.isNaN(parsed)) slop = Math.trunc(parsed);
          }
          built = this.phraseQuery(field, term.image, slop);
          break;
        }
        case 'range':
          built = this.rangeQuery(field, term.lower, term.upper, term.includeLower, term.includeUpper);
          break;
      }
    }
    if (built === null || clause.boost === undefined) return built;
    const boost = Number.parseFloat(clause.boost);
    return { type: 'boost', query: built, boost: Math.fround(Number.isNaN(boost) ? 1 : boost) };
  }

  /** extractMultiFields: an explicit field (or pattern) resolved, else the default fields. */
  private extractMultiFields(field: string | undefined, quoted: boolean): Map<string, number> {
    const suffix = quoted ? this.ast.quoteFieldSuffix : undefined;
    if (field !== undefined) return resolveMappingField(this.context, field, 1, suffix);
    if (quoted && suffix !== undefined) {
      return resolveMappingFields(this.context, [...this.fieldsAndWeights].map(([name, boost]) => ({ field: name, boost })), suffix);
    }
    return this.fieldsAndWeights;
  }

  private effectiveField(field: string | undefined): string | undefined {
    return field ?? this.defaultField;
  }

  /** getFieldQuery(field, text, quoted=false). */
  private fieldQuery(explicitField: string | undefined, text: string): PlanQuery | null {
    const field = this.effectiveField(explicitField);
    if (field === EXISTS_FIELD) return this.existsQuery(text);
    if (field !== undefined && text.length > 1) {
      // `field:>=10` and friends: one-sided ranges, recognised only after an explicit field prefix.
      if (text[0] === '>') {
        if (text.length > 2 && text[1] === '=') return this.rangeQuery(field, text.slice(2), null, true, true);
        return this.rangeQuery(field, text.slice(1), null, false, true);
      }
      if (text[0] === '<') {
        if (text.length > 2 && text[1] === '=') return this.rangeQuery(field, null, text.slice(2), true, true);
        return this.rangeQuery(field, null, text.slice(1), true, false);
      }
      const mapped = this.context.fields.get(field);
      if (mapped?.kind === 'mapped' && (mapped.options.type === 'date' || mapped.options.type === 'date_nanos') && this.ast.timeZone !== undefined) {
        return this.rangeQuery(field, text, text, true, true);
      }
    }
    const fields = this.extractMultiFields(field, false);
    if (fields.size === 0) return unmappedFieldsQuery([field ?? 'null']);
    return multiMatchQuery(this.context, this.type, fields, text, this.matchOptions(this.forceAnalyzer, this.ast.phraseSlop));
  }

  /** getFieldQuery(field, text, slop): a quoted phrase. */
  private phraseQuery(explicitField: string | undefined, text: string, slop: number): PlanQuery | null {
    const field = this.effectiveField(explicitField);
    if (field === EXISTS_FIELD) return this.existsQuery(text);
    const fields = this.extractMultiFields(field, true);
    if (fields.size === 0) return unmappedFieldsQuery([field ?? 'null']);
    return multiMatchQuery(this.context, 'phrase', fields, text, this.matchOptions(this.forceQuoteAnalyzer ?? this.forceAnalyzer, slop));
  }

  private matchOptions(analyzer: Analyzer | undefined, slop: number) {
    return {
      ...(analyzer !== undefined && { analyzer }),
      occur: this.andOperator ? ('must' as const) : ('should' as const),
      phraseSlop: slop,
      prefixLength: this.ast.fuzzyPrefixLength,
      maxExpansions: this.ast.fuzzyMaxExpansions,
      transpositions: this.ast.fuzzyTranspositions,
      lenient: this.lenient,
      zeroTermsQuery: 'null' as const,
      enablePositionIncrements: this.ast.enablePositionIncrements,
      tieBreaker: this.tieBreaker,
    };
  }

  /** Per-field queries combined as ES does: one stays itself, several form a dis_max. */
  private perField(explicitField: string | undefined, build: (name: string) => PlanQuery): PlanQuery {
    const field = this.effectiveField(explicitField);
    const fields = this.extractMultiFields(field, false);
    if (fields.size === 0) return unmappedFieldsQuery([field ?? 'null']);
    const queries: PlanQuery[] = [];
    for (const [name, boost] of fields) {
      const query = build(name);
      queries.push(boost !== 1 && query.type !== 'match_none' ? boosted(query, boost) : query);
    }
    return queries.length === 1 ? queries[0]! : { type: 'dis_max', queries, tieBreaker: this.tieBreaker };
  }

  private normalizerFor(name: string): Analyzer | undefined {
    const field = this.context.fields.get(name);
    return this.forceAnalyzer ?? (field === undefined ? undefined : searchAnalyzer(this.context, field, false, undefined));
  }

  /** ES's handleBareFuzzy: `~` alone uses the query's fuzziness, `~N` an explicit one. */
  private bareFuzzy(explicitField: string | undefined, fuzzySlop: string, text: string): PlanQuery {
    const fuzziness = fuzzySlop.length === 1 ? this.ast.fuzziness : fuzzinessFromString(fuzzySlop.slice(1));
    const edits = fuzzinessDistance(fuzziness, text);
    return this.perField(explicitField, (name) => {
      const field = this.context.fields.get(name);
      if (field === undefined) return unmappedFieldsQuery([name]);
      return leniently(this.lenient, name, () =>
        fuzzyQuery(field, this.context, normalizeWithAnalyzer(this.normalizerFor(name), text), {
          fuzziness: fuzzinessFromEdits(Math.min(edits, 2)),
          prefixLength: this.ast.fuzzyPrefixLength,
          maxExpansions: this.ast.fuzzyMaxExpansions,
          transpositions: this.ast.fuzzyTranspositions,
        }),
      );
    });
  }

  private prefixQuery(explicitField: string | undefined, text: string): PlanQuery {
    return this.perField(explicitField, (name) => {
      const field = this.context.fields.get(name);
      if (field === undefined) return unmappedFieldsQuery([name]);
      const tokenized = field.kind === 'mapped' && field.options.type === 'text';
      const term = tokenized ? normalizeWithAnalyzer(this.normalizerFor(name), text) : text;
      return leniently(this.lenient, name, () => prefixQuery(this.context, field, term, false));
    });
  }

  private wildcardQuery(explicitField: string | undefined, pattern: string): PlanQuery {
    const actualField = this.effectiveField(explicitField);
    if (pattern === '*' && actualField !== undefined) {
      return actualField === '*' ? MATCH_ALL : this.existsQuery(actualField);
    }
    return this.perField(explicitField, (name) => {
      if (pattern === '*') return this.existsQuery(name);
      const field = this.context.fields.get(name);
      if (field === undefined) return unmappedFieldsQuery([name]);
      const leading = pattern.startsWith('*') || pattern.startsWith('?');
      if ((this.ast.allowLeadingWildcard ?? true) === false && leading) {
        throw new QueryStringSyntaxError(`Cannot parse '${this.ast.query}': '*' or '?' not allowed as first character in WildcardQuery`);
      }
      return leniently(this.lenient, name, () => {
        if (this.forceAnalyzer !== undefined) {
          return { type: 'wildcard', field: name, pattern: normalizeWithAnalyzer(this.forceAnalyzer, pattern), caseInsensitive: false };
        }
        return wildcardQuery(this.context, field, pattern, false);
      });
    });
  }

  private regexpQuery(explicitField: string | undefined, pattern: string): PlanQuery {
    // QueryStringQueryParser.getRegexpQuery checks the length before it expands any field (no leniency).
    if (pattern.length > this.context.maxRegexLength) {
      throw illegalArgument(
        `The length of regex [${pattern.length}] used in the [query_string] has exceeded the allowed maximum of [${this.context.maxRegexLength}]. ` +
          'This maximum can be set by changing the [index.max_regex_length] index level setting.',
      );
    }
    return this.perField(explicitField, (name) => {
      const field = this.context.fields.get(name);
      if (field === undefined) return unmappedFieldsQuery([name]);
      return leniently(this.lenient, name, () => regexpQuery(this.context, field, pattern, 0xff, false, this.ast.maxDeterminizedStates));
    });
  }

  /** getRangeQuery: `*` is open; bounds normalized like the field's terms. */
  private rangeQuery(explicitField: string | undefined, lower: string | null, upper: string | null, includeLower: boolean, includeUpper: boolean): PlanQuery {
    const from = lower === '*' ? null : lower;
    const to = upper === '*' ? null : upper;
    return this.perField(explicitField, (name) => {
      const field = this.context.fields.get(name);
      if (field === undefined) return unmappedFieldsQuery([name]);
      const normalizer = this.normalizerFor(name);
      return leniently(this.lenient, name, () =>
        rangeQuery(
          this.context,
          field,
          from === null ? undefined : normalizeWithAnalyzer(normalizer, from),
          to === null ? undefined : normalizeWithAnalyzer(normalizer, to),
          includeLower,
          includeUpper,
          undefined,
          this.ast.timeZone,
        ),
      );
    });
  }

  /** `_exists_:field` and `field:*`: ExistsQueryBuilder.newFilter. */
  private existsQuery(pattern: string): PlanQuery {
    const names = this.context.fields.isObject(pattern) ? [pattern] : this.context.fields.matchingFieldNames(pattern);
    if (names.length === 0) return matchNone('User requested "match_none" query.');
    const exists = (name: string): PlanQuery => {
      if (this.context.fields.isObject(name)) {
        return { type: 'constant_score', query: bool(this.context.fields.fieldsUnder(name).map((sub) => ({ occur: 'should' as const, query: { type: 'field_exists' as const, field: sub } }))) };
      }
      return { type: 'constant_score', query: { type: 'field_exists', field: name } };
    };
    if (names.length === 1) return exists(names[0]!);
    return { type: 'constant_score', query: bool(names.map((name) => ({ occur: 'should' as const, query: exists(name) }))) };
  }
}
