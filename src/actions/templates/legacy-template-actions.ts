/**
 * `/_template` (RestPutIndexTemplateAction, RestGetIndexTemplateAction, RestDeleteIndexTemplateAction): the
 * legacy templates, applied only where no composable template matches. GET takes a comma list of names or
 * wildcards and answers `{name: template}`, or `{}` with 404 when names were given and none matched. PUT carries
 * ES 8's deprecation warning.
 */
import { setOwnValue } from '../../common/own-keys.js';
import { simpleMatch } from '../../common/wildcards.js';
import { putLegacyTemplate, removeLegacyTemplates, type LegacyTemplate } from '../../cluster/metadata/templates/index.js';
import { empty, json, type RestRequest, type Route } from '../rest.js';
import type { NodeServices } from '../context.js';
import { parseLegacyTemplate } from './template-body-parser.js';
import { legacyXContent } from './template-xcontent.js';
import { ackOptions } from '../acked-request.js';
import { acknowledged, requiredBody, templatesService } from './template-request.js';
import { INCLUDE_TYPE_NAME, PUT_TEMPLATE_TYPES_DEPRECATION, typelessCreateMappings } from '../indices/typed-mappings.js';

/** RestPutIndexTemplateAction.DEPRECATION_WARNING. */
const LEGACY_DEPRECATION = 'Legacy index templates are deprecated in favor of composable templates.';

function selectLegacy(services: NodeServices, names: readonly string[]): Array<[string, LegacyTemplate]> {
  const legacy = services.clusterService.state().templates.legacy;
  if (names.length === 0) return Object.entries(legacy);
  const selected = new Map<string, LegacyTemplate>();
  for (const name of names) {
    for (const [candidate, template] of Object.entries(legacy)) if (simpleMatch(name, candidate)) selected.set(candidate, template);
  }
  return [...selected];
}

/** RestPutIndexTemplateAction: the body's mappings go through RestCreateIndexAction.prepareMappings(V7). */
function typelessLegacyBody(body: unknown, request: RestRequest, warnings: string[]): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('mappings' in body)) return body;
  const source = body as Record<string, unknown>;
  return { ...source, mappings: typelessCreateMappings(source['mappings'], request, PUT_TEMPLATE_TYPES_DEPRECATION, warnings) };
}

function namesOf(request: RestRequest): string[] {
  const raw = request.pathParams['name'];
  return raw === undefined ? [] : raw.split(',').filter((name) => name.length > 0);
}

function getLegacy(request: RestRequest, services: NodeServices) {
  const names = namesOf(request);
  const flat = request.paramBool('flat_settings', false);
  const body: Record<string, unknown> = {};
  const selected = selectLegacy(services, names);
  for (const [name, template] of selected) setOwnValue(body, name, legacyXContent(template, flat));
  return json(body, names.length === 0 || selected.length > 0 ? 200 : 404);
}

const GET_PARAMS = ['local', 'master_timeout', 'flat_settings'];

export const legacyTemplateRoutes: Route[] = [
  {
    method: ['PUT', 'POST'],
    path: '/_template/{name}',
    action: 'indices:admin/template/put',
    params: ['create', 'cause', 'order', 'master_timeout'],
    v7Params: [INCLUDE_TYPE_NAME],
    body: 'required',
    handler: async (request, context) => {
      const name = request.pathParams['name']!;
      const typeWarnings: string[] = [];
      const template = parseLegacyTemplate(typelessLegacyBody(requiredBody(request), request, typeWarnings), request.paramInt('order', 0));
      const create = request.paramBool('create', false);
      const cause = request.param('cause') ?? 'api';
      const outcome = await templatesService(context.services).updateTemplates(`create-index-template [${name}], cause [${cause}]`, { kind: 'put-legacy', name, template, create }, ackOptions(request, context));
      return acknowledged(context.services, outcome, [LEGACY_DEPRECATION, ...typeWarnings, ...outcome.value]);
    },
  },
  {
    method: 'GET',
    path: '/_template',
    action: 'indices:admin/template/get',
    params: GET_PARAMS,
    handler: async (request, context) => getLegacy(request, context.services),
  },
  {
    method: ['GET', 'HEAD'],
    path: '/_template/{name}',
    action: 'indices:admin/template/get',
    params: GET_PARAMS,
    handler: async (request, context) => {
      const response = getLegacy(request, context.services);
      return request.method === 'HEAD' ? empty(response.status) : response;
    },
  },
  {
    method: 'DELETE',
    path: '/_template/{name}',
    action: 'indices:admin/template/delete',
    params: ['master_timeout', 'timeout'],
    handler: async (request, context) => {
      const name = request.pathParams['name']!;
      const outcome = await templatesService(context.services).updateTemplates(`remove-index-template [${name}]`, { kind: 'remove-legacy', name }, ackOptions(request, context));
      return acknowledged(context.services, outcome);
    },
  },
];
