/**
 * `GET /_mapping`, `GET /{index}/_mapping` (and `_mappings`; RestGetMappingAction) and `PUT|POST /{index}/_mapping`
 * (RestPutMappingAction): the stored mapping of each index, and a mapping merged into the resolved indices
 * through the master with ES's parse and merge errors. A mapping under a type is refused as ES 8 refuses it
 * (typed-mappings.ts).
 */
import { errors } from '../../common/errors.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN } from '../../cluster/indices-options.js';
import { checkMetadataBlocks } from '../../cluster/metadata/index-updates.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { warningHeaders } from '../deprecation-warnings.js';
import { ackOptions } from '../acked-request.js';
import { resolveIndices, STRICT_EXPAND_OPEN_CLOSED_NO_EMPTY } from './resolve-indices.js';
import { INCLUDE_TYPE_NAME, typelessPutMapping } from './typed-mappings.js';

const getMapping: Route['handler'] = async (request, context) => {
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN).sort();
  const body: Record<string, unknown> = {};
  for (const name of names) body[name] = { mappings: state.indices.get(name)!.mappings };
  return json(body);
};

const putMapping: Route['handler'] = async (request, context) => {
  if (!request.hasBody) throw errors.bodyRequired();
  const warnings: string[] = [];
  const mapping = typelessPutMapping(request.json(), request, warnings);
  const state = context.services.clusterService.state();
  // PutMappingRequest: open and closed indices, a pattern that matches nothing is a 404.
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_CLOSED_NO_EMPTY);
  for (const name of names) checkMetadataBlocks(state.indices.get(name)!);
  const acknowledged = names.length === 0 || (await indicesOf(context.services).metadata.putMapping(names, mapping, ackOptions(request, context))).acknowledged;
  return json({ acknowledged }, 200, warningHeaders(context.services, warnings));
};

const GET_PARAMS = ['master_timeout', 'local', ...INDICES_OPTIONS_PARAMS];
const PUT_PARAMS = ['timeout', 'master_timeout', 'write_index_only', ...INDICES_OPTIONS_PARAMS];

/** ES registers every mapping route under `_mapping` and its plural `_mappings` (monitoring tools call `/_all/_mappings`). */
export const mappingRoutes: Route[] = ['_mapping', '_mappings'].flatMap((endpoint): Route[] => [
  { method: 'GET', path: `/${endpoint}`, action: 'indices:admin/mappings/get', params: GET_PARAMS, handler: getMapping },
  { method: 'GET', path: `/{index}/${endpoint}`, action: 'indices:admin/mappings/get', params: GET_PARAMS, handler: getMapping },
  {
    method: ['PUT', 'POST'],
    path: `/{index}/${endpoint}`,
    action: 'indices:admin/mapping/put',
    params: PUT_PARAMS,
    v7Params: [INCLUDE_TYPE_NAME],
    body: 'required',
    handler: putMapping,
  },
]);
