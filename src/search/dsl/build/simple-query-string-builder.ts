/**
 * simple_query_string: Lucene's SimpleQueryParser (a forgiving grammar that never fails: `+` AND, `|` OR,
 * `-` NOT, `"phrase"~slop`, `prefix*`, `fuzzy~N`, `( )` precedence, `\` escapes, each behind a flag) with
 * ES's SimpleQueryStringQueryParser for the leaves: terms and phrases as most_fields/phrase multi_match over
 * the resolved fields, fuzzy and prefix terms per field combined with dis_max(1.0).
 */
import type { Analyzer } from '../../../analysis/index.js';
import { EsError } from '../../../common/errors.js';
import type { SimpleQueryStringQuery } from '../ast/query-ast.js';
import { fuzzinessFromEdits } from '../parse/common-params.js';
import { SIMPLE_QUERY_STRING_FLAGS } from '../parse/query-string.js';
import { parseSimpleQueryStringSyntax, type SqsBranch, type SqsNode } from '../syntax/simple-query-string-parser.js';
import { queryShardError, type BuildContext } from './build-context.js';
import { fuzzyQuery, prefixQuery } from './field-queries.js';
import type { MatchOptions } from './match-builder.js';
import { unmappedFieldsQuery } from './match-builder.js';
import { applyMinimumShouldMatch } from './minimum-should-match.js';
import { defaultFieldBoosts, multiMatchQuery, resolveMappingFields } from './multi-match-builder.js';
import { bool, boosted, MATCH_ALL, matchNone, type Occur, type PlanQuery } from './query-plan.js';
import { normalizeWithAnalyzer, searchAnalyzer } from './text-analysis.js';

export function buildSimpleQueryStringQuery(query: SimpleQueryStringQuery, context: BuildContext): PlanQuery {
  const requested = query.fields.length > 0 ? query.fields : defaultFieldBoosts(context);
  const weights = resolveMappingFields(context, requested);
  const isAllField = requested.some((entry) => entry.field === '*');
  const lenient = query.lenient ?? (isAllField ? true : false);
  let analyzer: Analyzer | undefined;
  if (query.analyzer !== undefined) {
    analyzer = context.analysis.findAnalyzer(query.analyzer);
    if (analyzer === undefined) throw queryShardError(context, `[simple_query_string] analyzer [${query.analyzer}] not found`);
  }
  const leaves = new LeafBuilder(context, query, weights, analyzer, lenient);
  const flags = query.flags === -1 ? ALL_FLAGS : query.flags;
  const tree = parseSimpleQueryStringSyntax(query.query, flags);
  const built = evaluate(tree, leaves, query.defaultOperator === 'and' ? 'must' : 'should');
  const result = built ?? matchNone('empty string passed to query parser');
  return applyMinimumShouldMatch(result, query.minimumShouldMatch);
}

const ALL_FLAGS = Object.values(SIMPLE_QUERY_STRING_FLAGS).reduce((all, flag) => (flag > 0 ? all | flag : all), 0);

/**
 * SimpleQueryParser's state machine replayed over the scanned events: an operator only counts after a
 * non-empty branch; a new operator starts a new boolean level holding the tree so far (`a | b + c` is
 * `+(a b) +c`); an odd number of `-` wraps the branch as `-branch *:*`. Branches that analyze to nothing
 * are skipped, and the pending operator is cleared after every branch either way.
 */
function evaluate(node: SqsNode, leaves: LeafBuilder, defaultOperator: Extract<Occur, 'must' | 'should'>): PlanQuery | null {
  let top: PlanQuery | null = null;
  let currentOperation: Extract<Occur, 'must' | 'should'> | undefined;
  let previousOperation: Occur | undefined;
  for (const event of node.events) {
    if (event.kind === 'operator') {
      if (currentOperation === undefined && top !== null) currentOperation = event.occur;
      continue;
    }
    if (event.kind === 'reset') {
      currentOperation = undefined;
      continue;
    }
    let branch = leaves.branch(event.branch, (sub) => evaluate(sub, leaves, defaultOperator));
    if (branch !== null) {
      if (event.negations % 2 === 1) {
        branch = bool([
          { occur: 'must_not', query: branch },
          { occur: 'should', query: MATCH_ALL },
        ]);
      }
      if (top === null) {
        top = branch;
      } else {
        const operation = currentOperation ?? defaultOperator;
        if (previousOperation !== operation || top.type !== 'bool') top = bool([{ occur: operation, query: top }]);
        const tree = top as Extract<PlanQuery, { type: 'bool' }>;
        top = { ...tree, clauses: [...tree.clauses, { occur: operation, query: branch }] };
        previousOperation = operation;
      }
    }
    currentOperation = undefined;
  }
  return top;
}

