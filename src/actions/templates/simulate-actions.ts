/**
 * `POST /_index_template/_simulate_index/{name}` (TransportSimulateIndexTemplateAction): what an index of that
 * name would take from the templates now (optionally with a template from the body added first), and
 * `POST /_index_template/_simulate[/{name}]` (TransportSimulateTemplateAction): what a template, stored or given,
 * resolves to. Both answer `{template: {settings, mappings, aliases}, overlapping: [{name, index_patterns}]}`;
 * an index no composable template matches gets `{}`. Settings include the content tier preference ES's
 * DataTier setting provider adds.
 */
import { ownValue, setOwnValue } from '../../common/own-keys.js';
import { templateErrors } from '../../common/errors.js';
import {
  conflictingComposable,
  conflictingLegacy,
  findComposableTemplate,
  putComposableTemplate,
  resolveComposable,
  validateComposableRequest,
  validateTemplateMapping,
  type IndexTemplates,
} from '../../cluster/metadata/templates/index.js';
import { json, type JsonResponse, type RestRequest, type Route } from '../rest.js';
import { randomBase64Uuid } from '../../common/uuid.js';
import { parseComposableTemplate } from './template-body-parser.js';
import { settingsXContent } from '../indices/settings-xcontent.js';

const TIER_PREFERENCE = 'index.routing.allocation.include._tier_preference';
const SIMULATE_PARAMS = ['create', 'cause', 'master_timeout', 'include_defaults', 'flat_settings'];

/** The templates with the body's template (if any) added under `name`, validated as a PUT would be. */
function withBodyTemplate(request: RestRequest, templates: IndexTemplates, name: string): IndexTemplates {
  if (!request.hasBody) return templates;
  const template = parseComposableTemplate(name, request.json());
  validateComposableRequest(templates, name, template);
  return putComposableTemplate(templates, name, template, request.paramBool('create', false)).templates;
}

function simulationOf(templates: IndexTemplates, templateName: string, flat: boolean): JsonResponse {
  const template = ownValue(templates.composable, templateName)!;
  const resolved = resolveComposable(templates, templateName);
  const settings = { ...resolved.settings };
  settings[TIER_PREFERENCE] ??= 'data_content';
  const out: Record<string, unknown> = { settings: settingsXContent(settings, flat) };
  const mappings = validateTemplateMapping(resolved.settings, resolved.mappings);
  if (mappings !== undefined) out['mappings'] = mappings;
  const aliases: Record<string, unknown> = {};
  for (const [alias, definition] of resolved.aliases) if (!Object.hasOwn(aliases, alias)) setOwnValue(aliases, alias, definition);
  out['aliases'] = aliases;
  const overlapping = [...conflictingLegacy(templates, template.indexPatterns), ...conflictingComposable(templates, templateName, template.indexPatterns)];
  return json({ template: out, overlapping: overlapping.map(([name, patterns]) => ({ name, index_patterns: patterns })) });
}

export const simulateRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_index_template/_simulate_index/{name}',
    action: 'indices:admin/index_template/simulate_index',
    params: SIMULATE_PARAMS,
    body: 'optional',
    handler: async (request, context) => {
      const indexName = request.pathParams['name']!;
      const state = context.services.clusterService.state();
      const templates = withBodyTemplate(request, state.templates, `simulate_index_template_${randomBase64Uuid().toLowerCase()}`);
      const winner = findComposableTemplate(templates, indexName, false);
      if (winner === undefined) return json({});
      return simulationOf(templates, winner, request.paramBool('flat_settings', false));
    },
  },
  ...['/_index_template/_simulate', '/_index_template/_simulate/{name}'].map(
    (path): Route => ({
      method: 'POST',
      path,
      action: 'indices:admin/index_template/simulate',
      params: SIMULATE_PARAMS,
      body: 'optional',
      handler: async (request, context) => {
        const given = request.pathParams['name'];
        const state = context.services.clusterService.state();
        let templates = state.templates;
        let name = given;
        if (request.hasBody) {
          name = given ?? `simulate_template_${randomBase64Uuid().toLowerCase()}`;
          templates = withBodyTemplate(request, templates, name);
        } else if (given === undefined) {
          throw templateErrors.simulateNothing();
        } else if (ownValue(templates.composable, given) === undefined) {
          throw templateErrors.simulateMissing(given);
        }
        return simulationOf(templates, name!, request.paramBool('flat_settings', false));
      },
    }),
  ),
];
