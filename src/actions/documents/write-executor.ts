/**
 * Coordinates a batch of document writes, as ES's TransportBulkAction + TransportShardBulkAction: creates missing
 * target indices (action.auto_create_index), resolves aliases to their write index, fills in auto-generated ids,
 * routes each item to its shard, runs each shard's items in order on its primary once enough copies are active
 * (`wait_for_active_shards`, waiting up to `timeout`), then refreshes (`refresh=true`) or waits for a refresh
 * (`refresh=wait_for`). Outcomes come back in the items' order; an item's failure never fails the others.
 */
import { EsError, errors, indexErrors, replicationErrors, toEsError } from '../../common/errors.js';
import { byteSizeString } from '../../common/es-units.js';
import { nextTurn, queueTurn } from '../../common/loop-turns.js';
import { type DiscoveryNode, hasNoMasterBlock, isAlias, isDateMathExpression, resolveDateMathExpression, resolveWriteIndex as resolveAliasWriteIndex, resolveWriteIndexRouting, type ClusterState, type IndexMetadata } from '../../cluster/index.js';
import { checkWriteBlocks, storedMapping } from '../../cluster/metadata/index-updates.js';
import type { RoutingTableShape } from '../../indices/index.js';
import { parseActiveShardCount, requiredCopies, activeCopies, shardHasEnoughActive, type ActiveShardCount } from '../../cluster/metadata/active-shard-count.js';
import { indexingSlowLogFields, readIndexSettings, replicate, shardIdFor, slowLogLevel, timeBasedUuid, type IndexService, type IndexShard, type ReplicatedOperation, type ReplicationShardInfo } from '../../indices/index.js';
import type { ActionContext } from '../rest.js';
import { sendToNode } from '../remote-node.js';
import { isPrimaryMoved } from '../copy-unavailable.js';
import { indicesOf } from '../indices-services.js';
import type { DocWriteFailure, DocWriteItem, DocWriteOutcome, DocWriteSuccess, ShardInfo } from './doc-write.js';
import { executeOnPrimary, indexPrepared, prepareIndexIfMapped, prepareOnPrimary, type ShardIndexOperation } from './primary-executor.js';
import type { RefreshPolicy } from './write-params.js';
import { itemsFromWire, itemsToWire, outcomesFromWire, outcomesToWire, type ShardBulkRequestView, type WireDocWriteItem, type WireOutcome, type WireOutcomes } from './shard-bulk-wire.js';
import type { RecordColumns } from '../../transport/index.js';

export interface WriteOptions {
  readonly refresh: RefreshPolicy;
  readonly timeoutMillis: number;
  /** The request's `wait_for_active_shards`; undefined uses each index's `index.write.wait_for_active_shards`. */
  readonly waitForActiveShards: string | undefined;
  /** Request bytes, for bulk statistics. */
  readonly requestBytes?: number;
}

/** Index/create items parsed ahead of the engine per turn (see runShardGroup). */
const RUN_LENGTH = 128;

interface ShardGroup {
  readonly index: IndexMetadata;
  readonly shard: number;
  readonly positions: number[];
  readonly ids: string[];
  /** Positions whose id Gannet generated (the engine may skip the id lookup for them). */
  readonly autoIds: Set<number>;
}

/** ES's write index of an alias (or the index itself). */
export const resolveWriteIndex = resolveAliasWriteIndex;

/** Deletes do not create indices (unless externally versioned), as in ES. */
function createsIndex(item: DocWriteItem): boolean {
  return item.op !== 'delete' || item.versionType !== 'internal';
}

