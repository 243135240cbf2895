export { clusterSettingDefinition, clusterSettingDefinitions, type ClusterSettingDefinition } from './cluster-setting-registry.js';
export { updateClusterSettings, type ClusterSettingsUpdate, type ClusterSettingsUpdateResult, type SettingsChanges } from './settings-updater.js';
export { liveNodeSettings } from './live-node-settings.js';
