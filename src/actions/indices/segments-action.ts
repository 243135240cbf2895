/**
 * `GET [/{index}]/_segments` (RestIndicesSegmentsAction, IndicesSegmentResponse): the Lucene-level segments of every
 * shard copy, as `indices.<name>.shards.<n>: [copy, ...]` with each copy's routing, its committed and searchable
 * segment counts and one entry per segment. A broadcast: `_shards.total` counts every copy (unassigned ones too),
 * `successful` the started copies that answered. ES 8 prints no `memory_in_bytes` (it returns with compatible-with=7)
 * and no `attributes` here (Gannet's segments are not Lucene's, so there is no stored-fields mode to report).
 */
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import type { SegmentStats } from '../../engine/engine.js';
import { formatByteSize } from '../../common/byte-size.js';
import { json, type Route } from '../rest.js';
import { collectSegments } from './segments-broadcast.js';
import { shardsBody } from './broadcast-actions.js';
import { resolveIndices } from './resolve-indices.js';

function segmentXContent(segment: SegmentStats, human: boolean, v7: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { generation: segment.generation, num_docs: segment.numDocs, deleted_docs: segment.deletedDocs };
  if (human) out['size'] = formatByteSize(segment.sizeInBytes);
  out['size_in_bytes'] = segment.sizeInBytes;
  if (v7) {
    if (human) out['memory'] = '0b';
    out['memory_in_bytes'] = 0;
  }
  out['committed'] = segment.committed;
  out['search'] = segment.searchable;
  out['version'] = segment.version;
  out['compound'] = segment.compound;
  return out;
}

const segmentsHandler: Route['handler'] = async (request, context) => {
  const state = context.services.clusterService.state();
  const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const v7 = request.compatibleWith === 7;
  // Each copy's segments come from the node that holds it (segments-broadcast.ts: indices:monitor/segments[n]).
  const outcome = await collectSegments(context, state, names);
  const indices: Record<string, { shards: Record<string, unknown[]> }> = {};
  for (const { copy, nodeId, result } of outcome.results) {
    const routed = (state.routing.get(copy.index)?.[copy.shard] ?? []).find((candidate) => candidate.nodeId === nodeId);
    const routing: Record<string, unknown> = { state: routed?.state ?? 'STARTED', primary: copy.primary, node: nodeId };
    if (routed?.relocatingNodeId !== undefined) routing['relocating_node'] = routed.relocatingNodeId;
    const shards = (indices[copy.index] ??= { shards: {} }).shards;
    (shards[String(copy.shard)] ??= []).push({
      routing,
      num_committed_segments: result.segments.filter((segment) => segment.committed).length,
      num_search_segments: result.segments.filter((segment) => segment.searchable).length,
      segments: Object.fromEntries(result.segments.map((segment) => [segment.name, segmentXContent(segment, request.human, v7)])),
    });
  }
  return json({ ...shardsBody(outcome), indices });
};

export const segmentsRoutes: Route[] = [
  { method: 'GET', path: '/_segments', action: 'indices:monitor/segments', params: INDICES_OPTIONS_PARAMS, v7Params: ['verbose'], handler: segmentsHandler },
  { method: 'GET', path: '/{index}/_segments', action: 'indices:monitor/segments', params: INDICES_OPTIONS_PARAMS, v7Params: ['verbose'], handler: segmentsHandler },
];
