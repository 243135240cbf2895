/**
 * The queries one shard runs for a request (SearchExecutionContext.toQuery on the shard): the main query
 * (match_all when the request has none) and the post_filter, built against the shard's index mapping and
 * analyzers, then turned into the execution core's Query objects. Building errors come out as ES's
 * query_shard_exception for this index, which the coordinator reports as a shard failure.
 */
import { EsError } from '../../common/errors.js';
import { buildContext, buildTopLevelQuery, childPlans, FieldLookup, prebuildSimpleQueryStringQuery, queryShardError, toExecutionQuery, type BuildContext, type PlanQuery, type QueryAst, type SimpleQueryStringQuery } from '../dsl/index.js';
import { precompileRegexpDfa } from '../query/multiterm/automaton.js';
import { parseLuceneRegexp, REGEXP_ALL } from '../query/multiterm/lucene-regexp.js';
import type { MappingSettings, RootMapping } from '../../mapping/index.js';
import { MatchAllDocsQuery } from '../query/match-all-docs-query.js';
import type { Query } from '../core/query.js';
import type { ShardSearchTarget } from './shard-target.js';

/** One FieldLookup per mapping object (mappings are immutable; a new mapping is a new object). */
const FIELD_LOOKUPS = new WeakMap<RootMapping, { settings: MappingSettings; lookup: FieldLookup }>();

export function fieldLookupFor(mapping: RootMapping, settings: MappingSettings): FieldLookup {
  const cached = FIELD_LOOKUPS.get(mapping);
  if (cached !== undefined && cached.settings === settings) return cached.lookup;
  const lookup = new FieldLookup(mapping, settings);
  FIELD_LOOKUPS.set(mapping, { settings, lookup });
  return lookup;
}

/** The query-building context of a shard; `nowMillis` is the request's fixed `now`. */
export function shardBuildContext(target: ShardSearchTarget, nowMillis: number): BuildContext {
  return buildContext({
    indexName: target.index,
    indexUuid: target.indexUuid,
    fields: fieldLookupFor(target.mapping, target.mappingSettings),
    analysis: target.analysis,
    now: () => nowMillis,
    maxClauseCount: target.settings.maxClauseCount,
    maxTermsCount: target.settings.maxTermsCount,
    maxRegexLength: target.settings.maxRegexLength,
    defaultFields: target.settings.defaultFields,
    queryStringLenient: target.settings.queryStringLenient,
  });
}

/** A query AST built for this shard; undefined (no query in the request) is match_all. */
export function buildShardQuery(target: ShardSearchTarget, ast: QueryAst | undefined, nowMillis: number): Query {
  if (ast === undefined) return new MatchAllDocsQuery();
  const context = shardBuildContext(target, nowMillis);
  return executionQuery(buildTopLevelQuery(ast, context), context);
}

/**
 * buildShardQuery for a search phase: the automata of the query's regexps are built first in slices, with
 * `pause` (the phase's checkpoint) between them, so a regexp that takes long to determinize (or to refuse)
 * does not hold the event loop; the query built afterwards finds them compiled.
 */
export async function buildShardQuerySliced(target: ShardSearchTarget, ast: QueryAst | undefined, nowMillis: number, pause: () => Promise<void>): Promise<Query> {
  if (ast === undefined) return new MatchAllDocsQuery();
  const context = shardBuildContext(target, nowMillis);
  for (const node of simpleQueryStringsOf(ast)) await prebuildSimpleQueryStringQuery(node, context, pause);
  const plan = buildTopLevelQuery(ast, context);
  for (const regexp of regexpsOf(plan)) {
    let root;
    try {
      root = parseLuceneRegexp(regexp.pattern, regexp.flags);
    } catch {
      continue; // a syntax error is reported where the query is built, as before
    }
    await precompileRegexpDfa(root, regexp.pattern, regexp.caseInsensitive, regexp.maxDeterminizedStates, regexp.flags & REGEXP_ALL, pause);
  }
  return executionQuery(plan, context);
}

/** The simple_query_string queries anywhere in a query AST (a walk over its plain data). */
function simpleQueryStringsOf(ast: QueryAst): SimpleQueryStringQuery[] {
  const found: SimpleQueryStringQuery[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    if ((value as { kind?: unknown }).kind === 'simple_query_string') {
      found.push(value as SimpleQueryStringQuery);
      continue;
    }
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return found;
}

type RegexpPlan = Extract<PlanQuery, { type: 'regexp' }>;

/** The regexp queries anywhere in a plan. */
function regexpsOf(plan: PlanQuery): RegexpPlan[] {
  const found: RegexpPlan[] = [];
  const stack: PlanQuery[] = [plan];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.type === 'regexp') found.push(next);
    else stack.push(...(childPlans(next, { functionFilters: true }) ?? []));
  }
  return found;
}

function executionQuery(plan: PlanQuery, context: BuildContext): Query {
  try {
    return toExecutionQuery(plan);
  } catch (err) {
    // Lucene builds automata (regexp, wildcard) in the query's constructor, inside ES's toQuery: a failure there
    // (TooComplexToDeterminizeException) is a query_shard_exception "failed to create query", as in ES.
    if (err instanceof EsError && err.type === 'too_complex_to_determinize_exception') throw queryShardError(context, `failed to create query: ${err.reason}`, err);
    throw err;
  }
}
