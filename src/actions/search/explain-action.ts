/**
 * `GET|POST /{index}/_explain/{id}` (RestExplainAction, TransportExplainAction): why one document matches a
 * query or not, computed on the shard the id routes to, over its refreshed searcher (not real-time, as in
 * ES). The query comes from the body (`{"query": ...}` only) or from `q`. Answers `{_index, _id, matched,
 * explanation}` (plus `get` with the source when `_source`/`stored_fields` ask for it), or `matched: false`
 * with 404 when the document is not there. Through a filtering alias the explained query is the alias-filtered one
 * (a document the filter excludes does not match). Errors building the query are the shard's own (a
 * query_shard_exception), not a search phase failure: explain is a single-shard action.
 */
import { EsError, errors, indexErrors } from '../../common/errors.js';
import { resolveSearchTargets } from '../../cluster/index.js';
import { STRICT_EXPAND_OPEN_FORBID_CLOSED } from '../../cluster/indices-options.js';
import { checkReadBlocks } from '../../cluster/metadata/index-updates.js';
import { NO_MORE_DOCS, POSTINGS_DOCS } from '../../engine/codec/index.js';
import { ID_FIELD, PRIMARY_TERM_FIELD, SEQ_NO_FIELD, SOURCE_FIELD } from '../../engine/searcher.js';
import { shardIdFor } from '../../indices/index.js';
import { urlQuery } from '../../search/dsl/index.js';
import { buildShardQuery, PhaseControl, shardSearcher } from '../../search/phase/index.js';
import { resolveSingleIndex } from '../documents/document-reader.js';
import { fetchSourceFromRequest, SOURCE_PARAMS, sourceForResponse } from '../documents/fetch-source.js';
import { indicesOf } from '../indices-services.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { aliasFiltersOf, filteredQuery } from './alias-filter.js';
import { parseQueryOnlyBody } from './count-action.js';
import { explanationXContent } from './search-response.js';
import { targetFor } from './search-shards.js';

export const EXPLAIN_ACTION = 'indices:data/read/explain';

const EXPLAIN_PARAMS = ['q', 'df', 'analyzer', 'analyze_wildcard', 'lenient', 'default_operator', 'routing', 'preference', 'stored_fields', ...SOURCE_PARAMS];

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
  const service = localService?.uuid === metadata.uuid ? localService : undefined;
  const routing = request.param('routing');
  if (service?.mapping.routingRequired === true && routing === undefined) throw indexErrors.routingMissing(index, id);
  const shardNumber = service === undefined ? 0 : shardIdFor(service.settings, id, routing);
  const copies = state.routing.get(index)?.[shardNumber] ?? [];
  const active = copies.some((copy) => (copy.state === 'STARTED' || copy.state === 'RELOCATING') && copy.nodeId === services.localNode.id);
  const shard = service?.shards.get(shardNumber);
  if (service === undefined || !active || shard === undefined) {
    throw new EsError('no_shard_available_action_exception', `No shard available for [[${index}][${shardNumber}]]`, {
      metadata: { index_uuid: metadata.uuid, shard: String(shardNumber), index },
    });
  }
  return context.services.taskManager.run(
    {
      type: 'transport',
      action: `${EXPLAIN_ACTION}[s]`,
      description: `shardId[[${index}][${shardNumber}]]`,
      parentTaskId: context.task.taskId,
      cancellable: false,
      headers: context.task.headers,
    },
    async () => {
      const searcher = shard.acquireSearcher();
      try {
        const target = targetFor({ index, indexUuid: metadata.uuid, shard: shardNumber, shardIndex: 0 }, service, searcher, services);
        new PhaseControl(() => context.task.ensureNotCancelled()).check();
        const indexSearcher = shardSearcher(target);
        const built = indexSearcher.rewrite(buildShardQuery(target, filteredQuery(query, aliasFilter), Date.now()));
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
        if (found === undefined) return json({ _index: index, _id: id, matched: false }, 404);
        const explanation = indexSearcher.explain(built, found.leaf.docBase + found.doc);
        const body: Record<string, unknown> = { _index: index, _id: id, matched: explanation.isMatch, explanation: explanationXContent(explanation) };
        if (wantsGet) {
          const stored = found.leaf.readers.stored.document(found.doc, new Set([SOURCE_FIELD]));
          const sourceBytes = stored.find((field) => field.name === SOURCE_FIELD)?.value;
          const values = found.leaf.readers.docValues;
          const seqNo = values.numeric(SEQ_NO_FIELD)?.get(found.doc);
          const get: Record<string, unknown> = {};
          if (seqNo !== undefined && seqNo >= 0) {
            get['_seq_no'] = seqNo;
            get['_primary_term'] = values.numeric(PRIMARY_TERM_FIELD)?.get(found.doc);
          }
          get['found'] = true;
          const source = sourceBytes instanceof Uint8Array && fetchSource !== undefined ? sourceForResponse(sourceBytes, fetchSource) : undefined;
          if (source !== undefined) get['_source'] = source;
          body['get'] = get;
        }
        return json(body);
      } finally {
        searcher.release();
      }
    },
  );
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
