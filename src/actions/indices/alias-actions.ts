/**
 * The alias APIs: `POST /_aliases` (RestIndicesAliasesAction), `PUT|POST [/{index}]/_alias[es]/{name}`
 * (RestIndexPutAliasAction), `DELETE /{index}/_alias[es]/{name}` (RestIndexDeleteAliasesAction) and
 * `GET|HEAD [/{index}]/_alias[/{name}]`, `GET /_aliases` (RestGetAliasesAction). Every change is one
 * `indices:admin/aliases` cluster-state update; its answer is IndicesAliasesResponse (`errors`, and per-action
 * `action_results` when some removal found nothing).
 */
import { EsError, toEsError } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, indicesOptionsFromParams, splitCommaLikeJava } from '../../cluster/index.js';
import type { AliasActionOutcome, AliasActionRequest } from '../../cluster/metadata/alias-updates.js';
import { empty, json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { ackOptions } from '../acked-request.js';
import { errorXContent } from '../documents/write-response.js';
import { parseAliasAction, parseAliasesBody } from './alias-request.js';
import { findAliases, GET_ALIASES_OPTIONS, getAliasesResponse, requestedAliasNames } from './alias-get.js';

const UPDATE_ACTION = 'indices:admin/aliases';
const GET_ACTION = 'indices:admin/aliases/get';
const UPDATE_PARAMS = ['timeout', 'master_timeout'] as const;
const GET_PARAMS = ['local', 'master_timeout', ...INDICES_OPTIONS_PARAMS] as const;

/** IndicesAliasesResponse: `errors`, and the per-action results only when one failed. */
function aliasesResponse(outcomes: readonly AliasActionOutcome[], acknowledged: boolean): Record<string, unknown> {
  const failed = outcomes.some((outcome) => outcome.error !== undefined);
  const body: Record<string, unknown> = { acknowledged, errors: failed };
  if (failed) {
    body['action_results'] = outcomes.map((outcome) => ({
      action: { type: outcome.action.type, indices: [...outcome.action.indices], aliases: [...outcome.action.aliases] },
      status: outcome.error?.status ?? 200,
      ...(outcome.error !== undefined && { error: errorXContent(outcome.error) }),
    }));
  }
  return body;
}

async function applyActions(actions: readonly AliasActionRequest[], request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const { acknowledged, value: outcomes } = await indicesOf(context.services).metadata.updateAliases(actions, ackOptions(request, context));
  return json(aliasesResponse(outcomes, acknowledged));
}

const INDEX_ROUTING_FIELDS = new Set(['indexRouting', 'index-routing', 'index_routing']);
const SEARCH_ROUTING_FIELDS = new Set(['searchRouting', 'search-routing', 'search_routing']);

/** RestIndexPutAliasAction: path parameters, overridden by the body's `index`, `alias`, routings, flag and filter. */
function putAliasAction(request: RestRequest): AliasActionRequest {
  let indices = splitCommaLikeJava(request.pathParams['index'] ?? '');
  let alias = request.pathParams['name'];
  const fields: Record<string, unknown> = {};
  if (request.hasBody) {
    const body = request.json();
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new EsError('illegal_argument_exception', 'No index alias is specified');
    for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
      const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
      if (field === 'filter' && isObject) {
        fields['filter'] = value;
      } else if (isObject || Array.isArray(value)) {
        // Objects other than the filter are skipped, as ES's token loop does.
        continue;
      } else if (field === 'index') {
        indices = splitCommaLikeJava(String(value));
      } else if (field === 'alias') {
        alias = String(value);
      } else if (field === 'routing' || INDEX_ROUTING_FIELDS.has(field) || SEARCH_ROUTING_FIELDS.has(field)) {
        if (value !== null) fields[field === 'routing' ? 'routing' : INDEX_ROUTING_FIELDS.has(field) ? 'index_routing' : 'search_routing'] = String(value);
      } else if (field === 'is_write_index') {
        fields['is_write_index'] = value;
      } else {
        throw new EsError('illegal_argument_exception', `Unsupported field [${field}]`);
      }
    }
  }
  return parseAliasAction('add', { indices, alias: alias ?? '', ...fields });
}

async function handleGet(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const state = context.services.clusterService.state();
  const options = indicesOptionsFromParams((name) => request.param(name), GET_ALIASES_OPTIONS);
  const lookup = findAliases(state, options, splitCommaLikeJava(request.pathParams['index'] ?? ''), requestedAliasNames(request.pathParams['name']));
  const { status, body } = getAliasesResponse(state, lookup, request.pathParams['name'] !== undefined);
  const local = request.param('local');
  const headers =
    local !== undefined
      ? {
          Warning: `299 Elasticsearch-${context.services.version.number}-${context.services.version.buildHash} "the [?local=${request.paramBool('local', false)}] query parameter to get-aliases requests has no effect and will be removed in a future version"`,
        }
      : undefined;
  if (request.method === 'HEAD') return { ...empty(status), ...(headers !== undefined && { headers }) };
  return json(body, status, headers);
}

async function handleHead(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  try {
    return await handleGet(request, context);
  } catch (err) {
    return empty(toEsError(err).status);
  }
}

const getRoute = (path: string): Route => ({ method: 'GET', path, action: GET_ACTION, params: GET_PARAMS, cancellable: true, handler: handleGet });
const headRoute = (path: string): Route => ({ method: 'HEAD', path, action: GET_ACTION, params: GET_PARAMS, handler: handleHead });

const putRoute = (method: 'PUT' | 'POST', path: string): Route => ({
  method,
  path,
  action: UPDATE_ACTION,
  params: UPDATE_PARAMS,
  body: 'optional',
  handler: (request, context) => applyActions([putAliasAction(request)], request, context),
});

const deleteRoute = (path: string): Route => ({
  method: 'DELETE',
  path,
  action: UPDATE_ACTION,
  params: UPDATE_PARAMS,
  handler: (request, context) =>
    applyActions(
      [parseAliasAction('remove', { indices: splitCommaLikeJava(request.pathParams['index'] ?? ''), aliases: splitCommaLikeJava(request.pathParams['name'] ?? '') })],
      request,
      context,
    ),
});

export const aliasRoutes: Route[] = [
  {
    method: 'POST',
    path: '/_aliases',
    action: UPDATE_ACTION,
    params: UPDATE_PARAMS,
    body: 'required',
    handler: (request, context) => applyActions(parseAliasesBody(request.json()), request, context),
  },
  ...(['PUT', 'POST'] as const).flatMap((method) =>
    ['/{index}/_alias/{name}', '/_alias/{name}', '/{index}/_aliases/{name}', '/_aliases/{name}'].map((path) => putRoute(method, path)),
  ),
  putRoute('PUT', '/{index}/_alias'),
  putRoute('PUT', '/{index}/_aliases'),
  putRoute('PUT', '/_alias'),
  deleteRoute('/{index}/_alias/{name}'),
  deleteRoute('/{index}/_aliases/{name}'),
  getRoute('/_alias'),
  getRoute('/_aliases'),
  getRoute('/_alias/{name}'),
  headRoute('/_alias/{name}'),
  getRoute('/{index}/_alias'),
  headRoute('/{index}/_alias'),
  getRoute('/{index}/_alias/{name}'),
  headRoute('/{index}/_alias/{name}'),
];
