/**
 * The data node's part of `_terms_enum` (ES's TransportTermsEnumAction.dataNodeOperation): for the shards the
 * coordinating node named on this node, the indexed terms of one keyword field that start with `string` (case
 * insensitively if asked) and come after `search_after`, merged across the shards' segments in term order without
 * duplicates, at most `size` of them. Terms come from the term dictionary, or from the sorted set doc values of a
 * keyword that is not indexed; other field types have no terms here (ES returns none for them either). The work
 * stops at the request's deadline (`complete: false`), checked every 100 terms as ES does. A shard whose query
 * `index_filter` rewrites to match_none is left out. Terms of deleted documents count until a merge drops them, as
 * in ES.
 */
import { toEsError } from '../../common/errors.js';
import type { Searcher, SegmentView } from '../../engine/searcher.js';
import type { QueryAst } from '../../search/dsl/index.js';
import { canMatchShard, fieldLookupFor } from '../../search/phase/index.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { targetFor } from './search-shards.js';
import { errors } from '../../common/errors.js';

export const TERMS_ENUM_ACTION = 'indices:data/read/xpack/termsenum/list';
export const TERMS_ENUM_NODE_ACTION = `${TERMS_ENUM_ACTION}[s]`;

export interface TermsEnumShard {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
}

export interface NodeTermsEnumRequest {
  readonly shards: readonly TermsEnumShard[];
  readonly field: string;
  /** The prefix ('' for every term). */
  readonly string: string;
  readonly caseInsensitive: boolean;
  readonly searchAfter: string | undefined;
  readonly size: number;
  readonly timeoutMillis: number;
  readonly indexFilter: QueryAst | undefined;
  readonly nowMillis: number;
}

export interface NodeTermsEnumResponse {
  /** In UTF-8 byte order (the term dictionary's). */
  readonly terms: string[];
  /** False when the deadline came first. */
  readonly complete: boolean;
  /** The error that failed every shard of this request (ES reports one error per node for all its shards). */
  readonly error?: { readonly type: string; readonly reason: string; readonly status: number };
}

/** A segment's terms of the field in order, positioned on a term (or exhausted). */
interface TermCursor {
  /** The current term's bytes (valid until the cursor moves). */
  term(): Buffer;
  next(): boolean;
}

const CLOCK_CHECK_EVERY = 100;

function compareBuffers(a: Buffer, b: Buffer): number {
  return Buffer.compare(a, b);
}

/** The cursor over a segment's term dictionary, on the first term >= start; undefined when there is none. */
function termDictionaryCursor(segment: SegmentView, field: string, start: Buffer): TermCursor | undefined {
  const terms = segment.readers.terms.terms(field);
  if (terms === undefined) return undefined;
  const termsEnum = terms.iterator();
  const positioned = start.length === 0 ? termsEnum.next() : termsEnum.seekCeil(start) !== 'end';
  if (!positioned) return undefined;
  return { term: () => termsEnum.term(), next: () => termsEnum.next() };
}

/** The cursor over a segment's sorted set doc values (a keyword that is not indexed), on the first term >= start. */
function docValuesCursor(segment: SegmentView, field: string, start: Buffer): TermCursor | undefined {
  const values = segment.readers.docValues.sortedSet(field);
  if (values === undefined || values.valueCount === 0) return undefined;
  const found = values.lookupTerm(start);
  let ord = found >= 0 ? found : -found - 1;
  if (ord >= values.valueCount) return undefined;
  return {
    term: () => values.lookupOrd(ord),
    next: () => ++ord < values.valueCount,
  };
}

/** Where a case-sensitive walk starts: the prefix, or search_after when that comes later. */
function startOf(request: NodeTermsEnumRequest): Buffer {
  const prefix = request.caseInsensitive ? Buffer.alloc(0) : Buffer.from(request.string, 'utf8');
  const after = request.searchAfter === undefined ? undefined : Buffer.from(request.searchAfter, 'utf8');
  return after !== undefined && compareBuffers(after, prefix) > 0 ? after : prefix;
}

