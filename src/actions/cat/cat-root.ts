/**
 * `GET /_cat`: ES's RestCatAction prints `=^.^=` and then each registered cat endpoint's documentation
 * lines, in registration order. It lists only endpoints Gannet actually serves.
 */
import type { Route } from '../rest.js';
import { catText } from './cat-response.js';

/** `documentation`: each endpoint's lines, in ES's registration order. */
export function catRootRoute(documentation: readonly string[]): Route {
  const body = ['=^.^=', ...documentation].map((line) => line + '\n').join('');
  return {
    method: 'GET',
    path: '/_cat',
    // ES serves this from the REST layer without a transport action; the task still needs a name.
    action: 'cluster:monitor/cat',
    handler: async () => catText(body),
  };
}
