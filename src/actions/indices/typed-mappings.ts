/**
 * Mapping types in request bodies, as ES 8's REST layer treats them (RestCreateIndexAction.prepareMappings and
 * prepareMappingsV7, RestPutMappingAction, RestPutIndexTemplateAction). An ES 8 request may not nest its mapping
 * under `_doc`: create index and legacy templates answer "The mapping definition cannot be nested under a type
 * [_doc] ...", put mapping "Types cannot be provided in put mapping requests". Only a `compatible-with=7` request
 * may send `include_type_name=true`, and then its one top-level key, whatever its name, is the type and is dropped.
 * Composable and component templates are not checked here: ES accepts their mappings with or without `_doc`.
 */
import { indexErrors } from '../../common/errors.js';
import type { RestRequest } from '../rest.js';

export const INCLUDE_TYPE_NAME = 'include_type_name';

/** RestCreateIndexAction.TYPES_DEPRECATION_MESSAGE. */
export const CREATE_INDEX_TYPES_DEPRECATION =
  '[types removal] Using include_type_name in create index requests is deprecated. The parameter will be removed in the next major version.';
/** RestPutMappingAction.TYPES_DEPRECATION_MESSAGE. */
export const PUT_MAPPING_TYPES_DEPRECATION = '[types removal] Specifying types in put mapping request is deprecated. Use typeless api instead';
/** RestPutIndexTemplateAction.TYPES_DEPRECATION_MESSAGE. */
export const PUT_TEMPLATE_TYPES_DEPRECATION =
  '[types removal] Specifying include_type_name in put index template requests is deprecated. The parameter will be removed in the next major version.';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** MapperService.isMappingSourceTyped(_doc, mapping): the mapping's only key is `_doc`. */
export function isMappingSourceTyped(mapping: unknown): boolean {
  return isObject(mapping) && Object.keys(mapping).length === 1 && Object.keys(mapping)[0] === '_doc';
}

function includeTypeName(request: RestRequest): boolean {
  return request.compatibleWith === 7 && request.paramBool(INCLUDE_TYPE_NAME, false);
}

/** The one top-level key of a typed mapping dropped (prepareMappingsV7 / prepareV7Mappings). */
function withoutType(mappings: Record<string, unknown>): unknown {
  const [typeName] = Object.keys(mappings);
  if (typeName!.trim().length === 0) throw indexErrors.emptyTypeName();
  return mappings[typeName!];
}

/**
 * The typeless `mappings` of a create index or legacy template body. `deprecation` is the message a
 * `compatible-with=7` request that names include_type_name gets; it is pushed to `warnings`.
 */
export function typelessCreateMappings(mappings: unknown, request: RestRequest, deprecation: string, warnings: string[]): unknown {
  if (request.compatibleWith === 7 && request.hasParam(INCLUDE_TYPE_NAME)) warnings.push(deprecation);
  if (includeTypeName(request) && isObject(mappings) && Object.keys(mappings).length === 1) return withoutType(mappings);
  if (isMappingSourceTyped(mappings)) throw indexErrors.typedCreateMappings();
  return mappings;
}

/** The typeless source of a put mapping request (RestPutMappingAction for ES 8 and for compatible-with=7). */
export function typelessPutMapping(source: unknown, request: RestRequest, warnings: string[]): unknown {
  if (request.compatibleWith !== 7) {
    if (isMappingSourceTyped(source)) throw indexErrors.typedPutMapping(false);
    return source;
  }
  if (request.hasParam(INCLUDE_TYPE_NAME)) warnings.push(PUT_MAPPING_TYPES_DEPRECATION);
  if (!includeTypeName(request)) {
    if (isMappingSourceTyped(source)) throw indexErrors.typedPutMapping(true);
    return source;
  }
  return isObject(source) && Object.keys(source).length === 1 ? withoutType(source) : source;
}
