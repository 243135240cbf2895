/**
 * A shard bulk request and its outcomes as they cross the transport to and from the primary's node. msgpack
 * carries plain values only, and two kinds of value here are more than that: an update's trees (`doc`,
 * `upsert`, the script's `params`) keep number literals as RawJson (update-request.ts), and the `get` block of
 * an update's answer holds its `_source` as RawJson; errors are EsErrors. Sent bare, a RawJson arrives as a
 * plain `{text: "5"}` object, so `ctx._source.n = params.n` on a primary reached through another node wrote an
 * object where the script meant a number. They travel tagged (wire-values.ts) and are rebuilt on arrival.
 *
 * The items and the outcomes of a shard bulk cross as columns (transport/record-columns.ts, decision 0018): a
 * map per item and per outcome made encoding and rebuilding them about 15% of the coordinating node's event loop.
 * An outcome the coordinator can rebuild from its own request (a success for the item's op, index, id and
 * routing, without a `get` block or replica failures) travels as its result, version, seqNo, term, refresh flag
 * and a reference to its `_shards`; anything else travels whole.
 */
import type { EsError } from '../../common/errors.js';
import { column, fromWireError, isRecordColumns, toColumns, toWireError, type RecordColumns, type WireError } from '../../transport/index.js';
import { decodeTagged, encodeTagged } from '../search/wire-values.js';
import type { DocWriteFailure, DocWriteItem, DocWriteOutcome, DocWriteSuccess, ShardInfo, WriteResultName } from './doc-write.js';
import type { UpdateSpec } from './update-request.js';

type WireUpdateSpec = Omit<UpdateSpec, 'script'> & { readonly script: unknown };
export type WireDocWriteItem = Omit<DocWriteItem, 'update'> & { readonly update: WireUpdateSpec | undefined };
export type WireOutcome = DocWriteSuccess | (Omit<DocWriteFailure, 'error'> & { readonly error: WireError });

export function itemToWire(item: DocWriteItem): WireDocWriteItem {
  const update = item.update;
  if (update === undefined) return item as WireDocWriteItem;
  const script = update.script;
  return {
    ...item,
    update: {
      ...update,
      doc: encodeTagged(update.doc) as UpdateSpec['doc'],
      upsert: encodeTagged(update.upsert) as UpdateSpec['upsert'],
      // A stored script that was missing travels as its error (raised when the update runs, as in ES).
      script: script === undefined ? undefined : 'storedScriptError' in script ? { storedScriptError: toWireError(script.storedScriptError) } : encodeTagged(script),
    },
  };
}

export function itemFromWire(item: WireDocWriteItem): DocWriteItem {
  const update = item.update;
  if (update === undefined) return item as DocWriteItem;
  const script = update.script as Record<string, unknown> | undefined;
  return {
    ...item,
    update: {
      ...update,
      doc: decodeTagged(update.doc) as UpdateSpec['doc'],
      upsert: decodeTagged(update.upsert) as UpdateSpec['upsert'],
      script:
        script === undefined
          ? undefined
          : script['storedScriptError'] !== undefined
            ? { storedScriptError: fromWireError(script['storedScriptError'] as WireError) }
            : (decodeTagged(script) as UpdateSpec['script']),
    },
  };
}

export function outcomeToWire(outcome: DocWriteOutcome): WireOutcome {
  if (outcome.kind !== 'success') return { ...outcome, error: toWireError(outcome.error) };
  const failures = outcome.shards.failures;
  const withGet = outcome.get === undefined ? outcome : { ...outcome, get: encodeTagged(outcome.get) as Record<string, unknown> };
  if (failures === undefined || failures.length === 0) return withGet;
  // Replica failures carry errors: they cross the wire as wire errors like an item's own.
  return { ...withGet, shards: { ...outcome.shards, failures: failures.map((failure) => ({ ...failure, error: toWireError(failure.error) as unknown as EsError })) } };
}

export function outcomeFromWire(outcome: WireOutcome): DocWriteOutcome {
  if (outcome.kind !== 'success') return { ...outcome, error: fromWireError(outcome.error) };
  const failures = outcome.shards.failures;
  const withGet = outcome.get === undefined ? outcome : { ...outcome, get: decodeTagged(outcome.get) as Record<string, unknown> };
  if (failures === undefined || failures.length === 0) return withGet;
  return { ...withGet, shards: { ...outcome.shards, failures: failures.map((failure) => ({ ...failure, error: fromWireError(failure.error as unknown as WireError) })) } };
}

const ITEM_KEYS = ['op', 'index', 'id', 'routing', 'version', 'versionType', 'ifSeqNo', 'ifPrimaryTerm', 'source', 'update', 'requireAlias', 'sourceIsUtf8'] as const;

/** A shard bulk request's items as columns. */
export function itemsToWire(items: readonly DocWriteItem[]): RecordColumns {
  return toColumns(items.map(itemToWire), ITEM_KEYS);
}

