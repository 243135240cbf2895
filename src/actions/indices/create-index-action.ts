/**
 * `PUT /{index}` (RestCreateIndexAction): the body may hold `settings`, `mappings` and `aliases` (anything else
 * is ES's "unknown key"; a mapping under `_doc` is ES 8's 400, see typed-mappings.ts); the answer waits for `wait_for_active_shards` copies up to `timeout`, reporting
 * `shards_acknowledged: false` when they did not start in time.
 */
import { EsError } from '../../common/errors.js';
import { json, type Route } from '../rest.js';
import { indicesOf } from '../indices-services.js';
import { warningHeaders } from '../deprecation-warnings.js';
import { CREATE_INDEX_TYPES_DEPRECATION, INCLUDE_TYPE_NAME, typelessCreateMappings } from './typed-mappings.js';

const CREATE_KEYS = new Set(['settings', 'mappings', 'aliases']);

export const createIndexRoutes: Route[] = [
  {
    method: 'PUT',
    path: '/{index}',
    action: 'indices:admin/create',
    params: ['wait_for_active_shards', 'timeout', 'master_timeout'],
    v7Params: [INCLUDE_TYPE_NAME],
    body: 'optional',
    describe: (request) => `create-index [${request.pathParams['index']}]`,
    handler: async (request, context) => {
      const body = request.hasBody ? request.json() : {};
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw new EsError('parse_exception', 'Failed to parse content to map');
      }
      const source = body as Record<string, unknown>;
      for (const key of Object.keys(source)) {
        if (!CREATE_KEYS.has(key)) throw new EsError('parse_exception', `unknown key [${key}] for create index`);
      }
      const warnings: string[] = [];
      const mappings = typelessCreateMappings(source['mappings'], request, CREATE_INDEX_TYPES_DEPRECATION, warnings);
      const result = await indicesOf(context.services).metadata.createIndex(
        { index: request.pathParams['index']!, settings: source['settings'], mappings, aliases: source['aliases'] },
        {
          waitForActiveShards: request.param('wait_for_active_shards'),
          timeoutMillis: request.paramTimeMillis('timeout', 30_000),
          masterTimeoutMillis: request.paramTimeMillis('master_timeout', 30_000),
          signal: context.task.signal,
        },
      );
      return json({ acknowledged: result.acknowledged, shards_acknowledged: result.shardsAcknowledged, index: result.index }, 200, warningHeaders(context.services, warnings));
    },
  },
];
