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

/** ES's IndicesOptions.fromOptions(false, true, true, true): open and closed indices, an empty result is fine. */
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

/**
 * DeleteIndexRequest.DEFAULT_INDICES_OPTIONS: open and closed indices, an empty wildcard is fine, and aliases are
 * never resolved (`resolveAliases(false)`): a wildcard expands to indices only and a name that is an alias is ES's
 * "matches an alias" 400, so deleting through an alias can never remove the index behind it.
 */
export const DELETE_INDEX_OPTIONS: IndicesOptions = Object.freeze({
  ...STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO,
  allowAliasesToMultipleIndices: false,
  ignoreAliases: true,
});

/**
 * IndicesOptions.fromOptions(false, false, true, true), the default of UpdateSettingsRequest and PutMappingRequest:
 * open and closed indices, and a wildcard (or the whole request) that matches nothing is a 404.
 */
export const STRICT_EXPAND_OPEN_CLOSED_NO_EMPTY: IndicesOptions = Object.freeze({ ...STRICT_EXPAND_OPEN_CLOSED_ALLOW_NO, allowNoIndices: false });
