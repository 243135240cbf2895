/** Index expressions of a request (`{index}` path part, comma separated) resolved under the API's default options. */
import { resolveConcreteIndexNames, type ClusterState } from '../../cluster/index.js';
import { indicesOptionsFromParams, splitCommaLikeJava, type IndicesOptions } from '../../cluster/indices-options.js';
import type { RestRequest } from '../rest.js';

export function expressionsOf(request: RestRequest, pathParam = 'index'): string[] {
  const raw = request.pathParams[pathParam];
  return raw === undefined ? [] : splitCommaLikeJava(raw);
}

export function resolveIndices(request: RestRequest, state: ClusterState, defaults: IndicesOptions, pathParam = 'index'): string[] {
  const options = indicesOptionsFromParams((name) => request.param(name), defaults);
  return resolveConcreteIndexNames(state, options, expressionsOf(request, pathParam));
}

/** ES's IndicesOptions.fromOptions(false, true, true, true): what delete index and several admin APIs use. */
export const STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO: IndicesOptions = Object.freeze({
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandOpen: true,
  expandClosed: true,
  expandHidden: false,
  allowAliasesToMultipleIndices: true,
  forbidClosedIndices: false,
  ignoreAliases: false,
  ignoreThrottled: false,
});
