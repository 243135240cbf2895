/**
 * The update API (RestUpdateAction): `POST /{index}/_update/{id}` with a `script` or a partial `doc`, `upsert`,
 * `doc_as_upsert`, `detect_noop`, `retry_on_conflict` and `_source` for the `get` block in the response.
 * `version`/`version_type` are refused as ES refuses them; `script` (with `scripted_upsert`) runs the painless subset.
 */
import { errors } from '../../common/errors.js';
import type { Route } from '../rest.js';
import { fetchSourceFromRequest, SOURCE_PARAMS } from './fetch-source.js';
import { singleWrite } from './single-write.js';
import { parseUpdateBody, updateProblems } from './update-request.js';
import { readWriteParams, WRITE_PARAMS } from './write-params.js';

const UPDATE_PARAMS = [...WRITE_PARAMS, ...SOURCE_PARAMS, 'retry_on_conflict', 'lang', 'require_alias', 'include_source_on_error'] as const;

export const updateRoutes: Route[] = [
  {
    method: 'POST',
    path: '/{index}/_update/{id}',
    action: 'indices:data/write/update',
    params: UPDATE_PARAMS,
    body: 'required',
    describe: (request) => `update {[${request.pathParams['index']}][${request.pathParams['id']}]}`,
    handler: async (request, context) => {
      if (request.hasParam('version') || request.hasParam('version_type')) {
        throw errors.requestValidation(['internal versioning can not be used for optimistic concurrency control. Please use `if_seq_no` and `if_primary_term` instead']);
      }
      if (!request.hasBody) throw errors.bodyRequired();
      const params = readWriteParams(request);
      request.json(); // ES's parse errors (syntax, depth, UTF-8) before reading the fields
      const retryOnConflict = request.paramInt('retry_on_conflict', 0);
      const parsed = parseUpdateBody(request.body().toString('utf8'), retryOnConflict);
      const spec = parsed.fetchSource === undefined ? { ...parsed, fetchSource: fetchSourceFromRequest(request) } : parsed;
      return singleWrite(
        {
          op: 'update',
          index: request.pathParams['index'],
          id: request.pathParams['id'],
          routing: params.routing,
          version: undefined,
          versionType: 'internal',
          ifSeqNo: spec.ifSeqNo ?? params.ifSeqNo,
          ifPrimaryTerm: spec.ifPrimaryTerm ?? params.ifPrimaryTerm,
          source: undefined,
          update: spec,
          requireAlias: request.paramBool('require_alias', false),
        },
        { refresh: params.refresh, timeoutMillis: params.timeoutMillis, waitForActiveShards: params.waitForActiveShards },
        context,
        updateProblems(spec, spec.ifSeqNo ?? params.ifSeqNo),
      );
    },
  },
];
