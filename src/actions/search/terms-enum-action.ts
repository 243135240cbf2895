/**
 * `GET|POST /{index}/_terms_enum` (RestTermsEnumAction -> TransportTermsEnumAction): the terms of a keyword field
 * that start with `string`, for auto-completion (Kibana asks it for its filter suggestions). The body is read as
 * ES's ObjectParser "terms_enum_request" reads it: `field` (required), `string`, `size` (10), `timeout` (1s, at most
 * a minute), `case_insensitive`, `index_filter` (a query: shards where it rewrites to match_none are left out) and
 * `search_after` (terms after it, for paging).
 *
 * One started copy of every shard is asked, grouped by node: each node gets one `[s]` request for all its shards
 * (terms-enum-node.ts; this node's through the transport's local shortcut) and answers its merged terms; the
 * coordinating node merges the nodes' lists (String order, no duplicates, at most `size`). As in ES, a node that
 * answered an error fails all the shards it was asked for, a node that could not be reached and a shard with no
 * started copy are left out of `_shards`, and an answer that came after `timeout` (or a node's own timeout) makes
 * `complete` false: `{"_shards":{total,successful,failed[,failures]},"terms":[...],"complete":bool}`.
 */
import { resolveSearchTargets, type DiscoveryNode } from '../../cluster/index.js';
import { STRICT_EXPAND_OPEN_FORBID_CLOSED, indicesOptionsFromParams } from '../../cluster/indices-options.js';
import { errors } from '../../common/errors.js';
import { parseTimeValueMillis } from '../../common/time-value.js';
import { ObjectParser } from '../../search/dsl/xcontent/object-parser.js';
import { parseTopLevelQuery, XContentParser, type QueryAst } from '../../search/dsl/index.js';
import { json, type ActionContext, type RestRequest, type RestResponse, type Route } from '../rest.js';
import { sendToNode } from '../remote-node.js';
import { statusName } from '../indices/broadcast-actions.js';
import { indexExpressions } from './search-input.js';
import { resolveSearchShards } from './search-shards.js';
import { encodeTagged } from './wire-values.js';
import { TERMS_ENUM_ACTION, TERMS_ENUM_NODE_ACTION, type NodeTermsEnumRequest, type NodeTermsEnumResponse, type TermsEnumShard } from './terms-enum-node.js';

/** IndexWriter.MAX_TERM_LENGTH: the longest keyword term, in UTF-8 bytes. */
const MAX_TERM_LENGTH = 32_766;
const MAX_TIMEOUT_MILLIS = 60_000;

interface TermsEnumBody {
  field?: string;
  string?: string;
  searchAfter?: string;
  size: number;
  caseInsensitive: boolean;
  timeoutMillis: number;
  indexFilter?: QueryAst;
}

const BODY_PARSER = new ObjectParser<TermsEnumBody>('terms_enum_request')
  .declare('field', 'STRING', (parser, body) => (body.field = parser.text()))
  .declare('string', 'STRING', (parser, body) => (body.string = parser.text()))
  .declare('search_after', 'STRING', (parser, body) => (body.searchAfter = parser.text()))
  .declare('size', 'INT', (parser, body) => (body.size = parser.intValue()))
  .declare('case_insensitive', 'BOOLEAN', (parser, body) => (body.caseInsensitive = parser.booleanValue()))
  .declare('timeout', 'STRING', (parser, body) => (body.timeoutMillis = parseTimeValueMillis(parser.text(), 'timeout')))
  .declare('index_filter', 'OBJECT', (parser, body) => (body.indexFilter = parseTopLevelQuery(parser)));

function readBody(request: RestRequest): TermsEnumBody {
  const body: TermsEnumBody = { size: 10, caseInsensitive: false, timeoutMillis: 1000 };
  if (request.hasBody && request.body().length > 0) BODY_PARSER.parse(new XContentParser(request.body()), body);
  // TermsEnumRequest.validate
  const problems: string[] = [];
  if (body.string !== undefined && Buffer.byteLength(body.string, 'utf8') > MAX_TERM_LENGTH) {
    problems.push(`prefix string larger than ${MAX_TERM_LENGTH} characters, which is the maximum allowed term length for keyword fields.`);
  }
  if (body.field === undefined) problems.push('field cannot be null');
  if (body.timeoutMillis > MAX_TIMEOUT_MILLIS) problems.push('Timeout cannot be > 1 minute');
  if (problems.length > 0) throw errors.requestValidation(problems);
  return body;
}

