/** Small pieces the template handlers share: the master-side service, names from the path, warnings as headers. */
import { EsError, templateErrors } from '../../common/errors.js';
import { simpleMatch } from '../../common/wildcards.js';
import type { NodeServices } from '../context.js';
import { indicesOf } from '../indices-services.js';
import { json, type JsonResponse, type RestRequest } from '../rest.js';
import { warningHeaders } from '../deprecation-warnings.js';

export function templatesService(services: NodeServices) {
  return indicesOf(services).metadata;
}

export function acknowledged(services: NodeServices, outcome: { acknowledged: boolean }, warnings: readonly string[] = []): JsonResponse {
  return json({ acknowledged: outcome.acknowledged }, 200, warningHeaders(services, warnings));
}

export function requiredBody(request: RestRequest): unknown {
  if (!request.hasBody) throw new EsError('parse_exception', 'request body is required');
  return request.json();
}

/** The GET rule of the composable and component template actions: one name (a wildcard or exact), no comma. */
export function selectByName<T>(entries: Readonly<Record<string, T>>, name: string | undefined, notFound: (name: string) => EsError): Array<[string, T]> {
  if (name === undefined) return Object.entries(entries);
  if (name.includes(',')) throw templateErrors.nameWithComma();
  if (name.includes('*')) return Object.entries(entries).filter(([candidate]) => simpleMatch(name, candidate));
  const found = Object.prototype.hasOwnProperty.call(entries, name) ? entries[name] : undefined;
  if (found === undefined) throw notFound(name);
  return [[name, found]];
}