/** The items of a shard bulk request, whichever form they arrived in (columns, or an array of items). */
export function itemsFromWire(wire: RecordColumns | readonly WireDocWriteItem[]): DocWriteItem[] {
  if (!isRecordColumns(wire)) return wire.map(itemFromWire);
  const [op, index, id, routing, version, versionType, ifSeqNo, ifPrimaryTerm, source, update, requireAlias, sourceIsUtf8] = ITEM_KEYS.map((key) => column(wire, key));
  const items: DocWriteItem[] = new Array(wire.count);
  for (let i = 0; i < wire.count; i++) {
    const item = {
      op: op![i],
      index: index![i],
      id: id![i],
      routing: routing![i],
      version: version![i],
      versionType: versionType![i],
      ifSeqNo: ifSeqNo![i],
      ifPrimaryTerm: ifPrimaryTerm![i],
      source: source![i],
      update: update![i],
      requireAlias: requireAlias![i],
      sourceIsUtf8: sourceIsUtf8![i],
    } as WireDocWriteItem;
    items[i] = item.update === undefined ? (item as DocWriteItem) : itemFromWire(item);
  }
  return items;
}

const RESULT_NAMES: readonly WriteResultName[] = ['created', 'updated', 'deleted', 'not_found', 'noop'];
/** In `results`: the outcome travels whole, in `others`. */
const WHOLE = -1;

/** The outcomes of a shard bulk request as they travel back (see the file comment). */
export interface WireOutcomes {
  readonly results: number[];
  readonly versions: number[];
  readonly seqNos: number[];
  readonly primaryTerms: number[];
  readonly forcedRefreshes: boolean[];
  /** Index into `shardInfos`: one `_shards` per distinct object, not one per item. */
  readonly shardRefs: number[];
  readonly shardInfos: ShardInfo[];
  /** The outcomes marked WHOLE, in order. */
  readonly others: WireOutcome[];
}

/** What both sides know of a request: its concrete index, each item's id, and the items. */
export interface ShardBulkRequestView {
  readonly index: string;
  readonly ids: readonly string[];
  readonly items: readonly DocWriteItem[];
}

function rebuildable(outcome: DocWriteOutcome, request: ShardBulkRequestView, i: number): outcome is DocWriteSuccess {
  if (outcome.kind !== 'success' || outcome.get !== undefined || outcome.shards.failures !== undefined) return false;
  const item = request.items[i]!;
  return outcome.op === item.op && outcome.index === request.index && outcome.id === request.ids[i] && outcome.routing === item.routing;
}

export function outcomesToWire(outcomes: readonly DocWriteOutcome[], request: ShardBulkRequestView): WireOutcomes {
  const wire: WireOutcomes = { results: [], versions: [], seqNos: [], primaryTerms: [], forcedRefreshes: [], shardRefs: [], shardInfos: [], others: [] };
  const shardRefs = new Map<ShardInfo, number>();
  outcomes.forEach((outcome, i) => {
    // (indexOf answers -1, WHOLE, for a result name this list lacks: such an outcome travels whole.)
    const result = rebuildable(outcome, request, i) ? RESULT_NAMES.indexOf(outcome.result) : WHOLE;
    wire.results.push(result);
    if (result === WHOLE) {
      wire.others.push(outcomeToWire(outcome));
      wire.versions.push(0);
      wire.seqNos.push(0);
      wire.primaryTerms.push(0);
      wire.forcedRefreshes.push(false);
      wire.shardRefs.push(0);
      return;
    }
    const success = outcome as DocWriteSuccess;
    let ref = shardRefs.get(success.shards);
    if (ref === undefined) {
      ref = wire.shardInfos.length;
      shardRefs.set(success.shards, ref);
      wire.shardInfos.push({ total: success.shards.total, successful: success.shards.successful, failed: success.shards.failed });
    }
    wire.versions.push(success.version);
    wire.seqNos.push(success.seqNo);
    wire.primaryTerms.push(success.primaryTerm);
    wire.forcedRefreshes.push(success.forcedRefresh);
    wire.shardRefs.push(ref);
  });
  return wire;
}

/** The outcomes as the primary produced them, from the wire form and the request they answer. */
export function outcomesFromWire(wire: WireOutcomes | readonly WireOutcome[], request: ShardBulkRequestView): DocWriteOutcome[] {
  if (Array.isArray(wire)) return (wire as readonly WireOutcome[]).map(outcomeFromWire);
  const packed = wire as WireOutcomes;
  if (packed.results.length !== request.items.length) throw new TypeError(`a shard bulk answered ${packed.results.length} outcomes for ${request.items.length} items`);
  const outcomes: DocWriteOutcome[] = new Array(packed.results.length);
  // One `_shards` object per distinct block, shared by its items as on the primary (nothing changes one in place:
  // replication replaces an outcome's `_shards` whole).
  const shardInfos = packed.shardInfos.map((shards): ShardInfo => ({ total: shards.total, successful: shards.successful, failed: shards.failed }));
  let other = 0;
  for (let i = 0; i < packed.results.length; i++) {
    const result = packed.results[i]!;
    if (result === WHOLE) {
      outcomes[i] = outcomeFromWire(packed.others[other++]!);
      continue;
    }
    const item = request.items[i]!;
    const shards = shardInfos[packed.shardRefs[i]!];
    if (shards === undefined) throw new TypeError(`a shard bulk outcome refers to _shards block ${packed.shardRefs[i]} of ${shardInfos.length}`);
    outcomes[i] = {
      kind: 'success',
      op: item.op,
      index: request.index,
      id: request.ids[i]!,
      version: packed.versions[i]!,
      result: RESULT_NAMES[result]!,
      seqNo: packed.seqNos[i]!,
      primaryTerm: packed.primaryTerms[i]!,
      shards,
      forcedRefresh: packed.forcedRefreshes[i]!,
      routing: item.routing,
    };
  }
  return outcomes;
}