/** The nodes to ask and each one's shards: the first started copy of every shard (ES's getNodeBundles). */
function nodeBundles(context: ActionContext, expressions: readonly string[]): Map<string, { node: DiscoveryNode; shards: TermsEnumShard[] }> {
  const services = context.services;
  const state = services.clusterService.state();
  const options = indicesOptionsFromParams(() => undefined, STRICT_EXPAND_OPEN_FORBID_CLOSED);
  const targets = resolveSearchTargets(state, options, [...expressions], undefined);
  const bundles = new Map<string, { node: DiscoveryNode; shards: TermsEnumShard[] }>();
  for (const ref of resolveSearchShards(services, state, targets.indices, undefined)) {
    // A shard with no started copy is not asked and not counted (ES leaves it out of the bundles).
    if (ref.copy === undefined) continue;
    const bundle = bundles.get(ref.copy.nodeId) ?? { node: ref.copy.node, shards: [] };
    bundle.shards.push({ index: ref.index, indexUuid: ref.indexUuid, shard: ref.shard });
    bundles.set(ref.copy.nodeId, bundle);
  }
  return bundles;
}

/** The nodes' sorted lists as one: String order, each term once, at most `size` (TransportTermsEnumAction.mergeResponses). */
export function mergeTermLists(lists: readonly (readonly string[])[], size: number): string[] {
  if (lists.length === 1) return [...lists[0]!];
  const all = new Set<string>();
  for (const list of lists) for (const term of list) all.add(term);
  return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, size);
}

async function handleTermsEnum(request: RestRequest, context: ActionContext): Promise<RestResponse> {
  const body = readBody(request);
  const bundles = [...nodeBundles(context, indexExpressions(request.pathParams['index'])).values()];
  const nowMillis = Date.now();
  const answers: ({ shards: TermsEnumShard[]; answer: NodeTermsEnumResponse } | undefined)[] = bundles.map(() => undefined);
  const pending = bundles.map(async (bundle, i) => {
    const nodeRequest: NodeTermsEnumRequest = {
      shards: bundle.shards,
      field: body.field!,
      string: body.string ?? '',
      caseInsensitive: body.caseInsensitive,
      searchAfter: body.searchAfter,
      size: body.size,
      timeoutMillis: body.timeoutMillis,
      indexFilter: body.indexFilter,
      nowMillis,
    };
    try {
      const answer = (await sendToNode(context.services, bundle.node, TERMS_ENUM_NODE_ACTION, nodeRequest, context.task, undefined, { encodeRequest: encodeTagged })) as NodeTermsEnumResponse;
      answers[i] = { shards: bundle.shards, answer };
    } catch {
      // A node that could not be reached is left out, as ES's onNodeFailure leaves it.
    }
  });
  // The request's timeout holds the whole answer: what came in by then is answered, marked incomplete.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), body.timeoutMillis);
  });
  const late = await Promise.race([Promise.all(pending).then(() => false), timedOut]);
  clearTimeout(timer);
  let complete = !late;
  let successful = 0;
  const failures: Record<string, unknown>[] = [];
  const lists: string[][] = [];
  for (const entry of answers) {
    if (entry === undefined) continue;
    const { shards, answer } = entry;
    if (!answer.complete) complete = false;
    if (answer.error !== undefined) {
      complete = false;
      for (const shard of shards) failures.push({ shard: shard.shard, index: shard.index, status: statusName(answer.error.status), reason: { type: answer.error.type, reason: answer.error.reason } });
    } else {
      successful += shards.length;
    }
    lists.push(answer.terms);
  }
  const shardsHeader = { total: successful + failures.length, successful, failed: failures.length, ...(failures.length > 0 && { failures }) };
  return json({ _shards: shardsHeader, terms: mergeTermLists(lists, body.size), complete });
}

export const termsEnumRoutes: Route[] = [
  {
    method: ['GET', 'POST'],
    path: '/{index}/_terms_enum',
    action: TERMS_ENUM_ACTION,
    cancellable: true,
    body: 'optional',
    handler: handleTermsEnum,
  },
];
