/** The delete API (RestDeleteAction): `DELETE /{index}/_doc/{id}`; 404 with `result: not_found` when there was no such document. */
import type { Route } from '../rest.js';
import { singleWrite } from './single-write.js';
import { readWriteParams, WRITE_PARAMS } from './write-params.js';

export const deleteRoutes: Route[] = [
  {
    method: 'DELETE',
    path: '/{index}/_doc/{id}',
    action: 'indices:data/write/delete',
    params: WRITE_PARAMS,
    describe: (request) => `delete {[${request.pathParams['index']}][${request.pathParams['id']}]}`,
    handler: async (request, context) => {
      const params = readWriteParams(request);
      return singleWrite(
        {
          op: 'delete',
          index: request.pathParams['index'],
          id: request.pathParams['id'],
          routing: params.routing,
          version: params.version,
          versionType: params.versionType,
          ifSeqNo: params.ifSeqNo,
          ifPrimaryTerm: params.ifPrimaryTerm,
          source: undefined,
          update: undefined,
          requireAlias: false,
        },
        { refresh: params.refresh, timeoutMillis: params.timeoutMillis, waitForActiveShards: params.waitForActiveShards },
        context,
      );
    },
  },
];