class LeafBuilder {
  constructor(
    private readonly context: BuildContext,
    private readonly query: SimpleQueryStringQuery,
    private readonly weights: Map<string, number>,
    private readonly analyzer: Analyzer | undefined,
    private readonly lenient: boolean,
  ) {}

  branch(branch: SqsBranch, sub: (node: SqsNode) => PlanQuery | null): PlanQuery | null {
    switch (branch.kind) {
      case 'group':
        return sub(branch.node);
      case 'term':
        return this.defaultQuery(branch.text);
      case 'phrase':
        return this.phraseQuery(branch.text, branch.slop);
      case 'prefix':
        return this.prefixQuery(branch.text);
      case 'fuzzy':
        return branch.edits === 0 ? this.defaultQuery(branch.text) : this.fuzzyQuery(branch.text, branch.edits);
    }
  }

  private matchOptions(slop: number): MatchOptions & { tieBreaker?: number } {
    return {
      ...(this.analyzer !== undefined && { analyzer: this.analyzer }),
      occur: this.query.defaultOperator === 'and' ? 'must' : 'should',
      phraseSlop: slop,
      prefixLength: this.query.fuzzyPrefixLength,
      maxExpansions: this.query.fuzzyMaxExpansions,
      transpositions: this.query.fuzzyTranspositions,
      lenient: this.lenient,
      zeroTermsQuery: 'null',
      enablePositionIncrements: true,
    };
  }

  /** Unless lenient, a failure fails the query; lenient drops the failing part. */
  private orNullIfLenient(build: () => PlanQuery | null): PlanQuery | null {
    try {
      return build();
    } catch (err) {
      if (this.lenient && err instanceof EsError) return null;
      throw err;
    }
  }

  private defaultQuery(text: string): PlanQuery | null {
    return this.orNullIfLenient(() => multiMatchQuery(this.context, 'most_fields', this.weights, text, this.matchOptions(0)));
  }

  private phraseQuery(text: string, slop: number): PlanQuery | null {
    const suffix = this.query.quoteFieldSuffix;
    const weights =
      suffix === undefined ? this.weights : resolveMappingFields(this.context, [...this.weights].map(([field, boost]) => ({ field, boost })), suffix);
    return this.orNullIfLenient(() => multiMatchQuery(this.context, 'phrase', weights, text, this.matchOptions(slop)));
  }

  private perField(build: (name: string) => PlanQuery): PlanQuery | null {
    const disjuncts: PlanQuery[] = [];
    for (const [name, boost] of this.weights) {
      if (this.context.fields.get(name) === undefined) {
        disjuncts.push(unmappedFieldsQuery([name]));
        continue;
      }
      const query = this.orNullIfLenient(() => build(name));
      if (query !== null) disjuncts.push(boost === 1 ? query : boosted(query, boost));
    }
    if (disjuncts.length === 0) return null;
    return disjuncts.length === 1 ? disjuncts[0]! : { type: 'dis_max', queries: disjuncts, tieBreaker: 1 };
  }

  private normalize(name: string, text: string): string {
    const field = this.context.fields.get(name)!;
    return normalizeWithAnalyzer(this.analyzer ?? searchAnalyzer(this.context, field, false, undefined), text);
  }

  private fuzzyQuery(text: string, edits: number): PlanQuery | null {
    return this.perField((name) =>
      fuzzyQuery(this.context.fields.get(name)!, this.context, this.normalize(name, text), {
        fuzziness: fuzzinessFromEdits(edits),
        prefixLength: this.query.fuzzyPrefixLength,
        maxExpansions: this.query.fuzzyMaxExpansions,
        transpositions: this.query.fuzzyTranspositions,
      }),
    );
  }

  private prefixQuery(text: string): PlanQuery | null {
    return this.perField((name) => prefixQuery(this.context, this.context.fields.get(name)!, this.normalize(name, text), false));
  }
}