export async function executeWrites(requested: readonly DocWriteItem[], options: WriteOptions, context: ActionContext): Promise<DocWriteOutcome[]> {
  const { metadata } = indicesOf(context.services);
  const clusterService = context.services.clusterService;
  const outcomes: DocWriteOutcome[] = new Array(requested.length);
  const fail = (position: number, index: string | undefined, id: string | undefined, err: unknown): void => {
    outcomes[position] = { kind: 'failure', op: requested[position]!.op, index, id, error: toEsError(err) };
  };

  // 0. Date math names (`<logs-{now/d}>`) stand for their dated index, resolved with one "now" for the request.
  const nameErrors = new Map<number, EsError>();
  const now = Date.now();
  const items = requested.map((item, position) => {
    if (item.index === undefined || !isDateMathExpression(item.index)) return item;
    try {
      return { ...item, index: resolveDateMathExpression(item.index, now) };
    } catch (err) {
      nameErrors.set(position, toEsError(err));
      return item;
    }
  });

  // 1. A node that knows no master (etcd lost, an election under way) refuses writes: ES's no-master block is
  // retryable, so the request waits for a master up to its `timeout`, then fails as a whole with the block.
  await waitForNoMasterBlockToClear(clusterService, options.timeoutMillis, context.task.signal);

  // 2. Missing indices are created first, each once, whatever the number of items naming it.
  const creationErrors = new Map<string, EsError>();
  const before = clusterService.state();
  const toCreate = new Set<string>();
  for (const [position, item] of items.entries()) {
    if (item.index === undefined || item.requireAlias || !createsIndex(item) || nameErrors.has(position)) continue;
    if (!before.indices.has(item.index) && !isAlias(before, item.index)) toCreate.add(item.index);
  }
  await Promise.all(
    [...toCreate].map((name) =>
      metadata.autoCreateIndex(name, context.task.signal).catch((err) => {
        creationErrors.set(name, toEsError(err));
      }),
    ),
  );

  // 3. Route every item to its shard.
  const state = clusterService.state();
  const groups = new Map<string, ShardGroup>();
  // Per index once per batch: the routing shape and whether routing is required.
  const shapes = new Map<string, { shape: RoutingTableShape; routingRequired: boolean }>();
  const shapeOf = (index: IndexMetadata) => {
    let known = shapes.get(index.uuid);
    if (known === undefined) {
      const local = indicesOf(context.services).service.indexService(index.name);
      const mapping = local?.uuid === index.uuid ? local.mapping : storedMapping(index);
      known = { shape: readIndexSettings(index.settings), routingRequired: mapping.routingRequired === true };
      shapes.set(index.uuid, known);
    }
    return known;
  };
  // Items whose routing an alias's index_routing replaced (Metadata.resolveWriteIndexRouting).
  const routed: DocWriteItem[] = [...items];
  items.forEach((item, position) => {
    const name = item.index!;
    const nameError = nameErrors.get(position);
    if (nameError !== undefined) return fail(position, name, item.id, nameError);
    const creationError = creationErrors.get(name);
    if (creationError !== undefined) return fail(position, name, item.id, creationError);
    try {
      if (item.requireAlias && !isAlias(state, name)) {
        throw indexErrors.indexNotFoundBecause(name, `[require_alias] request flag is [true] and [${name}] is not an alias`);
      }
      const index = resolveWriteIndex(state, name);
      const routing = resolveWriteIndexRouting(state, item.routing, name);
      if (routing !== item.routing) routed[position] = { ...item, routing };
      if (index.state === 'close') throw errors.indexClosed(index.name, index.uuid);
      checkWriteBlocks(index);
      let id = item.id;
      let autoId = false;
      if (id === undefined && (item.op === 'index' || item.op === 'create')) {
        id = timeBasedUuid();
        autoId = true;
      }
      if (id === undefined || id === '') throw errors.illegalArgument('if _id is specified it must not be empty');
      const { shape, routingRequired } = shapeOf(index);
      if (routing === undefined && routingRequired) throw indexErrors.routingMissing(index.name, id);
      const shard = shardIdFor(shape, id, routing);
      const key = `${index.name}/${shard}`;
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { index, shard, positions: [], ids: [], autoIds: new Set() }));
      if (autoId) group.autoIds.add(position);
      group.positions.push(position);
      group.ids.push(id);
    } catch (err) {
      fail(position, state.indices.has(name) ? name : resolveNameForFailure(state, name), item.id, err);
    }
  });

  // 4. Each shard's items run in order on its primary (on this node or sent to the primary's node); shards run
  // side by side.
  await Promise.all([...groups.values()].map((group) => runShardGroupOnPrimary(group, routed, outcomes, options, context)));
  return outcomes;
}

/** ES's TransportBulkAction on a retryable global block: wait for a state without it, else fail with the block. */
async function waitForNoMasterBlockToClear(clusterService: ActionContext['services']['clusterService'], timeoutMillis: number, signal: AbortSignal): Promise<void> {
  if (!hasNoMasterBlock(clusterService.state())) return;
  const { timedOut } = await clusterService.waitFor((state) => !hasNoMasterBlock(state), timeoutMillis, signal);
  if (timedOut) throw errors.noMasterBlock();
}

export const SHARD_BULK_ACTION = 'indices:data/write/bulk[s]';

/** What a shard bulk request carries to the primary's node. */
export interface ShardBulkRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  /**
   * The group's items. Over a socket they cross as columns, tagged for the wire (shard-bulk-wire.ts:
   * `shardBulkRequestToWire`, `shardBulkRequestFromWire`); through the local shortcut they are the caller's own.
   */
  readonly items: readonly DocWriteItem[];
  readonly ids: string[];
  readonly autoIds: number[];
  readonly options: WriteOptions;
  /**
   * Sent by a primary that handed its primary context to its relocation target: run on this node's copy in
   * primary mode, whatever the routing table here says yet (the master has not marked the target started).
   */
  readonly fromRelocatedPrimary?: boolean;
}

