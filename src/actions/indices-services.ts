/** The index and document services a handler needs, or ES's 500 when this node was built without them. */
import { EsError } from '../common/errors.js';
import type { IndicesServices, NodeServices } from './context.js';

export function indicesOf(services: NodeServices): IndicesServices {
  if (services.indices === undefined) throw new EsError('illegal_state_exception', 'this node does not serve index and document APIs');
  return services.indices;
}
