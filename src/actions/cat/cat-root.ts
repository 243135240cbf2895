/**
 * `GET /_cat`: ES's RestCatAction prints `=^.^=` and then each registered cat endpoint's documentation
 * lines, in registration order. It lists only endpoints Gannet actually serves.
 */
import type { Route } from '../rest.js';
import { catText } from './cat-response.js';
import type { CatEndpoint } from './cat-endpoint.js';

export function catRootRoute(endpoints: ReadonlyArray<CatEndpoint<string>>): Route {
  const body = ['=^.^=', ...endpoints.flatMap((endpoint) => endpoint.documentation)].map((line) => line + '\n').join('');
  return {
    method: 'GET',
    path: '/_cat',
    // ES serves this from the REST layer without a transport action; the task still needs a name.
    action: 'cluster:monitor/cat',
    handler: async () => catText(body),
  };
}