/**
 * Runs a shard group where its primary is: here when the primary is local, else as a shard bulk request to
 * the primary's node (ES's TransportShardBulkAction), a child task of this bulk. Its items' outcomes come back
 * in order. When the whole group failed because the primary moved or went away (the copy there is not the
 * primary any more, its node is gone or closed the connection, the shard closed under it, or it learned it was
 * demoted: a failover), the group is routed again on a newer cluster state, up to the request's timeout (ES's
 * ReroutePhase retry on ConnectTransportException, NodeClosedException and retryPrimaryException), so a write
 * in flight during a failover goes to the promoted primary instead of failing.
 *
 * What makes an acknowledgement true: only an outcome the primary's runShardGroup reported successful is
 * acknowledged (see there). A retried group was not acknowledged by the copy it first reached: an operation that
 * copy applied before it failed is either on the in-sync copies (then the retry writes the document again, a new
 * version, as ES does) or nowhere that counts (the failed copy rolls back by recovery, decision 0013).
 */
async function runShardGroupOnPrimary(group: ShardGroup, items: readonly DocWriteItem[], outcomes: DocWriteOutcome[], options: WriteOptions, context: ActionContext): Promise<void> {
  const services = context.services;
  const deadline = Date.now() + options.timeoutMillis;
  for (;;) {
    const state = services.clusterService.state();
    await runShardGroupOnce(group, items, outcomes, options, context);
    const retry = notRunOnPrimary(group, outcomes);
    if (retry === undefined || Date.now() >= deadline || context.task.isCancelled) return;
    await services.clusterService.waitFor((next) => next.version > state.version, Math.min(1000, Math.max(0, deadline - Date.now())), context.task.signal);
  }
}

/** The error every item of the group failed with when it met no primary (isPrimaryMoved: nothing acknowledged), if so. */
function notRunOnPrimary(group: ShardGroup, outcomes: readonly DocWriteOutcome[]): EsError | undefined {
  let error: EsError | undefined;
  for (const position of group.positions) {
    const outcome = outcomes[position];
    if (outcome?.kind !== 'failure') return undefined;
    if (!isPrimaryMoved(outcome.error)) return undefined;
    error = outcome.error;
  }
  return error;
}

async function runShardGroupOnce(group: ShardGroup, items: readonly DocWriteItem[], outcomes: DocWriteOutcome[], options: WriteOptions, context: ActionContext): Promise<void> {
  const services = context.services;
  const state = services.clusterService.state();
  const primary = state.routing.get(group.index.name)?.[group.shard]?.find((copy) => copy.primary);
  const primaryNode = primary?.nodeId === undefined ? undefined : state.nodes.get(primary.nodeId);
  if (primaryNode === undefined) {
    // No primary anywhere yet (an index just created): wait here for one, as ES's ReroutePhase waits for a state
    // naming it; runShardGroup ends the wait when it becomes active on this node or on another.
    await runShardGroup(group, items, outcomes, options, context, false);
    return;
  }
  // The primary's node runs the group as `indices:data/write/bulk[s]`; this node's own primary through the
  // transport's local shortcut (same items, no encoding), as ES's ReroutePhase sends to the local node too.
  await sendShardGroup(group, items, outcomes, options, context, primaryNode, false);
}

/** Sends a shard group to another node as a shard bulk request; a failure of the request fails every item. */
async function sendShardGroup(
  group: ShardGroup,
  items: readonly DocWriteItem[],
  outcomes: DocWriteOutcome[],
  options: WriteOptions,
  context: ActionContext,
  node: DiscoveryNode,
  fromRelocatedPrimary: boolean,
): Promise<void> {
  const groupItems = group.positions.map((position) => items[position]!);
  const request: ShardBulkRequest = {
    index: group.index.name,
    indexUuid: group.index.uuid,
    shard: group.shard,
    items: groupItems,
    ids: group.ids,
    autoIds: autoIdIndexes(group),
    options,
    fromRelocatedPrimary,
  };
  const view: ShardBulkRequestView = { index: group.index.name, ids: group.ids, items: groupItems };
  try {
    const answer = (await sendToNode(context.services, node, SHARD_BULK_ACTION, request, context.task, undefined, {
      encodeRequest: shardBulkRequestToWire,
      decodeResponse: (wire) => ({ outcomes: outcomesFromWire(wire as WireOutcomes | WireOutcome[], view), view }),
    })) as ShardBulkAnswer;
    answer.outcomes.forEach((outcome, i) => {
      outcomes[group.positions[i]!] = outcome;
    });
  } catch (err) {
    const error = toEsError(err);
    group.positions.forEach((position, i) => {
      outcomes[position] = { kind: 'failure', op: items[position]!.op, index: group.index.name, id: group.ids[i], error };
    });
  }
}

