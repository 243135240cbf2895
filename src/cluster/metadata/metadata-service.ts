/**
 * The master-side index operations as async calls: each one is a named request with serializable arguments
 * (MasterRequests) that runs on the elected master as a cluster-state update submitted to the coordinator (so
 * it is ordered, persisted and published like any other), plus the waits ES's transport actions do around them
 * (create index waits for `wait_for_active_shards`). From any other node the request travels to the master;
 * the call resolves once this node applied the published state, so the local services already see the change.
 */
import { ownValue } from '../../common/own-keys.js';
import { errors, indexErrors, templateErrors } from '../../common/errors.js';
import type { Settings } from '../../common/settings.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { RootMapping } from '../../mapping/index.js';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState } from '../cluster-state.js';
import { resolveDateMathExpression } from '../date-math-index-name.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { allocateNewPrimariesOfEveryIndex, markShardFailed, markShardsStarted, retryFailedPrimaries, type FailedShard, type StartedShard } from '../routing/shard-allocation.js';
import { addNewIndex, type CreateIndexRequest } from './create-index.js';
import { ALIAS_OUTCOMES_CODEC, applyAliasActions, type AliasActionOutcome, type AliasActionRequest } from './alias-updates.js';
import { mergeMappingInto, removeIndices, updateIndexSettings } from './index-updates.js';
import { enoughShardsActive, parseActiveShardCount, type ActiveShardCount } from './active-shard-count.js';
import { updateClusterSettings, type ClusterSettingsUpdate } from '../settings/settings-updater.js';
import { applyTemplateChange, findComposableTemplate, type TemplateChange } from './templates/index.js';
import type { MasterRequests, MasterResultCodec } from '../master-requests.js';
import { closeIndicesState, openIndicesState } from './index-state.js';
import { SINGLE_NODE_ACKS, type AckWaiter } from '../publication-acks.js';
import type { Logger } from 'pino';
import type { IndexMetadata } from '../cluster-state.js';
import { findLegacyTemplates } from './templates/index.js';

/** ES's MappingUpdatedAction.INDICES_MAPPING_DYNAMIC_TIMEOUT_SETTING (a dynamic cluster setting). */
const DYNAMIC_MAPPING_TIMEOUT = 'indices.mapping.dynamic_timeout';

export interface CreateIndexResult {
  readonly acknowledged: boolean;
  readonly shardsAcknowledged: boolean;
  readonly index: string;
}

export interface CreateIndexOptions {
  readonly waitForActiveShards?: string;
  /** ES's `timeout`: how long to wait for every node's ack, then for the active shards. */
  readonly timeoutMillis?: number;
  readonly masterTimeoutMillis?: number;
  readonly cause?: string;
  /**
   * `_rollover` (MetadataRolloverService): in the same state update the alias moves to the new index. With an
   * explicit write index the old index keeps the alias as a read alias (`is_write_index: false`) and the new one
   * becomes the write index; otherwise the alias leaves the old index for the new one. Refused if the alias no
   * longer writes to `oldIndex` (another rollover got there first).
   */
  readonly rolloverOf?: { readonly alias: string; readonly oldIndex: string; readonly explicitWriteIndex: boolean };
}

/** An acked request's waits (ES's AcknowledgedRequest): `timeout` for the nodes' acks, `master_timeout` for a master. */
export interface AckOptions {
  /** Undefined: the caller does not need the acks (answers `acknowledged: true` once committed). */
  readonly ackTimeoutMillis?: number;
  readonly masterTimeoutMillis?: number;
  readonly signal?: AbortSignal;
}

/** The outcome of an acked change: whether every node applied it in time, and what the change returned. */
export interface Acked<T> {
  readonly acknowledged: boolean;
  readonly value: T;
}

/** ES's default `master_timeout`/ack timeout and the create index wait. */
const DEFAULT_TIMEOUT_MILLIS = 30_000;

