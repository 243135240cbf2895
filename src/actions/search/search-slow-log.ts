/**
 * The search slow log (ES's SearchSlowLog.onQueryPhase / onFetchPhase): one line per shard phase that took longer
 * than one of the index's thresholds, written by the node that ran the phase, as in ES, where each data node logs
 * its own shards. Every shard's phase is logged on the node that ran it (remote-shard-search.ts, remote-contexts.ts;
 * this node's own shards too, decision 0024), from what the coordinating node sends along with the phase: the
 * request's source, its shard count and X-Opaque-Id (`SearchSlowLogRequest`). The coordinating node sends them only
 * when the index has a search slow log threshold set, so a search pays nothing for a log nobody turned on.
 */
import type { ClusterState } from '../../cluster/index.js';
import { readIndexSettings, searchSlowLogFields, slowLogLevel, type IndexService, type SlowLogThresholds } from '../../indices/index.js';
import type { NodeServices } from '../context.js';

export type SearchPhase = 'query' | 'fetch';

/** What a shard's node needs to write a slow log line for a phase it runs for another node. */
export interface SearchSlowLogRequest {
  readonly source: string;
  readonly totalShards: number;
  readonly opaqueId: string | undefined;
}

function enabled(thresholds: SlowLogThresholds): boolean {
  return thresholds.warn >= 0 || thresholds.info >= 0 || thresholds.debug >= 0 || thresholds.trace >= 0;
}

/**
 * Whether an index has a search slow log threshold set, by its settings object (the cluster state's index settings
 * are immutable, a change makes a new object): asked for every shard phase of every search, so read once.
 */
const LOGS_SEARCH_PHASES = new WeakMap<Readonly<Record<string, string>>, boolean>();
function logsSearchPhases(settings: Readonly<Record<string, string>>): boolean {
  let logs = LOGS_SEARCH_PHASES.get(settings);
  if (logs === undefined) {
    const { slowLog } = readIndexSettings(settings);
    logs = enabled(slowLog.query) || enabled(slowLog.fetch);
    LOGS_SEARCH_PHASES.set(settings, logs);
  }
  return logs;
}

/** The slow log details to send with a shard's phase, or undefined when the index logs no search phase. */
export function slowLogRequestFor(
  state: ClusterState,
  index: string,
  entry: { readonly totalShards: number; readonly source: (() => string) | undefined; readonly opaqueId: unknown },
): SearchSlowLogRequest | undefined {
  const metadata = state.indices.get(index);
  if (metadata === undefined || !logsSearchPhases(metadata.settings)) return undefined;
  return { source: entry.source?.() ?? '{}', totalShards: entry.totalShards, opaqueId: typeof entry.opaqueId === 'string' ? entry.opaqueId : undefined };
}

/** Writes the phase's line when it passed one of the index's thresholds for that phase. */
export function logSearchPhase(
  services: NodeServices,
  service: IndexService | undefined,
  phase: SearchPhase,
  entry: {
    readonly index: string;
    readonly shard: number;
    readonly tookMillis: number;
    /** `-1` for a fetch phase (ES's fetch context knows no total). */
    readonly totalHits: string;
    readonly totalShards: number;
    readonly source: () => string;
    readonly opaqueId: string | undefined;
  },
): void {
  const sink = services.slowLogs;
  const settings = service?.settings.slowLog;
  if (sink === undefined || settings === undefined) return;
  const tookNanos = Math.round(entry.tookMillis * 1e6);
  const level = slowLogLevel(phase === 'query' ? settings.query : settings.fetch, tookNanos);
  if (level === undefined) return;
  sink.write(
    phase === 'query' ? 'index.search.slowlog.query' : 'index.search.slowlog.fetch',
    level,
    searchSlowLogFields({
      index: entry.index,
      shard: entry.shard,
      tookNanos,
      totalHits: entry.totalHits,
      totalShards: entry.totalShards,
      source: entry.source(),
      opaqueId: entry.opaqueId,
    }),
  );
}

/** A phase run here for another node: logged with the details it sent (none sent: the index logs no search phase). */
export function logRemoteSearchPhase(
  services: NodeServices,
  service: IndexService | undefined,
  phase: SearchPhase,
  slowLog: SearchSlowLogRequest | undefined,
  entry: { readonly index: string; readonly shard: number; readonly tookMillis: number; readonly totalHits: string },
): void {
  if (slowLog === undefined) return;
  logSearchPhase(services, service, phase, { ...entry, totalShards: slowLog.totalShards, source: () => slowLog.source, opaqueId: slowLog.opaqueId });
}