/** The indexes within the group of the items whose id Gannet generated. */
function autoIdIndexes(group: ShardGroup): number[] {
  const indexes: number[] = [];
  for (let i = 0; i < group.positions.length; i++) if (group.autoIds.has(group.positions[i]!)) indexes.push(i);
  return indexes;
}

/** What a shard bulk request answers: an outcome per item, with the request they answer (its wire form needs it). */
export interface ShardBulkAnswer {
  readonly outcomes: readonly DocWriteOutcome[];
  readonly view: ShardBulkRequestView;
}

/** A shard bulk request as it crosses a socket: its items as tagged columns. Never on the local shortcut. */
export function shardBulkRequestToWire(body: unknown): unknown {
  const request = body as ShardBulkRequest;
  return { ...request, items: itemsToWire(request.items) };
}

/** Its items back from columns (or from the array of items an older sender used). */
export function shardBulkRequestFromWire(wire: unknown): ShardBulkRequest {
  const request = wire as Omit<ShardBulkRequest, 'items'> & { items: RecordColumns | readonly WireDocWriteItem[] };
  return { ...request, items: itemsFromWire(request.items) };
}

/** A shard bulk answer as it crosses a socket: outcomes as columns, against the request both sides know. */
export function shardBulkResponseToWire(value: unknown): WireOutcomes {
  const answer = value as ShardBulkAnswer;
  return outcomesToWire(answer.outcomes, answer.view);
}

/** The primary's side of a shard bulk request: the group's items, run here in order. */
export async function executeShardBulk(request: ShardBulkRequest, context: ActionContext): Promise<ShardBulkAnswer> {
  const index = context.services.clusterService.state().indices.get(request.index);
  if (index === undefined || index.uuid !== request.indexUuid) throw errors.indexNotFound(request.index);
  const items = request.items;
  const positions = items.map((_, i) => i);
  const group: ShardGroup = { index, shard: request.shard, positions, ids: request.ids, autoIds: new Set(request.autoIds) };
  const outcomes: DocWriteOutcome[] = new Array(items.length);
  await runShardGroup(group, items, outcomes, request.options, context, request.fromRelocatedPrimary === true);
  return { outcomes, view: { index: request.index, ids: request.ids, items } };
}

function resolveNameForFailure(state: ClusterState, name: string): string {
  try {
    return resolveWriteIndex(state, name).name;
  } catch {
    return name;
  }
}

/**
 * The primary's side of a shard group (ES's TransportShardBulkAction on the primary + ReplicationOperation):
 * under an operation permit, the items run in order on this copy in primary mode, then the operations they
 * sequenced go to every other copy (indices/replication). A primary that handed its context to a relocation
 * target forwards the group there instead.
 *
 * What makes an acknowledgement true: an item reported successful here is in this copy's translog, fsynced
 * (index.translog.durability=request; the engine resolves only then), and `replicate` resolved, which means
 * every in-sync copy applied and fsynced it too or the master took that copy out of the in-sync set first.
 * If replication fails (this copy learned it is no longer the primary), no item of the group is acknowledged.
 */
async function runShardGroup(group: ShardGroup, items: readonly DocWriteItem[], outcomes: DocWriteOutcome[], options: WriteOptions, context: ActionContext, fromRelocatedPrimary: boolean): Promise<void> {
  const started = performance.now();
  const indexName = group.index.name;
  const failAll = (err: unknown): void => {
    group.positions.forEach((position, i) => {
      const failure: DocWriteFailure = { kind: 'failure', op: items[position]!.op, index: indexName, id: group.ids[i], error: toEsError(err) };
      outcomes[position] = failure;
    });
  };
  let shard: IndexShard;
  let release: (() => void) | undefined;
  try {
    shard = fromRelocatedPrimary ? localPrimaryModeCopy(group, context) : await primaryWhenActive(group, items, options, context);
    release = await shard.permits.acquire();
  } catch (err) {
    failAll(err);
    return;
  }
  try {
    if (shard.relocated) {
      release();
      release = undefined;
      await forwardToRelocationTarget(shard, group, items, outcomes, options, context);
      return;
    }
    if (!shard.isPrimaryMode) {
      failAll(replicationErrors.notInPrimaryMode(indexName, group.index.uuid, group.shard, shard.state.toUpperCase()));
      return;
    }
    await executeOnPrimaryCopy(shard, group, items, outcomes, options, context, started);
  } finally {
    release?.();
  }
}

