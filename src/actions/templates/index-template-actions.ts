/**
 * `/_index_template` (RestPutComposableIndexTemplateAction, RestGetComposableIndexTemplateAction,
 * RestDeleteComposableIndexTemplateAction): composable index templates. GET answers
 * `{index_templates: [{name, index_template}]}`, 404 when a name was asked for and nothing matched (a missing
 * exact name is an error, an unmatched wildcard an empty list); HEAD says whether any match.
 */
import { templateErrors } from '../../common/errors.js';
import { putComposableTemplate, removeComposableTemplates, validateComposableRequest } from '../../cluster/metadata/templates/index.js';
import { empty, json, type Route } from '../rest.js';
import { parseComposableTemplate } from './template-body-parser.js';
import { composableXContent } from './template-xcontent.js';
import { ackOptions } from '../acked-request.js';
import { acknowledged, requiredBody, selectByName, templatesService } from './template-request.js';

export const indexTemplateRoutes: Route[] = [
  {
    method: ['PUT', 'POST'],
    path: '/_index_template/{name}',
    action: 'indices:admin/index_template/put',
    params: ['create', 'cause', 'master_timeout'],
    body: 'required',
    handler: async (request, context) => {
      const name = request.pathParams['name']!;
      const template = parseComposableTemplate(name, requiredBody(request));
      const create = request.paramBool('create', false);
      const cause = request.param('cause') ?? 'api';
      const outcome = await templatesService(context.services).updateTemplates(`create-index-template-v2 [${name}], cause [${cause}]`, { kind: 'put-composable', name, template, create }, ackOptions(request, context));
      return acknowledged(context.services, outcome, outcome.value);
    },
  },
  {
    method: 'GET',
    path: '/_index_template',
    action: 'indices:admin/index_template/get',
    params: ['local', 'master_timeout', 'flat_settings', 'include_defaults'],
    handler: async (request, context) => {
      const templates = context.services.clusterService.state().templates;
      const flat = request.paramBool('flat_settings', false);
      const entries = selectByName(templates.composable, undefined, templateErrors.composableNotFound);
      return json({ index_templates: entries.map(([name, template]) => ({ name, index_template: composableXContent(template, flat) })) });
    },
  },
  {
    method: ['GET', 'HEAD'],
    path: '/_index_template/{name}',
    action: 'indices:admin/index_template/get',
    params: ['local', 'master_timeout', 'flat_settings', 'include_defaults'],
    handler: async (request, context) => {
      const templates = context.services.clusterService.state().templates;
      const flat = request.paramBool('flat_settings', false);
      if (request.method === 'HEAD') {
        try {
          return empty(selectByName(templates.composable, request.pathParams['name'], templateErrors.composableNotFound).length > 0 ? 200 : 404);
        } catch {
          return empty(404);
        }
      }
      const entries = selectByName(templates.composable, request.pathParams['name'], templateErrors.composableNotFound);
      const body = { index_templates: entries.map(([name, template]) => ({ name, index_template: composableXContent(template, flat) })) };
      return json(body, entries.length > 0 ? 200 : 404);
    },
  },
  {
    method: 'DELETE',
    path: '/_index_template/{name}',
    action: 'indices:admin/index_template/delete',
    params: ['master_timeout', 'timeout'],
    handler: async (request, context) => {
      const names = request.pathParams['name']!.split(',');
      const outcome = await templatesService(context.services).updateTemplates(`remove-index-template-v2 [${names.join(',')}]`, { kind: 'remove-composable', names }, ackOptions(request, context));
      return acknowledged(context.services, outcome);
    },
  },
];
