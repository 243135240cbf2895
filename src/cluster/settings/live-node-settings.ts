/**
 * The node's settings as request handlers see them: the node's own settings (defaults, gannet.yml, -E) with the
 * cluster settings laid over them, transient over persistent over the node's, as ES resolves a dynamic setting.
 * The view is one Settings object whose values are brought up to date when a cluster state with other cluster
 * settings is applied; so every reader that looks a dynamic key up per use (search.max_buckets,
 * action.auto_create_index, ...) sees a PUT from the next request on, without knowing where the value came from.
 * Only registered cluster settings are ever laid over, so static node settings are never changed.
 */
import { Settings, type FlatSettings } from '../../common/settings.js';
import type { ClusterService } from '../cluster-service.js';
import type { ClusterState } from '../cluster-state.js';
import { clusterSettingDefinitions } from './cluster-setting-registry.js';

export function liveNodeSettings(nodeSettings: Settings, clusterService: ClusterService): Settings {
  const own: Readonly<FlatSettings> = { ...nodeSettings.raw() };
  const values: FlatSettings = { ...own };
  const keys = clusterSettingDefinitions().map((definition) => definition.key);
  const sync = (state: ClusterState): void => {
    for (const key of keys) {
      const value = state.transientSettings[key] ?? state.persistentSettings[key] ?? own[key];
      if (value === undefined) delete values[key];
      else values[key] = value;
    }
  };
  sync(clusterService.state());
  clusterService.onChange((state, previous) => {
    if (state.transientSettings !== previous.transientSettings || state.persistentSettings !== previous.persistentSettings) sync(state);
  });
  return new Settings(values);
}