/** A relocation source's copy in primary mode on this node (the routing here may not say so yet). */
function localPrimaryModeCopy(group: ShardGroup, context: ActionContext): IndexShard {
  const shard = indicesOf(context.services).service.shard(group.index.name, group.shard);
  if (shard === undefined || shard.indexUuid !== group.index.uuid) throw replicationErrors.shardNotFound(group.index.name, group.index.uuid, group.shard);
  if (!shard.isPrimaryMode && !shard.relocated) throw replicationErrors.notInPrimaryMode(group.index.name, group.index.uuid, group.shard, shard.state.toUpperCase());
  return shard;
}

/** A relocated primary sends the group on to its relocation target, which is the primary now. */
async function forwardToRelocationTarget(shard: IndexShard, group: ShardGroup, items: readonly DocWriteItem[], outcomes: DocWriteOutcome[], options: WriteOptions, context: ActionContext): Promise<void> {
  const target = shard.replicationGroup?.copies.find((copy) => copy.relocationTarget && copy.primary);
  const node = target === undefined ? undefined : context.services.clusterService.state().nodes.get(target.nodeId);
  if (node === undefined) {
    const error = replicationErrors.notInPrimaryMode(group.index.name, group.index.uuid, group.shard, 'RELOCATED');
    group.positions.forEach((position, i) => {
      outcomes[position] = { kind: 'failure', op: items[position]!.op, index: group.index.name, id: group.ids[i], error };
    });
    return;
  }
  await sendShardGroup(group, items, outcomes, options, context, node, true);
}

async function executeOnPrimaryCopy(
  shard: IndexShard,
  group: ShardGroup,
  items: readonly DocWriteItem[],
  outcomes: DocWriteOutcome[],
  options: WriteOptions,
  context: ActionContext,
  started: number,
): Promise<void> {
  const { service } = indicesOf(context.services);
  const indexName = group.index.name;
  const failAll = (err: unknown): void => {
    group.positions.forEach((position, i) => {
      const failure: DocWriteFailure = { kind: 'failure', op: items[position]!.op, index: indexName, id: group.ids[i], error: toEsError(err) };
      outcomes[position] = failure;
    });
  };
  const indexService = service.indexService(indexName);
  if (indexService === undefined) {
    failAll(errors.indexNotFound(indexName));
    return;
  }
  // A cancelled bulk (e.g. a reindex's child) writes no further shard group.
  if (context.task.isCancelled) {
    failAll(errors.taskCancelled(context.task.cancellationReason ?? ''));
    return;
  }
  // The shard's part of the request runs on ES's `write` pool: at most `processors` shard bulks at once, then a
  // queue of 10,000, then every item of the group fails with es_rejected_execution_exception (429), as in ES.
  // Replication and the refresh wait run after it, off the pool (ES's ReplicationOperation is asynchronous too).
  let applied: AppliedOnPrimary | undefined;
  const rejected = await context.services.threadPools
    .execute('write', async () => {
      applied = await applyOnPrimary(group, items, outcomes, options, context, shard, indexService);
    })
    .then(
      () => undefined,
      (err: unknown) => {
        // Only a rejection happens before any item ran; anything else failed mid-way and propagates as before.
        if (err instanceof EsError && err.type === 'es_rejected_execution_exception') return err;
        throw err;
      },
    );
  if (rejected !== undefined) {
    failAll(rejected);
    return;
  }
  if (applied !== undefined) await finishOnPrimary(group, outcomes, options, context, shard, applied, started);
}

/** What the primary's items sequenced: the operations for the other copies and the highest seqNo. */
interface AppliedOnPrimary {
  readonly replicated: readonly ReplicatedOperation[];
  readonly maxSeqNo: number;
}