export class MetadataService {
  constructor(
    private readonly clusterService: ClusterService,
    private readonly coordinator: Coordinator,
    private readonly nodeSettings: Settings,
    private readonly reportedVersion: string,
    private readonly master?: MasterRequests,
    private readonly acks: AckWaiter = SINGLE_NODE_ACKS,
    /** Index creation is logged here, where the cause is known (other changes: cluster-event-log.ts). */
    private readonly logger?: Logger,
  ) {
    const register = (name: string, operation: (args: never) => Promise<unknown>, codec?: MasterResultCodec) => master?.register(name, operation as (args: unknown) => Promise<unknown>, codec);
    register('create-index', (args: { request: CreateIndexRequest; options: CreateIndexOptions }) => this.createIndexOnMaster(args.request, args.options));
    register('delete-index', (args: { names: string[]; ackTimeoutMillis?: number }) => this.deleteIndicesOnMaster(args.names, args.ackTimeoutMillis));
    register('update-aliases', (args: { actions: AliasActionRequest[]; ackTimeoutMillis?: number }) => this.updateAliasesOnMaster(args.actions, args.ackTimeoutMillis), ALIAS_OUTCOMES_CODEC);
    register('put-mapping', (args: { names: string[]; mapping: unknown; ackTimeoutMillis?: number }) => this.putMappingOnMaster(args.names, args.mapping, args.ackTimeoutMillis));
    register('dynamic-mapping', (args: { index: string; uuid: string; update: RootMapping }) => this.addDynamicMappingOnMaster(args.index, args.uuid, args.update));
    register('update-settings', (args: { names: string[]; settings: Record<string, string | null>; preserveExisting: boolean; ackTimeoutMillis?: number }) =>
      this.updateSettingsOnMaster(args.names, args.settings, args.preserveExisting, args.ackTimeoutMillis),
    );
    register('indices-state', (args: { names: string[]; target: 'open' | 'close'; ackTimeoutMillis?: number }) => this.setIndicesStateOnMaster(args.names, args.target, args.ackTimeoutMillis));
    register('cluster-settings', (args: { update: ClusterSettingsUpdate; ackTimeoutMillis?: number }) => this.updateClusterSettingsOnMaster(args.update, args.ackTimeoutMillis));
    register('templates', (args: { source: string; change: TemplateChange; ackTimeoutMillis?: number }) => this.updateTemplatesOnMaster(args.source, args.change, args.ackTimeoutMillis));
    register('shard-started', (args: { shard: StartedShard }) => this.shardStartedOnMaster(args.shard));
    register('shard-failed', (args: { shard: FailedShard }) => this.shardFailedOnMaster(args.shard));
    register('retry-disk-failures', () => this.retryDiskFailuresOnMaster());
  }

  /** Runs a registered operation on the master (in-process when there is no transport: a single node). */
  /** `operationMillis`: how long the operation may take on the master once there (MasterRequests.run). */
  private onMaster<T>(name: string, args: unknown, local: () => Promise<T>, signal?: AbortSignal, masterTimeoutMillis?: number, operationMillis?: number): Promise<T> {
    if (this.master === undefined) return local();
    return this.master.run<T>(name, args, masterTimeoutMillis, signal, operationMillis);
  }

  state(): ClusterState {
    return this.clusterService.state();
  }

  /** On the master, after a change committed: whether every node applied `committed` within the ack timeout. */
  private async acked<T>(committed: ClusterState, ackTimeoutMillis: number | undefined, value: T): Promise<Acked<T>> {
    const acknowledged = ackTimeoutMillis === undefined ? true : await this.acks.waitForAcks(committed.version, ackTimeoutMillis);
    return { acknowledged, value };
  }

  createIndex(request: CreateIndexRequest, options: CreateIndexOptions & { signal?: AbortSignal } = {}): Promise<CreateIndexResult> {
    const { signal, ...wire } = options;
    // On the master it waits for every node's ack, then for the active shards, each up to `timeout`.
    const operationMillis = 2 * (options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS);
    return this.onMaster('create-index', { request, options: wire }, () => this.createIndexOnMaster(request, options), signal, options.masterTimeoutMillis, operationMillis);
  }

