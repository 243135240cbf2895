/**
 * `/_component_template` (RestPutComponentTemplateAction, RestGetComponentTemplateAction,
 * RestDeleteComponentTemplateAction): the building blocks composable templates are `composed_of`. GET answers
 * `{component_templates: [{name, component_template}]}` with the same 404 rule as index templates; a component
 * still used by an index template cannot be deleted.
 */
import { templateErrors } from '../../common/errors.js';
import { putComponentTemplate, removeComponentTemplates } from '../../cluster/metadata/templates/index.js';
import { empty, json, type RestRequest, type Route } from '../rest.js';
import type { NodeServices } from '../context.js';
import { parseComponentTemplate } from './template-body-parser.js';
import { componentXContent } from './template-xcontent.js';
import { ackOptions } from '../acked-request.js';
import { acknowledged, requiredBody, selectByName, templatesService } from './template-request.js';

const GET_PARAMS = ['local', 'master_timeout', 'flat_settings', 'include_defaults'];

function getComponents(request: RestRequest, services: NodeServices, name: string | undefined) {
  const templates = services.clusterService.state().templates;
  const flat = request.paramBool('flat_settings', false);
  const entries = selectByName(templates.component, name, templateErrors.componentNotFound);
  const body = { component_templates: entries.map(([entryName, template]) => ({ name: entryName, component_template: componentXContent(template, flat) })) };
  return json(body, name === undefined || entries.length > 0 ? 200 : 404);
}

export const componentTemplateRoutes: Route[] = [
  {
    method: ['PUT', 'POST'],
    path: '/_component_template/{name}',
    action: 'cluster:admin/component_template/put',
    params: ['create', 'cause', 'master_timeout'],
    body: 'required',
    handler: async (request, context) => {
      const name = request.pathParams['name']!;
      const template = parseComponentTemplate(requiredBody(request));
      const create = request.paramBool('create', false);
      const cause = request.param('cause') ?? 'api';
      const outcome = await templatesService(context.services).updateTemplates(`create-component-template [${name}], cause [${cause}]`, { kind: 'put-component', name, component: template, create }, ackOptions(request, context));
      return acknowledged(context.services, outcome);
    },
  },
  {
    method: 'GET',
    path: '/_component_template',
    action: 'cluster:admin/component_template/get',
    params: GET_PARAMS,
    handler: async (request, context) => getComponents(request, context.services, undefined),
  },
  {
    method: ['GET', 'HEAD'],
    path: '/_component_template/{name}',
    action: 'cluster:admin/component_template/get',
    params: GET_PARAMS,
    handler: async (request, context) => {
      if (request.method === 'HEAD') {
        try {
          return empty(getComponents(request, context.services, request.pathParams['name']).status);
        } catch {
          return empty(404);
        }
      }
      return getComponents(request, context.services, request.pathParams['name']);
    },
  },
  {
    method: 'DELETE',
    path: '/_component_template/{name}',
    action: 'cluster:admin/component_template/delete',
    params: ['master_timeout', 'timeout'],
    handler: async (request, context) => {
      const names = request.pathParams['name']!.split(',');
      const outcome = await templatesService(context.services).updateTemplates(`remove-component-template [${names.join(',')}]`, { kind: 'remove-component', names }, ackOptions(request, context));
      return acknowledged(context.services, outcome);
    },
  },
];