/** The items of one shard group applied on its primary, in request order (the write pool's unit of work). */
async function applyOnPrimary(
  group: ShardGroup,
  items: readonly DocWriteItem[],
  outcomes: DocWriteOutcome[],
  options: WriteOptions,
  context: ActionContext,
  shard: IndexShard,
  indexService: IndexService,
): Promise<AppliedOnPrimary> {
  // The group's first run is parsed in a turn of the shared budget, not in the I/O callback that read the
  // request: the operator's commands read in the same poll are answered first (loop-turns.ts queueTurn).
  await queueTurn();
  const { metadata } = indicesOf(context.services);
  const indexName = group.index.name;
  const shardInfo = () => {
    const copies = context.services.clusterService.state().routing.get(indexName)?.[group.shard]?.length ?? 1;
    return { total: copies, successful: 1, failed: 0 };
  };
  const replicated: ReplicatedOperation[] = [];
  const primaryContext = { indexService, shard, metadata, shardInfo, replicated };
  let maxSeqNo = -1;
  // The indexing slow log (ES's IndexingSlowLog) times a document only when the index has a threshold set.
  const slowLog = indexingSlowLogFor(indexService, context);
  const record = (position: number, item: DocWriteItem, id: string, outcome: DocWriteSuccess | unknown, failed: boolean, startedAt?: number): void => {
    if (failed) {
      outcomes[position] = { kind: 'failure', op: item.op, index: indexName, id, error: toEsError(outcome) };
      return;
    }
    const result = outcome as DocWriteSuccess;
    outcomes[position] = result;
    if (result.result !== 'noop') maxSeqNo = Math.max(maxSeqNo, result.seqNo);
    if (slowLog !== undefined && startedAt !== undefined && item.op !== 'delete' && result.result !== 'noop') slowLog(item, id, performance.now() - startedAt);
  };
  // Items are prepared and handed to the engine strictly in request order; only their durability waits
  // overlap, so the translog fsyncs of one bulk request are shared (ES syncs once per shard request).
  // Index/create items whose parsing needs no mapping update gather into a run that goes to the engine as one
  // batch (one promise and one sync wait for the run, not one per item); anything else submits the run first.
  // An update reads the current document, so it first waits for every write submitted before it.
  let inFlight: Array<Promise<void>> = [];
  type RunEntry = { readonly position: number; readonly item: DocWriteItem; readonly id: string; readonly startedAt: number | undefined };
  let run: RunEntry[] = [];
  let runOperations: ShardIndexOperation[] = [];
  // Runs applied without waiting for the translog: only a later waiting run's sync makes them durable, so if
  // that fails they fail with it (their results were recorded as successes meanwhile).
  let deferred: RunEntry[] = [];
  const submitRun = (durability: 'wait' | 'defer'): void => {
    if (durability === 'defer' && run.length === 0) return;
    if (durability === 'wait' && run.length === 0 && deferred.length === 0) return;
    const batch = run;
    const operations = runOperations;
    run = [];
    runOperations = [];
    const covered = durability === 'wait' ? deferred : [];
    if (durability === 'wait') deferred = [];
    else deferred.push(...batch);
    inFlight.push(
      indexPrepared(primaryContext, batch, operations, durability).then(
        (results) => results.forEach((result, i) => record(batch[i]!.position, batch[i]!.item, batch[i]!.id, result, result instanceof EsError, batch[i]!.startedAt)),
        (err: unknown) => {
          for (const { position, item, id } of batch) record(position, item, id, err, true);
          for (const { position, item, id } of covered) record(position, item, id, err, true);
        },
      ),
    );
  };
  for (let i = 0; i < group.positions.length; i++) {
    if (context.task.isCancelled) {
      // A cancelled bulk (a reindex's child) stops between items: what was handed to the engine finishes, the
      // rest (the unsubmitted run included) fails as cancelled, so a cancel waits for at most one run.
      const cancelled = errors.taskCancelled(context.task.cancellationReason ?? '');
      for (const pending of run) record(pending.position, pending.item, pending.id, cancelled, true);
      run = [];
      runOperations = [];
      for (let rest = i; rest < group.positions.length; rest++) {
        record(group.positions[rest]!, items[group.positions[rest]!]!, group.ids[rest]!, cancelled, true);
      }
      break;
    }
    const position = group.positions[i]!;
    const item = items[position]!;
    const id = group.ids[i]!;
    const autoIdTimestamp = group.autoIds.has(position) ? Date.now() : undefined;
    const startedAt = slowLog === undefined ? undefined : performance.now();
    try {
      if (item.op === 'index' || item.op === 'create') {
        const operation = prepareIndexIfMapped(primaryContext, item, id, autoIdTimestamp);
        if (operation !== undefined) {
          run.push({ position, item, id, startedAt });
          runOperations.push(operation);
          if (run.length === RUN_LENGTH) {
            // Parse a run, hand it over, let the engine apply it in the next turn: a parsed document then
            // lives for a turn, not for the whole request (short lives are what the young-generation GC
            // handles cheaply), and the event loop turns between runs (a turn of the shared budget, loop-turns.ts). Only the request's last run waits
            // for the translog (one group commit per request, not one per run).
            submitRun('defer');
            await nextTurn();
          }
          continue;
        }
      }
      submitRun('wait');
      if (item.op === 'update') {
        await Promise.all(inFlight);
        inFlight = [];
        record(position, item, id, await executeOnPrimary(primaryContext, item, id, autoIdTimestamp), false, startedAt);
        continue;
      }
      const submit = await prepareOnPrimary(primaryContext, item, id, autoIdTimestamp);
      inFlight.push(submit().then((result) => record(position, item, id, result, false, startedAt), (err: unknown) => record(position, item, id, err, true)));
    } catch (err) {
      record(position, item, id, err, true);
    }
  }
  submitRun('wait');
  await Promise.all(inFlight);
  return { replicated, maxSeqNo };
}

