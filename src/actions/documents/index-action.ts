/**
 * The index API (RestIndexAction / RestCreateAction): `PUT|POST /{index}/_doc/{id}`, `POST /{index}/_doc` (an
 * auto-generated id, op_type create by default), and `PUT|POST /{index}/_create/{id}`. The body is the document,
 * passed as sent to the document parser.
 */
import { errors } from '../../common/errors.js';
import type { Route, RestRequest, ActionContext } from '../rest.js';
import { rejectPipeline } from './bulk-request-parser.js';
import type { OpType } from './doc-write.js';
import { singleWrite } from './single-write.js';
import { readWriteParams, WRITE_PARAMS } from './write-params.js';

const INDEX_PARAMS = [
  ...WRITE_PARAMS,
  'op_type',
  'pipeline',
  'require_alias',
  'require_data_stream',
  'list_executed_pipelines',
  'include_source_on_error',
] as const;

function opTypeOf(request: RestRequest, defaultOp: OpType, createEndpoint: boolean): OpType {
  const opType = request.param('op_type');
  if (createEndpoint) {
    if (opType !== undefined && opType !== 'create') throw errors.illegalArgument(`opType must be 'create', found: [${opType}]`);
    return 'create';
  }
  if (opType === undefined) return defaultOp;
  if (opType === 'create' || opType === 'index') return opType;
  throw errors.illegalArgument(`opType must be 'create' or 'index', found: [${opType}]`);
}

function handler(defaultOp: OpType, createEndpoint: boolean) {
  return async (request: RestRequest, context: ActionContext) => {
    if (!request.hasBody) throw errors.bodyRequired();
    const params = readWriteParams(request);
    rejectPipeline(request.param('pipeline'));
    const op = opTypeOf(request, defaultOp, createEndpoint);
    return singleWrite(
      {
        op,
        index: request.pathParams['index'],
        id: request.pathParams['id'],
        routing: params.routing,
        version: params.version,
        versionType: params.versionType,
        ifSeqNo: params.ifSeqNo,
        ifPrimaryTerm: params.ifPrimaryTerm,
        source: request.body(),
        update: undefined,
        requireAlias: request.paramBool('require_alias', false),
      },
      { refresh: params.refresh, timeoutMillis: params.timeoutMillis, waitForActiveShards: params.waitForActiveShards, requestBytes: request.body().length },
      context,
    );
  };
}

const describe = (request: RestRequest) => `index {[${request.pathParams['index']}][${request.pathParams['id'] ?? 'auto'}]}`;

export const indexRoutes: Route[] = [
  { method: ['PUT', 'POST'], path: '/{index}/_doc/{id}', action: 'indices:data/write/index', params: INDEX_PARAMS, body: 'required', describe, handler: handler('index', false) },
  { method: 'POST', path: '/{index}/_doc', action: 'indices:data/write/index', params: INDEX_PARAMS, body: 'required', describe, handler: handler('create', false) },
  { method: ['PUT', 'POST'], path: '/{index}/_create/{id}', action: 'indices:data/write/index', params: INDEX_PARAMS, body: 'required', describe, handler: handler('create', true) },
];