function openCursors(searcher: Searcher, field: string, indexed: boolean, start: Buffer): TermCursor[] {
  const cursors: TermCursor[] = [];
  for (const segment of searcher.segments) {
    const cursor = indexed ? termDictionaryCursor(segment, field, start) : docValuesCursor(segment, field, start);
    if (cursor !== undefined) cursors.push(cursor);
  }
  return cursors;
}

/** ES's caseInsensitivePrefix: the term begins with the prefix, letter case aside. */
function startsCaseInsensitively(term: string, lowerPrefix: string): boolean {
  return term.slice(0, lowerPrefix.length).toLowerCase() === lowerPrefix || term.toLowerCase().startsWith(lowerPrefix);
}

export async function termsEnumOnNode(services: NodeServices, request: NodeTermsEnumRequest, task: Task): Promise<NodeTermsEnumResponse> {
  const deadline = performance.now() + request.timeoutMillis;
  const indices = indicesOf(services).service;
  const searchers: Searcher[] = [];
  const terms: string[] = [];
  try {
    const cursors: TermCursor[] = [];
    const start = startOf(request);
    for (const ref of request.shards) {
      task.ensureNotCancelled();
      if (performance.now() > deadline) return { terms, complete: false };
      const service = indices.indexService(ref.index);
      const shard = indices.shard(ref.index, ref.shard);
      if (service === undefined || shard === undefined || service.uuid !== ref.indexUuid || shard.state === 'closed') throw errors.shardNotFound(ref.index, ref.indexUuid, ref.shard);
      const searcher = shard.acquireSearcher();
      searchers.push(searcher);
      if (request.indexFilter !== undefined) {
        const target = targetFor({ ...ref, shardIndex: 0 }, service, searcher, services);
        // ES's SearchService.canMatch: a copy with a pending (skipped) refresh can match, whatever its last refresh
        // says; the terms still come from that last refresh (ES's terms enum awaits no refresh).
        if (!shard.hasRefreshPending && !canMatchShard(target, request.indexFilter, request.nowMillis)) continue;
      }
      const mapped = fieldLookupFor(service.mapping, service.settings.mapping).get(request.field);
      if (mapped === undefined || mapped.kind !== 'mapped' || mapped.options.type !== 'keyword') continue;
      const options = mapped.options;
      if (!options.index && !options.docValues) continue;
      cursors.push(...openCursors(searcher, request.field, options.index, start));
    }
    const prefix = Buffer.from(request.string, 'utf8');
    const lowerPrefix = request.string.toLowerCase();
    const after = request.searchAfter === undefined ? undefined : Buffer.from(request.searchAfter, 'utf8');
    let live = cursors;
    let last: Buffer | undefined;
    let sinceClockCheck = 0;
    // Merge the segments' ordered terms: take the smallest current term, move every cursor that stands on it.
    while (live.length > 0 && terms.length < request.size) {
      if (++sinceClockCheck > CLOCK_CHECK_EVERY) {
        sinceClockCheck = 0;
        if (performance.now() > deadline) return { terms, complete: false };
        task.ensureNotCancelled();
      }
      let smallest = live[0]!.term();
      for (const cursor of live) if (compareBuffers(cursor.term(), smallest) < 0) smallest = cursor.term();
      const term = Buffer.from(smallest);
      live = live.filter((cursor) => compareBuffers(cursor.term(), term) !== 0 || cursor.next());
      if (last !== undefined && compareBuffers(term, last) === 0) continue;
      last = term;
      if (after !== undefined && compareBuffers(term, after) <= 0) continue;
      if (request.caseInsensitive) {
        if (!startsCaseInsensitively(term.toString('utf8'), lowerPrefix)) continue;
      } else if (!term.subarray(0, prefix.length).equals(prefix)) {
        // Past the prefix: no later term can start with it.
        break;
      }
      terms.push(term.toString('utf8'));
    }
    return { terms, complete: true };
  } catch (err) {
    const error = toEsError(err);
    if (error.type === 'task_cancelled_exception') throw error;
    return { terms, complete: true, error: { type: error.type, reason: error.reason, status: error.status } };
  } finally {
    for (const searcher of searchers) searcher.release();
  }
}