/**
 * After the primary applied a group: the operations go to the other copies (what makes the acknowledgement true
 * is said at runShardGroup), then the primary's statistics and its refresh (`refresh=true|wait_for`).
 */
async function finishOnPrimary(
  group: ShardGroup,
  outcomes: DocWriteOutcome[],
  options: WriteOptions,
  context: ActionContext,
  shard: IndexShard,
  applied: AppliedOnPrimary,
  started: number,
): Promise<void> {
  const indexName = group.index.name;
  const { replicated, maxSeqNo } = applied;
  if (replicated.length > 0 && context.services.replication !== undefined) {
    try {
      const info = await replicate(shard, context.services.replication, replicated, options.refresh, context.task.taskId.toString());
      const shards = toShardInfo(info);
      for (const position of group.positions) {
        const outcome = outcomes[position];
        if (outcome?.kind === 'success' && outcome.result !== 'noop') outcome.shards = shards;
      }
    } catch (err) {
      // Not acknowledged: the copies may not all have these operations (this copy is no longer the primary).
      for (const position of group.positions) {
        const outcome = outcomes[position];
        if (outcome?.kind === 'success') outcomes[position] = { kind: 'failure', op: outcome.op, index: indexName, id: outcome.id, error: toEsError(err) };
      }
      return;
    }
  }
  shard.bulkStats.record(group.positions.length, Math.round(performance.now() - started), options.requestBytes ?? 0);
  if (maxSeqNo < 0 || options.refresh === 'none') return;
  try {
    if (options.refresh === 'immediate') {
      await shard.refresh('api');
      for (const position of group.positions) {
        const outcome = outcomes[position];
        if (outcome?.kind === 'success' && outcome.result !== 'noop') (outcome as DocWriteSuccess).forcedRefresh = true;
      }
    } else {
      await shard.waitForRefresh(maxSeqNo);
    }
  } catch (err) {
    context.services.logger.warn({ err, index: indexName, shard: group.shard }, 'refresh after write failed');
  }
}

/**
 * The indexing slow log of an index, or undefined when none of its thresholds is set. A document's time runs from
 * the start of its parse to the engine's result for it: Gannet hands the engine runs of up to 128 parsed documents
 * at once, so a document's time includes the engine time of its run (ES times each document's engine operation).
 */
function indexingSlowLogFor(indexService: IndexService, context: ActionContext): ((item: DocWriteItem, id: string, tookMillis: number) => void) | undefined {
  const sink = context.services.slowLogs;
  const settings = indexService.settings.slowLog;
  const thresholds = settings.index;
  if (sink === undefined || (thresholds.warn < 0 && thresholds.info < 0 && thresholds.debug < 0 && thresholds.trace < 0)) return undefined;
  return (item, id, tookMillis) => {
    const tookNanos = Math.round(tookMillis * 1e6);
    const level = slowLogLevel(thresholds, tookNanos);
    if (level === undefined) return;
    const source = item.source === undefined ? '' : Buffer.from(item.source.buffer, item.source.byteOffset, item.source.byteLength).toString('utf8');
    sink.write(
      'index.indexing.slowlog.index',
      level,
      indexingSlowLogFields({
        index: indexService.name,
        indexUuid: indexService.uuid,
        id,
        routing: item.routing,
        tookNanos,
        source,
        sourceChars: settings.sourceChars,
        reformat: settings.reformat,
      }),
    );
  };
}

/**
 * The local primary of the group's shard once it is active and `wait_for_active_shards` copies are active,
 * waiting for cluster-state changes up to the timeout; ES's UnavailableShardsException (503) otherwise.
 */
