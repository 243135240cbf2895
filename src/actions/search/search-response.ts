/**
 * A search response exactly as ES shapes it (SearchResponse.headerToXContent, SearchHits and
 * SearchHit.toInnerXContent): `_scroll_id`/`pit_id`, took, timed_out, terminated_early, `_shards`, then
 * hits {total, max_score, hits} and aggregations. Scores print as Java floats, `_source` as the stored bytes,
 * explanations as Lucene's (float values as floats, counts as longs).
 */
import { JsonFloat } from '../../common/json-float.js';
import { javaHashMapOrder } from '../../mapping/value-preview.js';
import { renderAggregations } from '../../search/aggregations/index.js';
import type { Explanation, TotalHits } from '../../search/index.js';
import { floatToJsonNumber } from '../../search/index.js';
import { formatSortValue, type ResolvedSort } from '../../search/phase/index.js';
import type { PageHit, SearchOutcome } from './search-executor.js';
import { shardsHeader } from './search-errors.js';

export interface ResponseOptions {
  /** `rest_total_hits_as_int`. */
  readonly totalHitsAsInt: boolean;
  /** `typed_keys`. */
  readonly typedKeys: boolean;
  readonly scrollId?: string;
  readonly pitId?: string;
}

/** A Java float as Jackson prints it, or null for NaN (ES's nullField for a missing score). */
export function floatOrNull(value: number): JsonFloat | null {
  return Number.isNaN(value) ? null : new JsonFloat(floatToJsonNumber(value));
}

/** SearchHit.buildExplanation. */
export function explanationXContent(explanation: Explanation): Record<string, unknown> {
  return {
    value: explanation.kind === 'long' ? explanation.value : new JsonFloat(floatToJsonNumber(explanation.value)),
    description: explanation.description,
    details: explanation.details.map(explanationXContent),
  };
}

function totalXContent(total: TotalHits | undefined, asInt: boolean): Record<string, unknown> {
  if (asInt) return { total: total === undefined ? -1 : total.value };
  if (total === undefined) return {};
  return { total: { value: total.value, relation: total.relation } };
}

/** The hit's metadata fields (`_routing`, `_ignored`) in the iteration order of ES's HashMap. */
function metaFields(hit: PageHit['hit']): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  if (hit.routing !== undefined) entries.push(['_routing', hit.routing]);
  if (hit.ignored !== undefined && hit.ignored.length > 0) entries.push(['_ignored', [...hit.ignored]]);
  const out: Record<string, unknown> = {};
  for (const index of javaHashMapOrder(entries.map(([name]) => name))) out[entries[index]![0]] = entries[index]![1];
  return out;
}

export function hitXContent(page: PageHit, sort: ResolvedSort): Record<string, unknown> {
  const { hit } = page;
  const out: Record<string, unknown> = {};
  if (hit.explanation !== undefined) {
    out['_shard'] = `[${page.index}][${page.shard}]`;
    out['_node'] = page.nodeId ?? null;
  }
  out['_index'] = page.index;
  if (hit.id !== undefined) out['_id'] = hit.id;
  if (hit.version !== undefined) out['_version'] = hit.version;
  if (hit.seqNo !== undefined) {
    out['_seq_no'] = hit.seqNo;
    out['_primary_term'] = hit.primaryTerm;
  }
  out['_score'] = floatOrNull(hit.score);
  Object.assign(out, metaFields(hit));
  if (hit.source !== undefined) out['_source'] = hit.source;
  if (hit.fields !== undefined && hit.fields.size > 0) out['fields'] = Object.fromEntries(hit.fields);
  if (hit.ignoredFieldValues !== undefined && hit.ignoredFieldValues.size > 0) out['ignored_field_values'] = Object.fromEntries(hit.ignoredFieldValues);
  if (hit.highlight !== undefined && hit.highlight.size > 0) out['highlight'] = Object.fromEntries(hit.highlight);
  if (!sort.relevance && hit.sortValues !== undefined) out['sort'] = hit.sortValues.map((value, i) => formatSortValue(value, sort.fields[i]!));
  if (hit.explanation !== undefined) out['_explanation'] = explanationXContent(hit.explanation);
  return out;
}

export function searchResponseXContent(outcome: SearchOutcome, tookMillis: number, options: ResponseOptions): Record<string, unknown> {
  const { reduced } = outcome;
  const body: Record<string, unknown> = {};
  if (options.scrollId !== undefined) body['_scroll_id'] = options.scrollId;
  if (options.pitId !== undefined) body['pit_id'] = options.pitId;
  body['took'] = tookMillis;
  body['timed_out'] = reduced.timedOut;
  if (reduced.terminatedEarly !== undefined) body['terminated_early'] = reduced.terminatedEarly;
  // SearchResponse.headerToXContent prints num_reduce_phases only when the search reduced more than once.
  if (reduced.numReducePhases !== 1) body['num_reduce_phases'] = reduced.numReducePhases;
  body['_shards'] = shardsHeader(outcome.totalShards, outcome.successfulShards, outcome.skippedShards, outcome.failures);
  body['hits'] = {
    ...totalXContent(reduced.totalHits, options.totalHitsAsInt),
    max_score: floatOrNull(reduced.maxScore),
    hits: outcome.hits.map((hit) => hitXContent(hit, outcome.sort)),
  };
  if (reduced.aggregations !== undefined) body['aggregations'] = renderAggregations(reduced.aggregations, { typedKeys: options.typedKeys });
  return body;
}

/** What ES answers when the request resolves to no shard at all (InternalSearchResponse.EMPTY_WITH_TOTAL_HITS). */
export function emptySearchResponseXContent(tookMillis: number, options: ResponseOptions): Record<string, unknown> {
  return {
    ...(options.scrollId !== undefined && { _scroll_id: options.scrollId }),
    ...(options.pitId !== undefined && { pit_id: options.pitId }),
    took: tookMillis,
    timed_out: false,
    _shards: shardsHeader(0, 0, 0, []),
    hits: { ...totalXContent({ value: 0, relation: 'eq' }, options.totalHitsAsInt), max_score: new JsonFloat(0), hits: [] },
  };
}