  private async createIndexOnMaster(requested: CreateIndexRequest, options: CreateIndexOptions & { signal?: AbortSignal }): Promise<CreateIndexResult> {
    // TransportCreateIndexAction: a date math name (`<logs-{now/d}>`) creates the dated index.
    const request = { ...requested, index: resolveDateMathExpression(requested.index) };
    let created: string | undefined;
    let wanted: ActiveShardCount | undefined;
    let describe: (() => void) | undefined;
    const cause = options.cause ?? 'api';
    const committed = await this.coordinator.submitStateUpdate(`create-index [${request.index}], cause [${cause}]`, (state) => {
      const { state: next, metadata } = addNewIndex(state, request, this.reportedVersion, Date.now());
      const templates = matchingTemplates(state, metadata);
      // MetadataCreateIndexService's line: "[name] creating index, cause [api], templates [], shards [1]/[1]".
      describe = () =>
        this.logger?.info(
          { event: 'index_created', index: metadata.name, index_uuid: metadata.uuid, cause, templates, shards: metadata.numberOfShards, replicas: metadata.numberOfReplicas },
          `[${metadata.name}] creating index, cause [${cause}], templates [${templates.join(', ')}], shards [${metadata.numberOfShards}]/[${metadata.numberOfReplicas}]`,
        );
      const waitSetting = options.waitForActiveShards ?? metadata.settings['index.write.wait_for_active_shards'] ?? '1';
      wanted = parseActiveShardCount(waitSetting === 'index-setting' ? (metadata.settings['index.write.wait_for_active_shards'] ?? '1') : waitSetting);
      if (wanted.kind === 'count' && wanted.count > metadata.numberOfReplicas + 1) {
        throw errors.illegalArgument(
          `invalid wait_for_active_shards[${waitSetting}]: cannot be greater than number of shard copies [${metadata.numberOfReplicas + 1}]`,
        );
      }
      created = metadata.uuid;
      return options.rolloverOf === undefined ? next : moveRolloverAlias(next, metadata.name, options.rolloverOf);
    });
    describe?.();
    const uuid = created!;
    // TransportCreateIndexAction: the shards are waited for only once every node acknowledged the new index.
    const { acknowledged } = await this.acked(committed, options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS, undefined);
    if (!acknowledged) return { acknowledged: false, shardsAcknowledged: false, index: request.index };
    const { timedOut } = await this.clusterService.waitFor(
      (state) => {
        const metadata = state.indices.get(request.index);
        // Deleted (or replaced) meanwhile: nothing more to wait for.
        if (metadata === undefined || metadata.uuid !== uuid) return true;
        return enoughShardsActive(state, request.index, wanted!);
      },
      options.timeoutMillis ?? DEFAULT_TIMEOUT_MILLIS,
      options.signal,
    );
    return { acknowledged: true, shardsAcknowledged: !timedOut, index: request.index };
  }