async function primaryWhenActive(group: ShardGroup, items: readonly DocWriteItem[], options: WriteOptions, context: ActionContext): Promise<IndexShard> {
  const { service } = indicesOf(context.services);
  const clusterService = context.services.clusterService;
  const indexName = group.index.name;
  const setting = group.index.settings['index.write.wait_for_active_shards'] ?? '1';
  const raw = options.waitForActiveShards === undefined || options.waitForActiveShards === 'index-setting' ? setting : options.waitForActiveShards;
  const wanted: ActiveShardCount = parseActiveShardCount(raw);
  const ready = (state: ClusterState): boolean => {
    const copies = state.routing.get(indexName)?.[group.shard];
    const primary = copies?.find((copy) => copy.primary);
    // The primary's node refuses too while it knows no master: its copy may already have been replaced.
    if (hasNoMasterBlock(state)) return false;
    if (primary === undefined || (primary.state !== 'STARTED' && primary.state !== 'RELOCATING') || primary.nodeId !== context.services.localNode.id) return false;
    // (A primary elsewhere gets the group as a shard bulk request: runShardGroupOnPrimary.)
    return service.shard(indexName, group.shard) !== undefined && shardHasEnoughActive(state, indexName, group.shard, wanted);
  };
  // A state naming an active primary on another node ends the wait at once (a relocation finished, or this node
  // was never the primary's): the coordinating node routes the group again (runShardGroupOnPrimary). Waiting out
  // the request's timeout here left the coordinator no time to retry: the items failed with 404 after 1m.
  const movedAway = (state: ClusterState): boolean => {
    if (hasNoMasterBlock(state)) return false;
    const primary = state.routing.get(indexName)?.[group.shard]?.find((copy) => copy.primary);
    return primary !== undefined && (primary.state === 'STARTED' || primary.state === 'RELOCATING') && primary.nodeId !== context.services.localNode.id;
  };
  const { state, timedOut } = await clusterService.waitFor((next) => ready(next) || movedAway(next), options.timeoutMillis, context.task.signal);
  if (!timedOut && ready(state)) return service.shard(indexName, group.shard)!;
  if (hasNoMasterBlock(state)) throw errors.noMasterBlock();
  const timeoutText = formatTimeout(options.timeoutMillis);
  const request = `[${bulkShardRequestText(group, items, options)}]`;
  const primary = state.routing.get(indexName)?.[group.shard]?.find((copy) => copy.primary);
  if (primary === undefined || (primary.state !== 'STARTED' && primary.state !== 'RELOCATING')) {
    throw indexErrors.unavailableShards(indexName, group.shard, `primary shard is not active Timeout: [${timeoutText}], request: ${request}`);
  }
  if (primary.nodeId !== context.services.localNode.id) {
    // The primary moved while this request waited: the coordinating node routes it again.
    throw replicationErrors.shardNotFound(indexName, group.index.uuid, group.shard, 'the primary is on another node now');
  }
  const have = activeCopies(state, indexName, group.shard);
  const needed = requiredCopies(state, indexName, group.shard, wanted);
  throw indexErrors.unavailableShards(
    indexName,
    group.shard,
    // ActiveShardCount.toString: `ALL`, or the number as parsed.
    `Not enough active copies to meet shard count of [${wanted.kind === 'all' ? 'ALL' : wanted.count}] (have ${have}, needed ${needed}). Timeout: [${timeoutText}], request: ${request}`,
  );
}

/**
 * BulkShardRequest.toString, as ES's unavailable-shards messages print it: the item count, or the one item's own
 * request (IndexRequest: `index {[<index>][<id>], source[<json>]}`, sources over 2kb left out; DeleteRequest:
 * `delete {[<index>][<id>]}`; an update keeps the count form here), then the refresh policy.
 */
function bulkShardRequestText(group: ShardGroup, items: readonly DocWriteItem[], options: WriteOptions): string {
  const index = group.index.name;
  let text = `BulkShardRequest [[${index}][${group.shard}]] containing [`;
  const only = group.positions.length === 1 ? items[group.positions[0]!] : undefined;
  const id = group.ids[0];
  if (only !== undefined && (only.op === 'index' || only.op === 'create') && only.source !== undefined) {
    const maxSourceLength = 2048;
    let source: string;
    if (only.source.length > maxSourceLength) {
      source = `n/a, actual length: [${byteSizeString(only.source.length)}], max length: ${byteSizeString(maxSourceLength)}`;
    } else {
      const raw = Buffer.from(only.source.buffer, only.source.byteOffset, only.source.byteLength).toString('utf8');
      try {
        source = JSON.stringify(JSON.parse(raw));
      } catch {
        source = raw;
      }
    }
    text += `index {[${index}][${id}], source[${source}]}]`;
  } else if (only !== undefined && only.op === 'delete') {
    text += `delete {[${index}][${id}]}]`;
  } else {
    text += `${group.positions.length}] requests`;
  }
  if (options.refresh === 'immediate') text += ' and a refresh';
  else if (options.refresh === 'wait_for') text += ' blocking until refresh';
  return text;
}

/** `_shards` as the response prints it, from what replication reported. */
function toShardInfo(info: ReplicationShardInfo): ShardInfo {
  if (info.failures.length === 0) return { total: info.total, successful: info.successful, failed: 0 };
  return { total: info.total, successful: info.successful, failed: info.failed, failures: info.failures };
}

/** TimeValue.toString for the timeouts people pass (1m, 30s, 500ms). */
function formatTimeout(millis: number): string {
  if (millis % 60_000 === 0 && millis > 0) return `${millis / 60_000}m`;
  if (millis % 1000 === 0 && millis > 0) return `${millis / 1000}s`;
  return `${millis}ms`;
}
