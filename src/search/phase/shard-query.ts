/**
 * The queries one shard runs for a request (SearchExecutionContext.toQuery on the shard): the main query
 * (match_all when the request has none) and the post_filter, built against the shard's index mapping and
 * analyzers, then turned into the execution core's Query objects. Building errors come out as ES's
 * query_shard_exception for this index, which the coordinator reports as a shard failure.
 */
import { buildContext, buildTopLevelQuery, FieldLookup, toExecutionQuery, type BuildContext, type QueryAst } from '../dsl/index.js';
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
  return toExecutionQuery(buildTopLevelQuery(ast, shardBuildContext(target, nowMillis)));
}
