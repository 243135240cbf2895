/**
 * Search and indexing slow logs, as ES's SearchSlowLog and IndexingSlowLog decide and word them: per index,
 * thresholds for warn, info, debug and trace (`index.search.slowlog.threshold.query.*`, `...fetch.*`,
 * `index.indexing.slowlog.threshold.index.*`, -1 is off); an operation that took longer than a threshold is logged
 * once, at the most severe level it passed. The lines carry ES's `elasticsearch.slowlog.*` fields; where they go
 * (ES's `<cluster>_index_search_slowlog.json` and `_index_indexing_slowlog.json`) is the node's business.
 */
import { formatTimeValueNanos } from '../common/time-value.js';

export const SLOW_LOG_LEVELS = ['warn', 'info', 'debug', 'trace'] as const;
export type SlowLogLevel = (typeof SLOW_LOG_LEVELS)[number];

/** Nanoseconds per level; -1 disables the level. */
export interface SlowLogThresholds {
  readonly warn: number;
  readonly info: number;
  readonly debug: number;
  readonly trace: number;
}

export interface SlowLogSettings {
  readonly query: SlowLogThresholds;
  readonly fetch: SlowLogThresholds;
  readonly index: SlowLogThresholds;
  /** Characters of `_source` an indexing line carries (`index.indexing.slowlog.source`). */
  readonly sourceChars: number;
  /** Whether the source is put on one line (`index.indexing.slowlog.reformat`). */
  readonly reformat: boolean;
}

export type SlowLogKind = 'index.search.slowlog.query' | 'index.search.slowlog.fetch' | 'index.indexing.slowlog.index';

/** Where slow log lines are written; the node gives each kind its own file. */
export interface SlowLogSink {
  write(kind: SlowLogKind, level: SlowLogLevel, fields: Readonly<Record<string, unknown>>): void;
}

/** The level an operation of `tookNanos` is logged at, as ES checks warn, then info, debug, trace (strictly longer). */
export function slowLogLevel(thresholds: SlowLogThresholds, tookNanos: number): SlowLogLevel | undefined {
  for (const level of SLOW_LOG_LEVELS) {
    const threshold = thresholds[level];
    if (threshold >= 0 && tookNanos > threshold) return level;
  }
  return undefined;
}

/** ES's TotalHits.toString: `12 hits`, or `10000+ hits` for a lower bound. */
export function totalHitsText(value: number, relation: 'eq' | 'gte'): string {
  return `${value}${relation === 'gte' ? '+' : ''} hits`;
}

/** SearchSlowLog's fields for one shard's query or fetch phase. */
export function searchSlowLogFields(entry: {
  index: string;
  shard: number;
  tookNanos: number;
  totalHits: string;
  totalShards: number;
  source: string;
  opaqueId: string | undefined;
}): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    'elasticsearch.slowlog.message': `[${entry.index}][${entry.shard}]`,
    'elasticsearch.slowlog.took': formatTimeValueNanos(entry.tookNanos),
    'elasticsearch.slowlog.took_millis': Math.floor(entry.tookNanos / 1e6),
    'elasticsearch.slowlog.total_hits': entry.totalHits,
    'elasticsearch.slowlog.stats': '[]',
    'elasticsearch.slowlog.search_type': 'QUERY_THEN_FETCH',
    'elasticsearch.slowlog.total_shards': entry.totalShards,
    'elasticsearch.slowlog.source': entry.source,
  };
  if (entry.opaqueId !== undefined) fields['elasticsearch.slowlog.id'] = entry.opaqueId;
  return fields;
}

/** IndexingSlowLog's fields for one document: the source cut to `sourceChars`, on one line unless `reformat` is off. */
export function indexingSlowLogFields(entry: {
  index: string;
  indexUuid: string;
  id: string;
  routing: string | undefined;
  tookNanos: number;
  source: string;
  sourceChars: number;
  reformat: boolean;
}): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    'elasticsearch.slowlog.message': `[${entry.index}/${entry.indexUuid}]`,
    'elasticsearch.slowlog.took': formatTimeValueNanos(entry.tookNanos),
    'elasticsearch.slowlog.took_millis': String(Math.floor(entry.tookNanos / 1e6)),
    'elasticsearch.slowlog.id': entry.id,
  };
  if (entry.routing !== undefined) fields['elasticsearch.slowlog.routing'] = entry.routing;
  if (entry.sourceChars > 0) {
    let source = entry.source;
    if (entry.reformat) {
      try {
        source = JSON.stringify(JSON.parse(source));
      } catch {
        source = source.replace(/\s*\n\s*/g, ' ');
      }
    }
    fields['elasticsearch.slowlog.source'] = source.length > entry.sourceChars ? source.slice(0, entry.sourceChars) : source;
  }
  return fields;
}
