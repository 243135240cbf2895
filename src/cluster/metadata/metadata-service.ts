/**
 * The master-side index operations as async calls: each one is a cluster-state update submitted to the
 * coordinator (so it is ordered, persisted and published like any other), plus the waits ES's transport
 * actions do around them (create index waits for `wait_for_active_shards`). Every node's applier then acts on
 * the published state, so when a call resolves the local services already see the change.
 */
import { ownValue } from '../../common/own-keys.js';
import { errors, indexErrors, templateErrors } from '../../common/errors.js';
import type { Settings } from '../../common/settings.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { RootMapping } from '../../mapping/index.js';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState } from '../cluster-state.js';
import type { Coordinator } from '../coordination/coordinator.js';
import { markShardFailed, markShardsStarted, type StartedShard } from '../routing/shard-allocation.js';
import { addNewIndex, type CreateIndexRequest } from './create-index.js';
import { applyAliasActions, type AliasActionOutcome, type AliasActionRequest } from './alias-updates.js';
import { mergeMappingInto, removeIndices, updateIndexSettings } from './index-updates.js';
import { enoughShardsActive, parseActiveShardCount, type ActiveShardCount } from './active-shard-count.js';
import { updateClusterSettings, type ClusterSettingsUpdate } from '../settings/settings-updater.js';
import { findComposableTemplate, type IndexTemplates, type TemplatesUpdate } from './templates/index.js';
import { closeIndicesState, openIndicesState } from './index-state.js';

export interface CreateIndexResult {
  readonly acknowledged: boolean;
  readonly shardsAcknowledged: boolean;
  readonly index: string;
}

/** ES's default `master_timeout`/ack timeout and the create index wait. */
const DEFAULT_TIMEOUT_MILLIS = 30_000;

export class MetadataService {
  constructor(
    private readonly clusterService: ClusterService,
    private readonly coordinator: Coordinator,
    private readonly nodeSettings: Settings,
    private readonly reportedVersion: string,
  ) {}

  state(): ClusterState {
    return this.clusterService.state();
  }

  async createIndex(
    request: CreateIndexRequest,
    options: { waitForActiveShards?: string; timeoutMillis?: number; signal?: AbortSignal; cause?: string } = {},
  ): Promise<CreateIndexResult> {
    let created: string | undefined;
    let wanted: ActiveShardCount | undefined;
    await this.coordinator.submitStateUpdate(`create-index [${request.index}], cause [${options.cause ?? 'api'}]`, (state) => {
      const { state: next, metadata } = addNewIndex(state, request, this.reportedVersion, Date.now());
      const waitSetting = options.waitForActiveShards ?? metadata.settings['index.write.wait_for_active_shards'] ?? '1';
      wanted = parseActiveShardCount(waitSetting === 'index-setting' ? (metadata.settings['index.write.wait_for_active_shards'] ?? '1') : waitSetting);
      if (wanted.kind === 'count' && wanted.count > metadata.numberOfReplicas + 1) {
        throw errors.illegalArgument(
          `invalid wait_for_active_shards[${waitSetting}]: cannot be greater than number of shard copies [${metadata.numberOfReplicas + 1}]`,
        );
      }
      created = metadata.uuid;
      return next;
    });
    const uuid = created!;
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

  async deleteIndices(names: readonly string[]): Promise<void> {
    await this.coordinator.submitStateUpdate(`delete-index [${names.join(', ')}]`, (state) => removeIndices(state, names.filter((name) => state.indices.has(name))));
  }

  /** `POST /_aliases` and the single-alias APIs: all actions apply together or not at all. */
  async updateAliases(actions: readonly AliasActionRequest[]): Promise<AliasActionOutcome[]> {
    let outcomes: AliasActionOutcome[] = [];
    await this.coordinator.submitStateUpdate('index-aliases', (state) => {
      const result = applyAliasActions(state, actions);
      outcomes = result.outcomes;
      return result.state;
    });
    return outcomes;
  }

  async putMapping(names: readonly string[], mapping: unknown): Promise<void> {
    await this.coordinator.submitStateUpdate(`put-mapping [${names.join(', ')}]`, (state) => mergeMappingInto(state, names, mapping, false));
  }

  /** The fields a document introduced, merged on the master before the document is indexed. */
  async addDynamicMapping(index: string, uuid: string, update: RootMapping): Promise<void> {
    await this.coordinator.submitStateUpdate(`put-mapping [${index}] (dynamic)`, (state) => {
      const metadata = state.indices.get(index);
      if (metadata === undefined || metadata.uuid !== uuid) throw errors.indexNotFound(index);
      return mergeMappingInto(state, [index], update, true);
    });
  }

  async updateSettings(names: readonly string[], settings: Record<string, string | null>, preserveExisting: boolean): Promise<void> {
    await this.coordinator.submitStateUpdate(`update-settings [${names.join(', ')}]`, (state) =>
      updateIndexSettings(state, names, settings, preserveExisting, Date.now()),
    );
  }

  /**
   * `_close` / `_open` (MetadataIndexStateService): changes the state of the named indices that are not in it
   * yet and returns those (the caller waits for their copies as ES's transport actions do).
   */
  async setIndicesState(names: readonly string[], target: 'open' | 'close'): Promise<readonly string[]> {
    let changed: readonly string[] = [];
    await this.coordinator.submitStateUpdate(`${target === 'close' ? 'close' : 'open'}-indices [${names.join(', ')}]`, (state) => {
      const result = target === 'close' ? closeIndicesState(state, names, Date.now()) : openIndicesState(state, names, Date.now());
      changed = result.changed;
      return result.state;
    });
    return changed;
  }

  /** `PUT _cluster/settings`: returns the keys that were set, per scope, as ES's response lists them. */
  async updateClusterSettings(update: ClusterSettingsUpdate): Promise<{ transient: Record<string, string>; persistent: Record<string, string> }> {
    let updates: { transient: Record<string, string>; persistent: Record<string, string> } = { transient: {}, persistent: {} };
    await this.coordinator.submitStateUpdate('cluster_update_settings', (state) => {
      const result = updateClusterSettings(state, update);
      updates = { transient: result.transientUpdates, persistent: result.persistentUpdates };
      return result.state;
    });
    return updates;
  }

  /** A change to the index templates (put or delete); resolves with the warnings ES would send as headers. */
  async updateTemplates(source: string, update: (templates: IndexTemplates) => TemplatesUpdate): Promise<string[]> {
    let warnings: string[] = [];
    await this.coordinator.submitStateUpdate(source, (state) => {
      const result = update(state.templates);
      warnings = result.warnings;
      return result.templates === state.templates ? state : { ...state, templates: result.templates };
    });
    return warnings;
  }

  async shardStarted(shard: StartedShard): Promise<void> {
    await this.coordinator.submitStateUpdate(`shard-started ${shard.index}[${shard.shard}]`, (state) => markShardsStarted(state, [shard]));
  }

  async shardFailed(shard: StartedShard): Promise<void> {
    await this.coordinator.submitStateUpdate(`shard-failed ${shard.index}[${shard.shard}]`, (state) => markShardFailed(state, shard, Date.now()));
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
