/** `GET /` and `HEAD /`: who this node is, in the exact shape the official clients and tools check. */
import { json, empty, type Route } from './rest.js';

export const mainRoutes: Route[] = [
  {
    method: ['GET', 'HEAD'],
    path: '/',
    action: 'cluster:monitor/main',
    handler: async (request, { services }) => {
      if (request.method === 'HEAD') return empty(200);
      const state = services.clusterService.state();
      const v = services.version;
      return json({
        name: services.localNode.name,
        cluster_name: state.clusterName,
        cluster_uuid: state.clusterUuid,
        version: {
          number: v.number,
          build_flavor: v.buildFlavor,
          build_type: v.buildType,
          build_hash: v.buildHash,
          build_date: v.buildDate,
          build_snapshot: v.buildSnapshot,
          lucene_version: v.luceneVersion,
          minimum_wire_compatibility_version: v.minimumWireCompatibilityVersion,
          minimum_index_compatibility_version: v.minimumIndexCompatibilityVersion,
        },
        tagline: 'You Know, for Search',
      });
    },
  },
];
