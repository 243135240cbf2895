/**
 * dfs_query_then_fetch (ES's DfsPhase and SearchPhaseController.aggregateDfs): before the query phase, each
 * shard reports the statistics its scoring would read (every term's docFreq/totalTermFreq, every field's
 * maxDoc/docCount/sumTotalTermFreq/sumDocFreq), the coordinator sums them over shards, and each shard then
 * scores with the sums. So a multi-shard index scores exactly as one shard holding the same documents.
 * Statistics are gathered by binding the query to the shard searcher once and recording what it asked.
 */
import type { QueryAst } from '../dsl/index.js';
import type { StatisticsOverride } from '../searcher/index-searcher.js';
import type { CollectionStatistics, TermStatistics } from '../similarity/similarity.js';
import { shardSearcher } from './query-phase.js';
import { buildShardQuery } from './shard-query.js';
import type { ShardSearchTarget } from './shard-target.js';

export interface DfsTermStatistics {
  readonly field: string;
  readonly term: Uint8Array;
  readonly docFreq: number;
  readonly totalTermFreq: number;
}

/** One shard's statistics (plain data, so it could travel between nodes). */
export interface DfsResult {
  readonly terms: readonly DfsTermStatistics[];
  readonly fields: readonly CollectionStatistics[];
}

function termKey(field: string, term: Uint8Array): string {
  return `${field}\u0000${Buffer.from(term).toString('base64')}`;
}

export function executeDfsPhase(target: ShardSearchTarget, query: QueryAst | undefined, nowMillis: number): DfsResult {
  const terms = new Map<string, DfsTermStatistics>();
  const fields = new Map<string, CollectionStatistics>();
  const recorder: StatisticsOverride = {
    term(field, term, local) {
      if (local !== null) terms.set(termKey(field, term), { field, term: Uint8Array.from(term), docFreq: local.docFreq, totalTermFreq: local.totalTermFreq });
      return local;
    },
    collection(field, local) {
      if (local !== null) fields.set(field, local);
      return local;
    },
  };
  const searcher = shardSearcher(target, recorder);
  searcher.createWeight(searcher.rewrite(buildShardQuery(target, query, nowMillis)), 'complete', 1);
  return { terms: [...terms.values()], fields: [...fields.values()] };
}

/** Sums every shard's statistics into the override each shard's query phase scores with. */
export function aggregateDfs(results: readonly DfsResult[]): StatisticsOverride {
  const terms = new Map<string, TermStatistics>();
  const fields = new Map<string, CollectionStatistics>();
  for (const result of results) {
    for (const stats of result.terms) {
      const key = termKey(stats.field, stats.term);
      const seen = terms.get(key);
      terms.set(key, {
        term: stats.term,
        docFreq: (seen?.docFreq ?? 0) + stats.docFreq,
        totalTermFreq: (seen?.totalTermFreq ?? 0) + stats.totalTermFreq,
      });
    }
    for (const stats of result.fields) {
      const seen = fields.get(stats.field);
      fields.set(stats.field, {
        field: stats.field,
        maxDoc: (seen?.maxDoc ?? 0) + stats.maxDoc,
        docCount: (seen?.docCount ?? 0) + stats.docCount,
        sumTotalTermFreq: (seen?.sumTotalTermFreq ?? 0) + stats.sumTotalTermFreq,
        sumDocFreq: (seen?.sumDocFreq ?? 0) + stats.sumDocFreq,
      });
    }
  }
  return {
    // Terms the DFS did not see (a must_not clause, a rewrite that differs per shard) keep local statistics, as in ES.
    term: (field, term, local) => terms.get(termKey(field, term)) ?? local,
    collection: (field, local) => fields.get(field) ?? local,
  };
}
