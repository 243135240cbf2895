/**
 * `GET|POST /{index}/_explain/{id}` (RestExplainAction, TransportExplainAction): why one document matches a
 * query or not, computed on the shard the id routes to, over its refreshed searcher (not real-time, as in
 * ES). The query comes from the body (`{"query": ...}` only) or from `q`. Answers `{_index, _id, matched,
 * explanation}` (plus `get` with the source when `_source`/`stored_fields` ask for it), or `matched: false`
 * with 404 when the document is not there. Through a filtering alias the explained query is the alias-filtered one
 * (a document the filter excludes does not match). Errors building the query are the shard's own (a
 * query_shard_exception), not a search phase failure: explain is a single-shard action, run on the node holding
 * the copy (`indices:data/read/explain[s]`, as a child task; the local node takes the transport's shortcut).
 */
import { EsError, errors, indexErrors } from '../../common/errors.js';
import { resolveSearchTargets } from '../../cluster/index.js';
import { STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { checkReadBlocks } from '../../cluster/metadata/index-updates.js';
import { NO_MORE_DOCS, POSTINGS_DOCS } from '../../engine/codec/index.js';
import { ID_FIELD, PRIMARY_TERM_FIELD, SEQ_NO_FIELD, SOURCE_FIELD } from '../../engine/searcher.js';
import { readIndexSettings, shardIdFor } from '../../indices/index.js';
import { urlQuery, type QueryAst } from '../../search/dsl/index.js';
import { storedMapping } from '../../cluster/metadata/index-updates.js';
import type { Explanation } from '../../search/explanation.js';
import { decodeTagged, encodeTagged } from './wire-values.js';
import type { Task } from '../../tasks/index.js';
import type { NodeServices } from '../context.js';
import { sendToNode } from '../remote-node.js';
import { buildShardQuery, PhaseControl, shardSearcher } from '../../search/phase/index.js';
import { resolveSingleIndex } from '../documents/document-reader.js';
import { fetchSourceFromRequest, SOURCE_PARAMS, sourceForResponse, type FetchSource } from '../documents/fetch-source.js';
import { indicesOf } from '../indices-services.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { aliasFiltersOf, filteredQuery } from './alias-filter.js';
import { parseQueryOnlyBody } from './count-action.js';
import { explanationXContent } from './search-response.js';
import { targetFor } from './search-shards.js';

export const EXPLAIN_ACTION = 'indices:data/read/explain';
export const EXPLAIN_SHARD_ACTION = `${EXPLAIN_ACTION}[s]`;

const EXPLAIN_PARAMS = ['q', 'df', 'analyzer', 'analyze_wildcard', 'lenient', 'default_operator', 'routing', 'preference', 'stored_fields', ...SOURCE_PARAMS];

/** What the node holding the copy needs to explain the document (serializable). */
export interface ExplainShardRequest {
  readonly index: string;
  readonly indexUuid: string;
  readonly shard: number;
  readonly id: string;
  readonly query: QueryAst;
  readonly aliasFilter: QueryAst | undefined;
  readonly wantsGet: boolean;
  readonly fetchSource: FetchSource | undefined;
  readonly nowMillis: number;
}

/** The shard's answer: no document, or its explanation (and `get` figures when asked). */
interface ExplainShardResponse {
  readonly found: boolean;
  readonly explanation?: Explanation;
  readonly get?: Record<string, unknown>;
}

async function handleExplain(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const param = (name: string): string | undefined => request.param(name);
  const id = request.pathParams['id']!;
  const query = request.hasBody && request.body().length > 0 ? parseQueryOnlyBody(request.body()) : urlQuery({ param });
  if (query === undefined) throw errors.requestValidation(['query is missing']);
  const fetchSource = fetchSourceFromRequest(request);
  const wantsGet = request.param('stored_fields') !== undefined || fetchSource?.fetch === true;
  const services = context.services;
  const state = services.clusterService.state();
  const index = resolveSingleIndex(state, request.pathParams['index']!);
  const metadata = state.indices.get(index)!;
  checkReadBlocks(metadata);
  // TransportExplainAction.resolveRequest: the filter of the alias the request named (buildAliasFilter).
  const aliasFilter = aliasFiltersOf(resolveSearchTargets(state, STRICT_EXPAND_OPEN_FORBID_CLOSED, [request.pathParams['index']!], undefined)).get(index);
  const localService = indicesOf(services).service.indexService(index);
  const settings = localService?.uuid === metadata.uuid ? localService.settings : readIndexSettings(metadata.settings);
  const mapping = localService?.uuid === metadata.uuid ? localService.mapping : storedMapping(metadata);
  const routing = request.param('routing');
  if (mapping.routingRequired === true && routing === undefined) throw indexErrors.routingMissing(index, id);
  const shardNumber = shardIdFor(settings, id, routing);
  // The copy that answers: the primary, as for gets (issue 13 lets any started copy answer).
  const copy = (state.routing.get(index)?.[shardNumber] ?? []).find((candidate) => candidate.primary && (candidate.state === 'STARTED' || candidate.state === 'RELOCATING'));
  const node = copy?.nodeId === undefined ? undefined : state.nodes.get(copy.nodeId);
  if (node === undefined) throw noShardAvailable(index, metadata.uuid, shardNumber);
  const shardRequest: ExplainShardRequest = { index, indexUuid: metadata.uuid, shard: shardNumber, id, query, aliasFilter, wantsGet, fetchSource, nowMillis: Date.now() };
  const answer = decodeTagged(await sendToNode(services, node, EXPLAIN_SHARD_ACTION, shardRequest, context.task)) as ExplainShardResponse;
  if (!answer.found) return json({ _index: index, _id: id, matched: false }, 404);
  const explanation = answer.explanation!;
  const body: Record<string, unknown> = { _index: index, _id: id, matched: explanation.isMatch, explanation: explanationXContent(explanation) };
  if (answer.get !== undefined) body['get'] = answer.get;
  return json(body);
}

function noShardAvailable(index: string, uuid: string, shard: number): EsError {
  return new EsError('no_shard_available_action_exception', `No shard available for [[${index}][${shard}]]`, { metadata: { index_uuid: uuid, shard: String(shard), index } });
}

/** Runs on the node holding the copy (`indices:data/read/explain[s]`), over its refreshed searcher. */
export async function explainOnShard(services: NodeServices, request: ExplainShardRequest, task: Task): Promise<unknown> {
  const { index, id, shard: shardNumber } = request;
  const service = indicesOf(services).service.indexService(index);
  const shard = service?.uuid === request.indexUuid ? service.shards.get(shardNumber) : undefined;
  if (service === undefined || shard === undefined || shard.state === 'closed') throw noShardAvailable(index, request.indexUuid, shardNumber);
  // ES's TransportExplainAction waits until the copy is search active (a refresh first, if one was skipped).
  await shard.ensureSearchActive();
  task.ensureNotCancelled();
  const searcher = shard.acquireSearcher();
  try {
    const target = targetFor({ index, indexUuid: request.indexUuid, shard: shardNumber, shardIndex: 0 }, service, searcher, services);
    new PhaseControl(() => task.ensureNotCancelled()).check();
    const indexSearcher = shardSearcher(target);
    const built = indexSearcher.rewrite(buildShardQuery(target, filteredQuery(request.query, request.aliasFilter), request.nowMillis));
    // The document as the searcher sees it: the last live doc carrying the id.
    const idBytes = Buffer.from(id, 'utf8');
    let found: { leaf: (typeof indexSearcher.leaves)[number]; doc: number } | undefined;
    for (const leaf of indexSearcher.leaves) {
      const terms = leaf.readers.terms.terms(ID_FIELD);
      const termState = terms?.seekExact(idBytes);
      if (terms === undefined || termState === undefined || termState === null) continue;
      const postings = terms.postings(termState, POSTINGS_DOCS);
      for (let doc = postings.nextDoc(); doc !== NO_MORE_DOCS; doc = postings.nextDoc()) {
        if (leaf.liveDocs === null || leaf.liveDocs.isLive(doc)) found = { leaf, doc };
      }
    }
    if (found === undefined) return { found: false } satisfies ExplainShardResponse;
    const explanation = indexSearcher.explain(built, found.leaf.docBase + found.doc);
    let get: Record<string, unknown> | undefined;
    if (request.wantsGet) {
      const stored = found.leaf.readers.stored.document(found.doc, new Set([SOURCE_FIELD]));
      const sourceBytes = stored.find((field) => field.name === SOURCE_FIELD)?.value;
      const values = found.leaf.readers.docValues;
      const seqNo = values.numeric(SEQ_NO_FIELD)?.get(found.doc);
      get = {};
      if (seqNo !== undefined && seqNo >= 0) {
        get['_seq_no'] = seqNo;
        get['_primary_term'] = values.numeric(PRIMARY_TERM_FIELD)?.get(found.doc);
      }
      get['found'] = true;
      const source = sourceBytes instanceof Uint8Array && request.fetchSource !== undefined ? sourceForResponse(sourceBytes, request.fetchSource) : undefined;
      if (source !== undefined) get['_source'] = source;
    }
    return encodeTagged({ found: true, explanation, ...(get !== undefined && { get }) } satisfies ExplainShardResponse);
  } finally {
    searcher.release();
  }
}

export const explainRoutes: Route[] = [
  {
    method: ['GET', 'POST'],
    path: '/{index}/_explain/{id}',
    action: EXPLAIN_ACTION,
    body: 'optional',
    params: EXPLAIN_PARAMS,
    handler: handleExplain,
  },
];
