/**
 * `GET /_settings`, `/{index}/_settings[/{name}]`, `/_settings/{name}` (RestGetSettingsAction: optional name
 * patterns, `flat_settings`, `include_defaults`) and `PUT /_settings`, `/{index}/_settings`
 * (RestUpdateSettingsAction: dynamic settings only on open indices, `preserve_existing`, `null` resets).
 */
import { errors } from '../../common/errors.js';
import { simpleMatch } from '../../common/wildcards.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN, splitCommaLikeJava } from '../../cluster/indices-options.js';
import { defaultSettings, normalizeSettings, type FlatSettings } from '../../indices/index.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { ackOptions } from '../acked-request.js';
import { resolveIndices, STRICT_EXPAND_OPEN_CLOSED_NO_EMPTY } from './resolve-indices.js';
import { settingsXContent, withHumanReadableSettings } from './settings-xcontent.js';

const GET_OPTIONS = Object.freeze({ ...STRICT_EXPAND_OPEN, expandClosed: true });

function filterByNames(settings: FlatSettings, names: readonly string[]): FlatSettings {
  if (names.length === 0 || (names.length === 1 && names[0] === '_all')) return settings;
  const out: FlatSettings = {};
  for (const [key, value] of Object.entries(settings)) {
    const base = key.replace(/\.\d+$/, '');
    if (names.some((name) => simpleMatch(name, key) || simpleMatch(name, base))) out[key] = value;
  }
  return out;
}

const getSettings: Route['handler'] = async (request, context) => {
  const state = context.services.clusterService.state();
  const indexNames = resolveIndices(request, state, GET_OPTIONS).sort();
  const names = request.pathParams['name'] === undefined ? [] : splitCommaLikeJava(request.pathParams['name']);
  const flat = request.paramBool('flat_settings', false);
  const includeDefaults = request.paramBool('include_defaults', false);
  const body: Record<string, unknown> = {};
  for (const indexName of indexNames) {
    const metadata = state.indices.get(indexName)!;
    // TransportGetSettingsAction adds the human-readable settings before filtering by name.
    const settings = filterByNames(request.human ? withHumanReadableSettings(metadata.settings) : metadata.settings, names);
    const entry: Record<string, unknown> = {};
    let defaults: FlatSettings = {};
    if (includeDefaults) {
      defaults = defaultSettings();
      for (const key of Object.keys(metadata.settings)) delete defaults[key];
      defaults = filterByNames(defaults, names);
    }
    if (Object.keys(settings).length === 0 && Object.keys(defaults).length === 0) continue;
    entry['settings'] = settingsXContent(settings, flat);
    if (includeDefaults) entry['defaults'] = settingsXContent(defaults, flat);
    body[indexName] = entry;
  }
  return json(body);
};

const putSettings: Route['handler'] = async (request, context) => {
  if (!request.hasBody) throw errors.bodyRequired();
  let body = request.json();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.illegalArgument('malformed settings, expected an object');
  const keys = Object.keys(body as Record<string, unknown>);
  // UpdateSettingsRequest.fromXContent: a lone `settings` object holds the settings.
  if (keys.length === 1 && keys[0] === 'settings') body = (body as Record<string, unknown>)['settings'];
  const settings = normalizeSettings(body);
  if (Object.keys(settings).length === 0) throw errors.requestValidation(['no settings to update']);
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_CLOSED_NO_EMPTY);
  const preserveExisting = request.paramBool('preserve_existing', false);
  const acknowledged = names.length === 0 || (await indicesOf(context.services).metadata.updateSettings(names, settings, preserveExisting, ackOptions(request, context))).acknowledged;
  return json({ acknowledged });
};

const GET_PARAMS = ['flat_settings', 'include_defaults', 'local', 'master_timeout', ...INDICES_OPTIONS_PARAMS];
const PUT_PARAMS = ['timeout', 'master_timeout', 'preserve_existing', 'flat_settings', 'reopen', ...INDICES_OPTIONS_PARAMS];

export const settingsRoutes: Route[] = [
  { method: 'GET', path: '/_settings', action: 'indices:monitor/settings/get', params: GET_PARAMS, handler: getSettings },
  { method: 'GET', path: '/_settings/{name}', action: 'indices:monitor/settings/get', params: GET_PARAMS, handler: getSettings },
  { method: 'GET', path: '/{index}/_settings', action: 'indices:monitor/settings/get', params: GET_PARAMS, handler: getSettings },
  { method: 'GET', path: '/{index}/_settings/{name}', action: 'indices:monitor/settings/get', params: GET_PARAMS, handler: getSettings },
  { method: 'PUT', path: '/_settings', action: 'indices:admin/settings/update', params: PUT_PARAMS, body: 'required', handler: putSettings },
  { method: 'PUT', path: '/{index}/_settings', action: 'indices:admin/settings/update', params: PUT_PARAMS, body: 'required', handler: putSettings },
];
