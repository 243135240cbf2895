/**
 * `GET /{index}` (RestGetIndicesAction) answers each resolved index's aliases, mappings and settings;
 * `HEAD /{index}` (RestIndicesExistsAction) answers 200 when every expression resolves, 404 otherwise.
 */
import { EsError, toEsError } from '../../common/errors.js';
import { STRICT_EXPAND_OPEN, INDICES_OPTIONS_PARAMS } from '../../cluster/indices-options.js';
import type { IndexMetadata } from '../../cluster/index.js';
import { defaultSettings } from '../../indices/index.js';
import { empty, json, type Route } from '../rest.js';
import { aliasesXContent } from './alias-xcontent.js';
import { resolveIndices } from './resolve-indices.js';
import { settingsXContent, withHumanReadableSettings } from './settings-xcontent.js';

/** GetIndexRequest: IndicesOptions.strictExpandOpen() (a wildcard finds open indices; a named closed one is answered). */
const GET_INDEX_OPTIONS = STRICT_EXPAND_OPEN;
/** Exists answers 404 when a wildcard matches nothing, too. */
const EXISTS_OPTIONS = Object.freeze({ ...GET_INDEX_OPTIONS, allowNoIndices: false });

export function aliasesBody(metadata: IndexMetadata): Record<string, unknown> {
  return aliasesXContent(metadata);
}

const FEATURES = new Set(['aliases', 'mappings', 'settings']);

export const getIndexRoutes: Route[] = [
  {
    method: 'GET',
    path: '/{index}',
    action: 'indices:admin/get',
    params: ['local', 'master_timeout', 'flat_settings', 'include_defaults', 'features', ...INDICES_OPTIONS_PARAMS],
    handler: async (request, context) => {
      const state = context.services.clusterService.state();
      const names = resolveIndices(request, state, GET_INDEX_OPTIONS).sort();
      const flat = request.paramBool('flat_settings', false);
      const includeDefaults = request.paramBool('include_defaults', false);
      const features = request.paramList('features');
      for (const feature of features) {
        if (!FEATURES.has(feature)) throw new EsError('illegal_argument_exception', `No enum constant org.elasticsearch.action.admin.indices.get.GetIndexRequest.Feature.${feature.toUpperCase()}`);
      }
      const wants = (feature: string) => features.length === 0 || features.includes(feature);
      const body: Record<string, unknown> = {};
      for (const name of names) {
        const metadata = state.indices.get(name)!;
        const entry: Record<string, unknown> = {};
        if (wants('aliases')) entry['aliases'] = aliasesBody(metadata);
        if (wants('mappings')) entry['mappings'] = metadata.mappings;
        if (wants('settings')) {
          entry['settings'] = settingsXContent(request.human ? withHumanReadableSettings(metadata.settings) : metadata.settings, flat);
          if (includeDefaults) {
            const defaults = defaultSettings();
            for (const key of Object.keys(metadata.settings)) delete defaults[key];
            entry['defaults'] = settingsXContent(defaults, flat);
          }
        }
        body[name] = entry;
      }
      return json(body);
    },
  },
  {
    method: 'HEAD',
    path: '/{index}',
    action: 'indices:admin/get',
    params: ['local', 'master_timeout', 'flat_settings', 'include_defaults', ...INDICES_OPTIONS_PARAMS],
    handler: async (request, context) => {
      try {
        resolveIndices(request, context.services.clusterService.state(), EXISTS_OPTIONS);
        return empty(200);
      } catch (err) {
        if (toEsError(err).status === 404) return empty(404);
        throw err;
      }
    },
  },
];
