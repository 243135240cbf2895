/**
 * `GET|POST /_msearch` and `/{index}/_msearch` (RestMultiSearchAction, MultiSearchRequest.readMultiLineFormat):
 * NDJSON header/body pairs. Every line is parsed first, so a malformed header or body fails the whole request
 * with ES's 400; then each search runs as a child `indices:data/read/search` task (at most
 * `max_concurrent_searches` at once) and fails on its own: the answer lists, in request order, each search's
 * response or its error, each with its `status`.
 */
import { ownValue } from '../../common/own-keys.js';
import { EsError, errors, toEsError } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams, type IndicesOptions } from '../../cluster/indices-options.js';
import type { JsonValue } from '../../search/dsl/index.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { runSearch } from './search-action.js';
import { errorObjectXContent } from './search-errors.js';
import { SEARCH_ACTION } from './search-executor.js';
import { indexExpressions, readSearchInput, type SearchInput } from './search-input.js';

export const MSEARCH_ACTION = 'indices:data/read/msearch';

/** Header keys and the parameter each stands for (camelCase aliases as ES accepts them). */
const HEADER_KEYS: Readonly<Record<string, string>> = {
  index: 'index',
  indices: 'index',
  search_type: 'search_type',
  searchType: 'search_type',
  ccs_minimize_roundtrips: 'ccs_minimize_roundtrips',
  ccsMinimizeRoundtrips: 'ccs_minimize_roundtrips',
  request_cache: 'request_cache',
  requestCache: 'request_cache',
  preference: 'preference',
  routing: 'routing',
  allow_partial_search_results: 'allow_partial_search_results',
  expand_wildcards: 'expand_wildcards',
  expandWildcards: 'expand_wildcards',
  ignore_unavailable: 'ignore_unavailable',
  ignoreUnavailable: 'ignore_unavailable',
  allow_no_indices: 'allow_no_indices',
  allowNoIndices: 'allow_no_indices',
  ignore_throttled: 'ignore_throttled',
  ignoreThrottled: 'ignore_throttled',
};

/** Top-level parameters every item inherits. */
const INHERITED_PARAMS = ['search_type', 'rest_total_hits_as_int', 'typed_keys', 'ccs_minimize_roundtrips'];

function headerValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  return String(value);
}

function parseLine(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw errors.jsonParse(`Failed to parse msearch line: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new EsError('parsing_exception', `Expected [START_OBJECT] but found [${Array.isArray(value) ? 'START_ARRAY' : 'VALUE'}]`);
  }
  return value as Record<string, unknown>;
}

/** readMultiLineFormat: header/body pairs; the body must end with a newline. */
export function parseMultiSearchBody(body: Buffer, request: RestRequest): SearchInput[] {
  const text = body.toString('utf8');
  if (text.length > 0 && !text.endsWith('\n')) throw errors.illegalArgument('The msearch request must be terminated by a newline [\n]');
  const lines = text.split('\n');
  lines.pop();
  const defaultIndices = indexExpressions(request.pathParams['index']);
  const defaultOptions: IndicesOptions = indicesOptionsFromParams((name) => request.param(name), STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const inputs: SearchInput[] = [];
  let position = 0;
  // An empty first line before any header is tolerated (deprecated in ES).
  if (lines.length > 0 && lines[0]!.trim() === '') position = 1;
  while (position < lines.length) {
    const headerText = lines[position]!;
    const header = headerText.trim() === '' ? {} : parseLine(headerText);
    const params = new Map<string, string>();
    for (const name of INHERITED_PARAMS) {
      const value = request.param(name);
      if (value !== undefined) params.set(name, value);
    }
    let indices = defaultIndices;
    for (const [key, value] of Object.entries(header)) {
      const param = ownValue(HEADER_KEYS, key);
      if (param === undefined) throw errors.illegalArgument(`key [${key}] is not supported in the metadata section`);
      if (param === 'index') indices = Array.isArray(value) ? value.map(String) : indexExpressions(String(value));
      else params.set(param, headerValue(value));
    }
    position++;
    if (position >= lines.length) break;
    const bodyText = lines[position]!;
    position++;
    const item = bodyText.trim() === '' ? {} : (parseLine(bodyText) as { [key: string]: JsonValue });
    inputs.push(
      readSearchInput({
        param: (name) => params.get(name),
        body: item,
        indices,
        indicesOptions: defaultOptions,
      }),
    );
  }
  return inputs;
}

/** MultiSearchResponse.Item: the search's response, or its error, with the status. */
async function runItem(input: SearchInput, context: ActionContext): Promise<Record<string, unknown>> {
  try {
    const answer = await context.services.taskManager.run(
      { type: 'transport', action: SEARCH_ACTION, parentTaskId: context.task.taskId, cancellable: true, headers: context.task.headers, description: '' },
      (task) => runSearch(input, { task, services: context.services }),
    );
    return { ...answer.body, status: answer.status };
  } catch (err) {
    const error = toEsError(err);
    return { error: errorObjectXContent(error), status: error.status };
  }
}

async function handleMultiSearch(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const started = performance.now();
  if (!request.hasBody || request.body().length === 0) throw errors.bodyRequired();
  const inputs = parseMultiSearchBody(request.body(), request);
  if (inputs.length === 0) throw errors.requestValidation(['no requests added']);
  const maxConcurrent = request.paramInt('max_concurrent_searches', 0);
  if (request.param('max_concurrent_searches') !== undefined && maxConcurrent < 1) {
    throw errors.illegalArgument('maxConcurrentSearchRequests must be positive');
  }
  const limit = maxConcurrent > 0 ? maxConcurrent : 5;
  const responses = new Array<Record<string, unknown>>(inputs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      const index = next++;
      responses[index] = await runItem(inputs[index]!, context);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return json({ took: Math.floor(performance.now() - started), responses });
}

const msearchRoute = (path: string): Route => ({
  method: ['GET', 'POST'],
  path,
  action: MSEARCH_ACTION,
  cancellable: true,
  body: 'required',
  params: ['search_type', 'max_concurrent_searches', 'typed_keys', 'rest_total_hits_as_int', 'pre_filter_shard_size', 'max_concurrent_shard_requests', 'ccs_minimize_roundtrips', ...INDICES_OPTIONS_PARAMS],
  handler: handleMultiSearch,
});

export const msearchRoutes: Route[] = [msearchRoute('/_msearch'), msearchRoute('/{index}/_msearch')];
