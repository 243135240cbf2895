/**
 * `PUT _cluster/settings` on the master, as ES's SettingsUpdater and AbstractScopedSettings.updateDynamicSettings:
 * transient first, then persistent; a null value resets a key (a key ending in `*` resets every key it matches);
 * an unknown key is refused with "<scope> setting [key], not recognized"; a value is validated before anything
 * changes. What comes back as "updated" are the keys that were set (not the resets), as ES's response lists them.
 * When nothing changes the state object is returned as is, so no new cluster-state version is published.
 */
import { errors } from '../../common/errors.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { ClusterState } from '../cluster-state.js';
import { clusterSettingDefinition } from './cluster-setting-registry.js';
import { validateWatermarkUpdate } from '../routing/disk-watermarks.js';

/** Flat keys to a value, or to null for a reset. */
export type SettingsChanges = Readonly<Record<string, string | null>>;

export interface ClusterSettingsUpdate {
  readonly transient: SettingsChanges;
  readonly persistent: SettingsChanges;
}

export interface ClusterSettingsUpdateResult {
  readonly state: ClusterState;
  readonly transientUpdates: Record<string, string>;
  readonly persistentUpdates: Record<string, string>;
}

type Scope = 'transient' | 'persistent';

function applyScope(
  current: Readonly<Record<string, string>>,
  changes: SettingsChanges,
  scope: Scope,
): { settings: Readonly<Record<string, string>>; updates: Record<string, string>; changed: boolean } {
  const next: Record<string, string> = { ...current };
  const updates: Record<string, string> = {};
  const resets: string[] = [];
  let changed = false;
  for (const [key, value] of Object.entries(changes)) {
    const definition = clusterSettingDefinition(key);
    if (value === null && (definition !== undefined || key.endsWith('*'))) {
      resets.push(key);
      continue;
    }
    if (definition === undefined) throw errors.illegalArgument(`${scope} setting [${key}], not recognized`);
    if (value === null) continue;
    definition.validate(value, key);
    updates[key] = value;
    if (next[key] !== value) changed = true;
    next[key] = value;
  }
  for (const reset of resets) {
    for (const key of Object.keys(next)) {
      if (key === reset || (reset.endsWith('*') && simpleMatch(reset, key))) {
        // A reset of a key set in this same request undoes it, as ES applies deletes after the puts.
        delete next[key];
        changed = true;
      }
    }
  }
  return { settings: changed ? next : current, updates, changed };
}

export function updateClusterSettings(state: ClusterState, update: ClusterSettingsUpdate): ClusterSettingsUpdateResult {
  const transient = applyScope(state.transientSettings, update.transient, 'transient');
  const persistent = applyScope(state.persistentSettings, update.persistent, 'persistent');
  const changed = transient.changed || persistent.changed;
  // Settings that are validated together (ES's Setting.Validator over several keys): the disk watermarks.
  if (changed) {
    validateWatermarkUpdate(
      (key) => state.transientSettings[key] ?? state.persistentSettings[key],
      (key) => transient.settings[key] ?? persistent.settings[key],
    );
  }
  return {
    state: changed ? { ...state, transientSettings: transient.settings, persistentSettings: persistent.settings } : state,
    transientUpdates: transient.updates,
    persistentUpdates: persistent.updates,
  };
}
