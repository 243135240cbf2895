/**
 * `GET /_cluster/settings` and `PUT /_cluster/settings` (ES's RestClusterGetSettingsAction and
 * RestClusterUpdateSettingsAction). GET answers `persistent` and `transient` as stored, and with
 * `include_defaults=true` a `defaults` object: every known cluster setting not set in the cluster state, with the
 * node's own value or ES's default, plus the node's other settings, as ES lists settings it does not hold in the
 * cluster metadata. PUT validates and applies through the master (see cluster/settings/settings-updater.ts) and
 * answers `acknowledged` with the keys it set; transient updates carry ES 8's deprecation warning.
 */
import { errors } from '../../common/errors.js';
import { setOwnValue } from '../../common/own-keys.js';
import type { FlatSettings } from '../../common/settings.js';
import { clusterSettingDefinitions, type SettingsChanges } from '../../cluster/settings/index.js';
import { json, type Route } from '../rest.js';
import { settingsXContent } from '../indices/settings-xcontent.js';
import { indicesOf } from '../indices-services.js';
import { ackOptions } from '../acked-request.js';

const TRANSIENT_DEPRECATION =
  '[transient settings removal] Updating cluster settings through transient settings is deprecated. Some Elastic products may make ' +
  'use of transient settings and those should not be changed. Any custom use of transient settings should be replaced by persistent settings.';

/** Settings.fromXContent: nested objects become dotted keys, scalars their string form, null a reset. */
function flattenChanges(value: unknown, scope: string): Record<string, string | null> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw errors.illegalArgument(`[${scope}] must be an object of settings`);
  const out: Record<string, string | null> = {};
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, child] of Object.entries(node)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (child === null) setOwnValue(out, path, null);
      else if (Array.isArray(child)) setOwnValue(out, path, child.map((item) => String(item)).join(','));
      else if (typeof child === 'object') walk(child as Record<string, unknown>, path);
      else setOwnValue(out, path, String(child));
    }
  };
  walk(value as Record<string, unknown>, '');
  return out;
}

const getSettings: Route['handler'] = async (request, { services }) => {
  const flat = request.paramBool('flat_settings', false);
  const includeDefaults = request.paramBool('include_defaults', false);
  const state = services.clusterService.state();
  const body: Record<string, unknown> = {
    persistent: settingsXContent({ ...state.persistentSettings }, flat),
    transient: settingsXContent({ ...state.transientSettings }, flat),
  };
  if (includeDefaults) {
    const setInState = (key: string) => Object.hasOwn(state.persistentSettings, key) || Object.hasOwn(state.transientSettings, key);
    const defaults: FlatSettings = {};
    for (const [key, value] of Object.entries(services.settings.raw())) if (!setInState(key)) setOwnValue(defaults, key, value);
    for (const definition of clusterSettingDefinitions()) {
      if (!setInState(definition.key) && defaults[definition.key] === undefined) defaults[definition.key] = definition.defaultValue;
    }
    if (Object.keys(defaults).length > 0) body.defaults = settingsXContent(defaults, flat);
  }
  return json(body);
};

const putSettings: Route['handler'] = async (request, context) => {
  const { services } = context;
  const source = request.json();
  const sourceObject = source !== null && typeof source === 'object' && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
  const transient: SettingsChanges = flattenChanges(sourceObject.transient, 'transient');
  const persistent: SettingsChanges = flattenChanges(sourceObject.persistent, 'persistent');
  if (Object.keys(transient).length === 0 && Object.keys(persistent).length === 0) throw errors.requestValidation(['no settings to update']);
  const { acknowledged, value: updates } = await indicesOf(services).metadata.updateClusterSettings({ transient, persistent }, ackOptions(request, context));
  const flat = request.paramBool('flat_settings', false);
  const headers =
    Object.keys(transient).length > 0 ? { Warning: `299 Elasticsearch-${services.version.number}-${services.version.buildHash} "${TRANSIENT_DEPRECATION}"` } : undefined;
  return json(
    { acknowledged, persistent: settingsXContent(updates.persistent, flat), transient: settingsXContent(updates.transient, flat) },
    200,
    headers,
  );
};

export const clusterSettingsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/_cluster/settings',
    action: 'cluster:monitor/settings',
    params: ['flat_settings', 'include_defaults', 'master_timeout', 'timeout', 'local'],
    handler: getSettings,
  },
  {
    method: 'PUT',
    path: '/_cluster/settings',
    action: 'cluster:admin/settings/update',
    params: ['flat_settings', 'master_timeout', 'timeout'],
    body: 'required',
    handler: putSettings,
  },
];
