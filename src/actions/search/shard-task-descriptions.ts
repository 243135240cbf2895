/**
 * The `description` of a search's shard-level child tasks, as ES's transport requests describe themselves
 * (`getDescription`, shown by `_tasks?detailed` and `_cat/tasks?detailed`):
 *
 * - a request naming a shard (ShardSearchRequest: dfs, the query phase of a search, of a scroll's first page and of
 *   a point in time): `shardId[[<index>][<shard>]]`, the rest of the request being the parent's;
 * - a node's can-match request (CanMatchNodeRequest): `shardIds[[[<index>][<shard>], ...]]`;
 * - the next page of a scroll (InternalScrollSearchRequest): `id[<context id>], scroll[<keep alive>]`;
 * - a fetch from a context (ShardFetchRequest): `id[<context>], size[<docs>], lastEmittedDoc[<doc or null>]`, the
 *   context as ShardSearchContextId prints itself (`[<session>][<id>] searcherId [null]`) and the last emitted doc
 *   as Lucene's ScoreDoc/FieldDoc print themselves.
 */
import { formatTimeValueMillis } from '../../common/time-value.js';
import type { AfterDoc } from '../../search/phase/index.js';
import type { RemoteContextRef } from './remote-contexts.js';

/** ShardSearchRequest.getDescription. */
export function shardSearchDescription(index: string, shard: number): string {
  return `shardId[[${index}][${shard}]]`;
}

/** CanMatchNodeRequest.getDescription: the node's shards, as a Java list prints them. */
export function canMatchNodeDescription(shards: ReadonlyArray<{ readonly index: string; readonly shard: number }>): string {
  return `shardIds[[${shards.map((shard) => `[${shard.index}][${shard.shard}]`).join(', ')}]]`;
}

/** InternalScrollSearchRequest.getDescription: the context's number and the keep-alive (null when none was sent). */
export function scrollQueryDescription(context: RemoteContextRef, keepAliveMillis: number | undefined): string {
  return `id[${context.contextId}], scroll[${keepAliveMillis === undefined ? 'null' : formatTimeValueMillis(keepAliveMillis)}]`;
}

/** ShardFetchRequest.getDescription. */
export function fetchDescription(context: RemoteContextRef, size: number, shardIndex: number, lastEmitted: AfterDoc | undefined): string {
  return `id[[${context.sessionId}][${context.contextId}] searcherId [null]], size[${size}], lastEmittedDoc[${lastEmitted === undefined ? 'null' : scoreDocString(lastEmitted, shardIndex)}]`;
}

/** Lucene's ScoreDoc.toString (`doc=.. score=.. shardIndex=..`), with FieldDoc's ` fields=[..]` for a field sort. */
function scoreDocString(doc: AfterDoc, shardIndex: number): string {
  if (doc.kind === 'relevance') return `doc=${doc.doc} score=${javaFloat(doc.score)} shardIndex=${shardIndex}`;
  return `doc=${doc.doc} score=NaN shardIndex=${shardIndex} fields=[${doc.values.map((value) => String(value)).join(', ')}]`;
}

/** Java's Float.toString for the common cases: the shortest digits that give the float back; a whole number keeps `.0`. */
function javaFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  const float = Math.fround(value);
  if (Number.isInteger(float) && Math.abs(float) < 1e7) return `${float}.0`;
  for (let digits = 1; digits <= 9; digits++) {
    const shortest = Number(float.toPrecision(digits));
    if (Math.fround(shortest) === float) return String(shortest);
  }
  return String(float);
}
