/**
 * The bulk API (RestBulkAction): `POST|PUT /_bulk` and `/{index}/_bulk` (a default index). Request-level
 * `routing`, `_source*`, `require_alias` are defaults for the items; `refresh`, `wait_for_active_shards` and
 * `timeout` apply to the whole request; `pipeline` is refused (no ingest yet). Every item is validated first
 * (ES fails the whole request with all problems listed), then the items run and the response lists each one's
 * result or error in the request's order, with `errors` and `took`.
 */
import { errors } from '../../common/errors.js';
import { json, type Route } from '../rest.js';
import { bulkItems } from './write-response.js';
import { parseBulkBody, rejectPipeline } from './bulk-request-parser.js';
import { fetchSourceFromRequest, SOURCE_PARAMS } from './fetch-source.js';
import { executeWrites } from './write-executor.js';
import { updateProblems } from './update-request.js';
import { DEFAULT_WRITE_TIMEOUT_MILLIS, parseRefreshPolicy, validationProblems } from './write-params.js';

const BULK_PARAMS = [
  'wait_for_active_shards',
  'refresh',
  'routing',
  'timeout',
  'pipeline',
  'require_alias',
  'require_data_stream',
  'list_executed_pipelines',
  'include_source_on_error',
  ...SOURCE_PARAMS,
] as const;

const bulkHandler: Route['handler'] = async (request, context) => {
  const started = performance.now();
  if (!request.hasBody) throw errors.bodyRequired();
  rejectPipeline(request.param('pipeline'));
  const refresh = parseRefreshPolicy(request.param('refresh'));
  const timeoutMillis = request.paramTimeMillis('timeout', DEFAULT_WRITE_TIMEOUT_MILLIS);
  const body = request.body();
  const items = parseBulkBody(body, {
    index: request.pathParams['index'],
    routing: request.param('routing'),
    fetchSource: fetchSourceFromRequest(request),
    requireAlias: request.paramBool('require_alias', false),
  });
  const problems: string[] = [];
  if (items.length === 0) problems.push('no requests added');
  for (const item of items) {
    const itemProblems = validationProblems(item, item.source !== undefined);
    if (itemProblems.length > 0) problems.push(...itemProblems);
    if (item.update !== undefined) problems.push(...updateProblems(item.update, item.ifSeqNo));
  }
  if (problems.length > 0) throw errors.requestValidation(problems);
  context.task.description = `requests[${items.length}], indices[${[...new Set(items.map((item) => item.index))].join(', ')}]`;
  const outcomes = await executeWrites(items, { refresh, timeoutMillis, waitForActiveShards: request.param('wait_for_active_shards'), requestBytes: body.length }, context);
  return json({
    errors: outcomes.some((outcome) => outcome.kind === 'failure'),
    took: Math.round(performance.now() - started),
    items: bulkItems(outcomes),
  });
};

export const bulkRoutes: Route[] = [
  { method: ['POST', 'PUT'], path: '/_bulk', action: 'indices:data/write/bulk', params: BULK_PARAMS, body: 'required', handler: bulkHandler },
  { method: ['POST', 'PUT'], path: '/{index}/_bulk', action: 'indices:data/write/bulk', params: BULK_PARAMS, body: 'required', handler: bulkHandler },
];