  deleteIndices(names: readonly string[], ack: AckOptions = {}): Promise<Acked<void>> {
    return this.onMaster('delete-index', { names, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.deleteIndicesOnMaster(names, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async deleteIndicesOnMaster(names: readonly string[], ackTimeoutMillis: number | undefined): Promise<Acked<void>> {
    const committed = await this.coordinator.submitStateUpdate(`delete-index [${names.join(', ')}]`, (state) => removeIndices(state, names.filter((name) => state.indices.has(name))));
    return this.acked(committed, ackTimeoutMillis, undefined);
  }

  /** `POST /_aliases` and the single-alias APIs: all actions apply together or not at all. */
  updateAliases(actions: readonly AliasActionRequest[], ack: AckOptions = {}): Promise<Acked<AliasActionOutcome[]>> {
    return this.onMaster('update-aliases', { actions, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.updateAliasesOnMaster(actions, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async updateAliasesOnMaster(actions: readonly AliasActionRequest[], ackTimeoutMillis: number | undefined): Promise<Acked<AliasActionOutcome[]>> {
    let outcomes: AliasActionOutcome[] = [];
    const committed = await this.coordinator.submitStateUpdate('index-aliases', (state) => {
      const result = applyAliasActions(state, actions);
      outcomes = result.outcomes;
      return result.state;
    });
    return this.acked(committed, ackTimeoutMillis, outcomes);
  }

  putMapping(names: readonly string[], mapping: unknown, ack: AckOptions = {}): Promise<Acked<void>> {
    return this.onMaster('put-mapping', { names, mapping, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.putMappingOnMaster(names, mapping, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async putMappingOnMaster(names: readonly string[], mapping: unknown, ackTimeoutMillis: number | undefined): Promise<Acked<void>> {
    const committed = await this.coordinator.submitStateUpdate(`put-mapping [${names.join(', ')}]`, (state) => mergeMappingInto(state, names, mapping, false));
    return this.acked(committed, ackTimeoutMillis, undefined);
  }

  /** The fields a document introduced, merged on the master before the document is indexed. */
  /**
   * The mapping update a write found while parsing (ES's MappingUpdatedAction): sent to the master with
   * `indices.mapping.dynamic_timeout` (30s) as its master timeout, so without a master the write's item fails
   * with 503 master_not_discovered_exception after it, as in ES.
   */
  addDynamicMapping(index: string, uuid: string, update: RootMapping): Promise<void> {
    const timeout = this.nodeSettings.get(DYNAMIC_MAPPING_TIMEOUT) ?? '30s';
    return this.onMaster('dynamic-mapping', { index, uuid, update }, () => this.addDynamicMappingOnMaster(index, uuid, update), undefined, parseTimeValueMillis(timeout, DYNAMIC_MAPPING_TIMEOUT));
  }

  private async addDynamicMappingOnMaster(index: string, uuid: string, update: RootMapping): Promise<void> {
    await this.coordinator.submitStateUpdate(`put-mapping [${index}] (dynamic)`, (state) => {
      const metadata = state.indices.get(index);
      if (metadata === undefined || metadata.uuid !== uuid) throw errors.indexNotFound(index);
      return mergeMappingInto(state, [index], update, true);
    });
  }

  updateSettings(names: readonly string[], settings: Record<string, string | null>, preserveExisting: boolean, ack: AckOptions = {}): Promise<Acked<void>> {
    return this.onMaster(
      'update-settings',
      { names, settings, preserveExisting, ackTimeoutMillis: ack.ackTimeoutMillis },
      () => this.updateSettingsOnMaster(names, settings, preserveExisting, ack.ackTimeoutMillis),
      ack.signal,
      ack.masterTimeoutMillis,
      ack.ackTimeoutMillis,
    );
  }

  private async updateSettingsOnMaster(names: readonly string[], settings: Record<string, string | null>, preserveExisting: boolean, ackTimeoutMillis: number | undefined): Promise<Acked<void>> {
    const committed = await this.coordinator.submitStateUpdate(`update-settings [${names.join(', ')}]`, (state) =>
      updateIndexSettings(state, names, settings, preserveExisting, Date.now()),
    );
    return this.acked(committed, ackTimeoutMillis, undefined);
  }

  /**
   * `_close` / `_open` (MetadataIndexStateService): changes the state of the named indices that are not in it
   * yet and returns those (the caller waits for their copies as ES's transport actions do).
   */
  setIndicesState(names: readonly string[], target: 'open' | 'close', ack: AckOptions = {}): Promise<Acked<readonly string[]>> {
    return this.onMaster('indices-state', { names, target, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.setIndicesStateOnMaster(names, target, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async setIndicesStateOnMaster(names: readonly string[], target: 'open' | 'close', ackTimeoutMillis: number | undefined): Promise<Acked<readonly string[]>> {
    let changed: readonly string[] = [];
    const committed = await this.coordinator.submitStateUpdate(`${target === 'close' ? 'close' : 'open'}-indices [${names.join(', ')}]`, (state) => {
      const result = target === 'close' ? closeIndicesState(state, names, Date.now()) : openIndicesState(state, names, Date.now());
      changed = result.changed;
      return result.state;
    });
    return this.acked(committed, ackTimeoutMillis, changed);
  }

  /** `PUT _cluster/settings`: returns the keys that were set, per scope, as ES's response lists them. */
  updateClusterSettings(update: ClusterSettingsUpdate, ack: AckOptions = {}): Promise<Acked<{ transient: Record<string, string>; persistent: Record<string, string> }>> {
    return this.onMaster('cluster-settings', { update, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.updateClusterSettingsOnMaster(update, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async updateClusterSettingsOnMaster(update: ClusterSettingsUpdate, ackTimeoutMillis: number | undefined): Promise<Acked<{ transient: Record<string, string>; persistent: Record<string, string> }>> {
    let updates: { transient: Record<string, string>; persistent: Record<string, string> } = { transient: {}, persistent: {} };
    const committed = await this.coordinator.submitStateUpdate('cluster_update_settings', (state) => {
      const result = updateClusterSettings(state, update);
      updates = { transient: result.transientUpdates, persistent: result.persistentUpdates };
      // A cluster's master reroutes after every change; a single node places what enabling allocation allows here.
      return this.master === undefined ? allocateNewPrimariesOfEveryIndex(result.state) : result.state;
    });
    return this.acked(committed, ackTimeoutMillis, updates);
  }

  /** A change to the index templates (put or delete); resolves with the warnings ES would send as headers. */
  updateTemplates(source: string, change: TemplateChange, ack: AckOptions = {}): Promise<Acked<string[]>> {
    return this.onMaster('templates', { source, change, ackTimeoutMillis: ack.ackTimeoutMillis }, () => this.updateTemplatesOnMaster(source, change, ack.ackTimeoutMillis), ack.signal, ack.masterTimeoutMillis, ack.ackTimeoutMillis);
  }

  private async updateTemplatesOnMaster(source: string, change: TemplateChange, ackTimeoutMillis: number | undefined): Promise<Acked<string[]>> {
    let warnings: string[] = [];
    const committed = await this.coordinator.submitStateUpdate(source, (state) => {
      const result = applyTemplateChange(state.templates, change);
      warnings = result.warnings;
      return result.templates === state.templates ? state : { ...state, templates: result.templates };
    });
    return this.acked(committed, ackTimeoutMillis, warnings);
  }

  shardStarted(shard: StartedShard): Promise<void> {
    return this.onMaster('shard-started', { shard }, () => this.shardStartedOnMaster(shard));
  }

  private async shardStartedOnMaster(shard: StartedShard): Promise<void> {
    await this.coordinator.submitStateUpdate(`shard-started ${shard.index}[${shard.shard}]`, (state) => markShardsStarted(state, [shard]));
  }

  /**
   * `internal:cluster/shard/failure`: resolves once the master published the change (or had nothing to change);
   * rejects with no_longer_primary_shard_exception when the sender's primary term is not the shard's any more.
   */
  shardFailed(shard: FailedShard): Promise<void> {
    return this.onMaster('shard-failed', { shard }, () => this.shardFailedOnMaster(shard));
  }

  private async shardFailedOnMaster(shard: FailedShard): Promise<void> {
    await this.coordinator.submitStateUpdate(`shard-failed ${shard.index}[${shard.shard}]`, (state) => markShardFailed(state, shard, Date.now()));
  }

  /**
   * Once a disk has room again (the disk threshold monitor asks): primaries that failed because the disk was full
   * go back to their node and recover from their own store, whatever their failure count (ES would need
   * `_cluster/reroute?retry_failed` after five).
   */
  retryDiskFailures(): Promise<void> {
    return this.onMaster('retry-disk-failures', {}, () => this.retryDiskFailuresOnMaster());
  }

  private async retryDiskFailuresOnMaster(): Promise<void> {
    await this.coordinator.submitStateUpdate('retry-disk-failures', (state) => retryFailedPrimaries(state, (info) => /ENOSPC|no space left/i.test(info.details ?? '')));
  }

  /**
   * `action.auto_create_index` (AutoCreateIndex.shouldAutoCreate): true, false, or a comma list of `+pattern`
   * / `-pattern` where the first match decides. Throws ES's index_not_found_exception when forbidden.
   */
  checkAutoCreate(index: string): void {
    // A matching composable template's `allow_auto_create` overrides the setting (AutoCreateIndex.shouldAutoCreate).
    const templates = this.clusterService.state().templates;
    const templateName = findComposableTemplate(templates, index, false);
    const allowAutoCreate = templateName === undefined ? undefined : ownValue(templates.composable, templateName)!.allowAutoCreate;
    if (allowAutoCreate === true) return;
    // ES names the template in the index slot here: "no such index [composable template [...] forbids ...]".
    if (allowAutoCreate === false) throw errors.indexNotFound(templateErrors.autoCreateForbidden(ownValue(templates.composable, templateName!)!.indexPatterns));
    const setting = (this.nodeSettings.get('action.auto_create_index') ?? 'true').trim();
    if (setting === 'true') return;
    if (setting === 'false') throw indexErrors.indexNotFoundBecause(index, '[action.auto_create_index] is [false]');
    const expressions = setting.split(',').map((part) => part.trim()).filter(Boolean);
    for (const expression of expressions) {
      const include = !expression.startsWith('-');
      const pattern = expression.startsWith('+') || expression.startsWith('-') ? expression.slice(1) : expression;
      if (simpleMatch(pattern, index)) {
        if (include) return;
        throw indexErrors.indexNotFoundBecause(index, `[action.auto_create_index] contains [-${pattern}] which forbids automatic creation of the index`);
      }
    }
    throw indexErrors.indexNotFoundBecause(index, `[action.auto_create_index] ([${setting}]) doesn't match`);
  }

  /** Creates `index` for a write unless it exists (another request may be creating it: that is fine). */
  async autoCreateIndex(index: string, signal?: AbortSignal): Promise<void> {
    if (this.clusterService.state().indices.has(index)) return;
    this.checkAutoCreate(index);
    try {
      await this.createIndex({ index }, { cause: 'auto(bulk api)', signal });
    } catch (err) {
      if (err instanceof Error && (err as { type?: string }).type === 'resource_already_exists_exception') return;
      throw err;
    }
  }
}

/** The templates a new index took its settings from: the composable one, else the legacy ones, by name. */
function matchingTemplates(state: ClusterState, metadata: IndexMetadata): string[] {
  const hidden = metadata.settings['index.hidden'] === 'true';
  const composable = findComposableTemplate(state.templates, metadata.name, hidden);
  if (composable !== undefined) return [composable];
  return findLegacyTemplates(state.templates, metadata.name, hidden).map(([name]) => name);
}

/** MetadataRolloverService.rolloverAliasToNewIndex: the alias follows the rollover in the same state update. */
function moveRolloverAlias(state: ClusterState, newIndex: string, rollover: NonNullable<CreateIndexOptions['rolloverOf']>): ClusterState {
  const old = state.indices.get(rollover.oldIndex);
  const definition = old === undefined ? undefined : ownValue(old.aliases, rollover.alias);
  if (old === undefined || definition === undefined) throw errors.illegalArgument(`rollover target [${rollover.alias}] does not point to a write index`);
  const isHidden = definition.isHidden;
  const hidden = isHidden === undefined ? {} : { isHidden };
  const actions: AliasActionRequest[] = rollover.explicitWriteIndex
    ? [
        { type: 'add', indices: [newIndex], aliases: [rollover.alias], definition: { isWriteIndex: true, ...hidden } },
        { type: 'add', indices: [rollover.oldIndex], aliases: [rollover.alias], definition: { isWriteIndex: false, ...hidden } },
      ]
    : [
        { type: 'add', indices: [newIndex], aliases: [rollover.alias], definition: { ...hidden } },
        { type: 'remove', indices: [rollover.oldIndex], aliases: [rollover.alias] },
      ];
  return applyAliasActions(state, actions).state;
}
