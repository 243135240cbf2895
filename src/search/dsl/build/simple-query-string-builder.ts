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
import { parseSimpleQueryStringSteps, type SqsBranch, type SqsNode } from '../syntax/simple-query-string-parser.js';
import { queryShardError, type BuildContext } from './build-context.js';
import { fuzzyQuery, prefixQuery, termQuery } from './field-queries.js';
import type { MatchOptions } from './match-builder.js';
import { unmappedFieldsQuery } from './match-builder.js';
import { applyMinimumShouldMatch } from './minimum-should-match.js';
import { defaultFieldBoosts, multiMatchQuery, resolveMappingFields } from './multi-match-builder.js';
import { bool, boosted, MATCH_ALL, matchNone, type Occur, type PlanClause, type PlanQuery } from './query-plan.js';
import { ClauseBudget, tooManyClauses } from './clause-limits.js';
import { analyze, normalizeWithAnalyzer, searchAnalyzer } from './text-analysis.js';

export function buildSimpleQueryStringQuery(query: SimpleQueryStringQuery, context: BuildContext): PlanQuery {
  const prebuilt = context.prebuilt?.get(query);
  if (prebuilt !== undefined) {
    if (prebuilt instanceof Error) throw prebuilt;
    return prebuilt as PlanQuery;
  }
  const steps = simpleQueryStringSteps(query, context);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * Builds the query in slices, `pause` between them, and keeps the outcome (or its failure) in
 * `context.prebuilt` for the build that follows: 50,000 terms take long to build even when the clause limit
 * refuses them, and the event loop must keep turning meanwhile.
 */
export async function prebuildSimpleQueryStringQuery(query: SimpleQueryStringQuery, context: BuildContext, pause: () => Promise<void>): Promise<void> {
  if (context.prebuilt === undefined || context.prebuilt.has(query)) return;
  const steps = simpleQueryStringSteps(query, context);
  let outcome: PlanQuery | Error;
  try {
    for (;;) {
      const step = steps.next();
      if (step.done === true) {
        outcome = step.value;
        break;
      }
      await pause();
    }
  } catch (err) {
    // A cancelled task stops here; a failure of the query itself is thrown again where the query is built.
    if (!(err instanceof EsError) || err.type === 'task_cancelled_exception') throw err;
    outcome = err;
  }
  context.prebuilt.set(query, outcome);
}

function* simpleQueryStringSteps(query: SimpleQueryStringQuery, context: BuildContext): Generator<void, PlanQuery> {
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
  const tree = yield* parseSimpleQueryStringSteps(query.query, flags);
  const built = yield* evaluate(tree, leaves, query.defaultOperator === 'and' ? 'must' : 'should', new ClauseBudget(context.maxClauseCount), context.maxClauseCount);
  const result = built ?? matchNone('empty string passed to query parser');
  return applyMinimumShouldMatch(result, query.minimumShouldMatch);
}

const ALL_FLAGS = Object.values(SIMPLE_QUERY_STRING_FLAGS).reduce((all, flag) => (flag > 0 ? all | flag : all), 0);

/** Branches built between two pauses of a sliced build. */
const BRANCHES_PER_STEP = 4;

/**
 * SimpleQueryParser's state machine replayed over the scanned events: an operator only counts after a
 * non-empty branch; a new operator starts a new boolean level holding the tree so far (`a | b + c` is
 * `+(a b) +c`); an odd number of `-` wraps the branch as `-branch *:*`. Branches that analyze to nothing
 * are skipped, and the pending operator is cleared after every branch either way.
 *
 * The clause limit is checked as branches are added: one level passing it fails as BooleanQuery.Builder does;
 * the leaves of the whole tree are counted as they come and fail as Lucene's rewrite would (only where no
 * level can pass the limit, since ES would report that failure first).
 */
function* evaluate(
  node: SqsNode,
  leaves: LeafBuilder,
  defaultOperator: Extract<Occur, 'must' | 'should'>,
  budget: ClauseBudget,
  maxClauseCount: number,
): Generator<void, PlanQuery | null> {
  let top: PlanQuery | null = null;
  // The clauses of the level being filled (a bool that becomes the result when the events end or a new level starts).
  let level: PlanClause[] | undefined;
  let currentOperation: Extract<Occur, 'must' | 'should'> | undefined;
  let previousOperation: Occur | undefined;
  const branchEvents = node.events.reduce((count, event) => count + (event.kind === 'branch' ? 1 : 0), 0);
  const countLeaves = branchEvents <= maxClauseCount;
  let built = 0;
  for (const event of node.events) {
    if (event.kind === 'operator') {
      if (currentOperation === undefined && top !== null) currentOperation = event.occur;
      continue;
    }
    if (event.kind === 'reset') {
      currentOperation = undefined;
      continue;
    }
    if (++built % BRANCHES_PER_STEP === 0) yield;
    let branch = event.branch.kind === 'group' ? yield* evaluate(event.branch.node, leaves, defaultOperator, budget, maxClauseCount) : leaves.branch(event.branch);
    if (branch !== null) {
      if (event.negations % 2 === 1) {
        branch = bool([
          { occur: 'must_not', query: branch },
          { occur: 'should', query: MATCH_ALL },
        ]);
      }
      if (countLeaves && event.branch.kind !== 'group') budget.add(branch);
      if (top === null) {
        top = branch;
      } else {
        const operation = currentOperation ?? defaultOperator;
        if (previousOperation !== operation || level === undefined) {
          level = [{ occur: operation, query: level === undefined ? top : bool(level) }];
        }
        if (level.length >= maxClauseCount) throw tooManyClauses(maxClauseCount);
        level.push({ occur: operation, query: branch });
        previousOperation = operation;
      }
    }
    currentOperation = undefined;
  }
  return level === undefined ? top : bool(level);
}

class LeafBuilder {
  constructor(
    private readonly context: BuildContext,
    private readonly query: SimpleQueryStringQuery,
    private readonly weights: Map<string, number>,
    private readonly analyzer: Analyzer | undefined,
    private readonly lenient: boolean,
  ) {}

  branch(branch: Exclude<SqsBranch, { kind: 'group' }>): PlanQuery | null {
    switch (branch.kind) {
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

  /** rethrowUnlessLenient: lenient turns a field's failure into a match_none naming it. */
  private rethrowUnlessLenient(err: unknown): PlanQuery {
    if (this.lenient && err instanceof EsError) return matchNone(`failed query, caused by ${err.reason}`);
    throw err;
  }

  /** newDefaultQuery: a most_fields match over the fields (leniency applies per field inside it). */
  private defaultQuery(text: string): PlanQuery | null {
    return multiMatchQuery(this.context, 'most_fields', this.weights, text, this.matchOptions(0));
  }

  private phraseQuery(text: string, slop: number): PlanQuery | null {
    const suffix = this.query.quoteFieldSuffix;
    const weights =
      suffix === undefined ? this.weights : resolveMappingFields(this.context, [...this.weights].map(([field, boost]) => ({ field, boost })), suffix);
    return multiMatchQuery(this.context, 'phrase', weights, text, this.matchOptions(slop));
  }

  /** newFuzzyQuery/newPrefixQuery: one query per field, a dis_max(1.0) over several. */
  private perField(build: (name: string) => PlanQuery | null): PlanQuery | null {
    const disjuncts: PlanQuery[] = [];
    for (const [name, boost] of this.weights) {
      if (this.context.fields.get(name) === undefined) {
        disjuncts.push(unmappedFieldsQuery([name]));
        continue;
      }
      let query: PlanQuery | null;
      try {
        query = build(name);
      } catch (err) {
        query = this.rethrowUnlessLenient(err);
      }
      if (query === null) continue;
      // wrapWithBoost: a match_none is never boosted.
      disjuncts.push(boost === 1 || query.type === 'match_none' ? query : boosted(query, boost));
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
    return this.perField((name) => {
      const field = this.context.fields.get(name)!;
      if (this.query.analyzeWildcard) return this.analyzedPrefix(name, text);
      return prefixQuery(this.context, field, this.normalize(name, text), false);
    });
  }

  /** newPossiblyAnalyzedQuery: the text analyzed, a term per position, the last position a prefix. */
  private analyzedPrefix(name: string, text: string): PlanQuery | null {
    const field = this.context.fields.get(name)!;
    const analyzer = this.analyzer ?? searchAnalyzer(this.context, field, false, undefined);
    const tokens = analyzer === undefined ? [{ term: text, positionIncrement: 1, endOffset: text.length }] : analyze(analyzer, text).tokens;
    const positions: string[][] = [];
    for (const token of tokens) {
      const term = normalizeWithAnalyzer(analyzer, token.term);
      if (positions.length > 0 && token.positionIncrement === 0) positions[positions.length - 1]!.push(term);
      else positions.push([term]);
    }
    if (positions.length === 0) return null;
    const prefix = (term: string): PlanQuery => ({ type: 'prefix', field: name, prefix: term, caseInsensitive: false });
    if (positions.length === 1 && positions[0]!.length === 1) return prefix(positions[0]![0]!);
    const occur = this.query.defaultOperator === 'and' ? ('must' as const) : ('should' as const);
    return bool(
      positions.map((terms, index) => {
        const last = index === positions.length - 1;
        if (terms.length === 1) return { occur, query: last ? prefix(terms[0]!) : termQuery(this.context, field, terms[0]!) };
        const alternatives = terms.map((term) => ({ occur: 'should' as const, query: last ? prefix(term) : termQuery(this.context, field, term) }));
        return { occur, query: bool(alternatives) };
      }),
    );
  }
}
