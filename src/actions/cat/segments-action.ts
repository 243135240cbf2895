/**
 * `GET /_cat/segments[/{index}]` (RestSegmentsAction): one row per segment of each started shard copy, from the
 * engine's segment statistics on the node that holds it (segments-broadcast.ts). Indices resolve as
 * IndicesSegmentsRequest's: open ones, and a closed index named explicitly is ES's 400 `index_closed_exception`.
 */
import { cell, defineColumns, type CatRow } from '../../cat/index.js';
import { INDICES_OPTIONS_PARAMS, STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { resolveIndices } from '../indices/resolve-indices.js';
import { collectSegments } from '../indices/segments-broadcast.js';
import type { CatEndpoint } from './cat-endpoint.js';
import { readClusterState } from './master-state.js';

export const segmentsColumns = defineColumns([
  { name: 'index', aliases: ['i', 'idx'], description: 'index name' },
  { name: 'shard', aliases: ['s', 'sh'], description: 'shard name' },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], description: 'primary or replica' },
  { name: 'ip', description: 'ip of node where it lives' },
  { name: 'id', shownByDefault: false, description: 'unique id of node where it lives' },
  { name: 'segment', aliases: ['seg'], description: 'segment name' },
  { name: 'generation', aliases: ['g', 'gen'], align: 'right', description: 'segment generation' },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], align: 'right', description: 'number of docs in segment' },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], align: 'right', description: 'number of deleted docs in segment' },
  { name: 'size', aliases: ['si'], align: 'right', description: 'segment size in bytes' },
  { name: 'size.memory', aliases: ['sm', 'sizeMemory'], align: 'right', description: 'segment memory in bytes' },
  { name: 'committed', aliases: ['ic', 'isCommitted'], description: 'is segment committed' },
  { name: 'searchable', aliases: ['is', 'isSearchable'], description: 'is segment searched' },
  { name: 'version', aliases: ['v', 'ver'], description: 'version' },
  { name: 'compound', aliases: ['ico', 'isCompound'], description: 'is segment compound' },
]);

type SegmentColumn = (typeof segmentsColumns)[number]['name'];

export const catSegmentsEndpoint: CatEndpoint<SegmentColumn> = {
  documentation: ['/_cat/segments', '/_cat/segments/{index}'],
  paths: ['/_cat/segments', '/_cat/segments/{index}'],
  action: 'indices:monitor/segments',
  params: ['local', 'master_timeout', ...INDICES_OPTIONS_PARAMS],
  columns: segmentsColumns,
  async rows(request, context) {
    const state = await readClusterState(request, context, { acceptsLocal: true });
    // IndicesSegmentsRequest (a BroadcastRequest): a named closed index is an index_closed_exception.
    const names = resolveIndices(request, state, STRICT_EXPAND_OPEN_FORBID_CLOSED).sort();
    const rows: CatRow<SegmentColumn>[] = [];
    const outcome = await collectSegments(context, state, names);
    const ordered = [...outcome.results].sort((a, b) => (a.copy.index < b.copy.index ? -1 : a.copy.index > b.copy.index ? 1 : a.copy.shard - b.copy.shard || Number(b.copy.primary) - Number(a.copy.primary)));
    for (const { copy, nodeId, result } of ordered) {
      const node = state.nodes.get(nodeId);
      for (const segment of result.segments) {
        rows.push({
          index: cell.string(copy.index),
          shard: cell.long(copy.shard),
          prirep: cell.string(result.primary ? 'p' : 'r'),
          ip: node === undefined ? null : cell.string(node.ip),
          id: cell.string(nodeId),
          segment: cell.string(segment.name),
          generation: cell.long(segment.generation),
          'docs.count': cell.long(segment.numDocs),
          'docs.deleted': cell.long(segment.deletedDocs),
          size: cell.bytes(segment.sizeInBytes),
          'size.memory': cell.bytes(0),
          committed: cell.string(String(segment.committed)),
          searchable: cell.string(String(segment.searchable)),
          version: cell.string(segment.version),
          compound: cell.string(String(segment.compound)),
        });
      }
    }
    return rows;
  },
};
