/**
 * The filter a shard adds for a sliced request (ES's SliceBuilder.toFilter, with DefaultSearchContext's
 * scroll limit). Slices are spread over the request's shards first, then each shard is cut further:
 * - `max >= shards`: slice `id` lives on shard `id % shards`; a shard holding several slices keeps those
 *   whose in-shard slice `id / shards` matches the doc's hash (the others match nothing);
 * - `max < shards`: whole shards go to slice `shardIndex % max`.
 * The hash is over `_id` for a scroll without a field (TermsSliceQuery), over the doc id range for a PIT
 * without a field (DocIdSliceQuery), or over a numeric field's doc values (DocValuesSliceQuery).
 */
import type { SliceSpec } from '../dsl/index.js';
import { illegalArgument } from '../dsl/xcontent/xcontent-errors.js';
import type { Query } from '../core/query.js';
import { BooleanQuery } from '../query/boolean/boolean-query.js';
import { MatchAllDocsQuery } from '../query/match-all-docs-query.js';
import { MatchNoDocsQuery } from '../query/match-no-docs-query.js';
import { DocIdSliceQuery } from '../query/slice/doc-id-slice-query.js';
import { DocValuesSliceQuery } from '../query/slice/doc-values-slice-query.js';
import { TermsSliceQuery } from '../query/slice/terms-slice-query.js';
import { fieldLookupFor } from './shard-query.js';
import type { ShardSearchTarget } from './shard-target.js';

/** IndexSettings.MAX_SLICES_PER_SCROLL's default. */
export const DEFAULT_MAX_SLICES_PER_SCROLL = 1024;

/** Field types whose doc values ES reads as IndexNumericFieldData. */
const NUMERIC_DOC_VALUE_TYPES = new Set(['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'date', 'date_nanos', 'boolean']);

/** A copy of the request's slice for one shard of a request over `count` shards (ShardSearchRequest). */
export function sliceForShard(slice: SliceSpec, shardIndex: number, count: number, scroll: boolean): SliceSpec {
  return { ...slice, shard: { index: shardIndex, count, scroll } };
}

function createSliceQuery(target: ShardSearchTarget, slice: SliceSpec, id: number, max: number, scroll: boolean): Query {
  if (slice.field === undefined) return scroll ? new TermsSliceQuery('_id', id, max) : new DocIdSliceQuery(id, max);
  if (slice.field === '_id') {
    if (!scroll) throw illegalArgument('cannot slice on [_id] when using [point-in-time]');
    return new TermsSliceQuery('_id', id, max);
  }
  const field = fieldLookupFor(target.mapping, target.mappingSettings).get(slice.field);
  if (field === undefined) throw illegalArgument(`field ${slice.field} not found`);
  const numeric = field.kind === 'mapped' && NUMERIC_DOC_VALUE_TYPES.has(field.options.type) && 'docValues' in field.options && field.options.docValues;
  if (!numeric) throw illegalArgument(`cannot load numeric doc values on ${slice.field}`);
  return new DocValuesSliceQuery(slice.field, id, max);
}

/** SliceBuilder.toFilter for this shard. */
export function sliceFilter(target: ShardSearchTarget, slice: SliceSpec): Query {
  const placement = slice.shard ?? { index: target.shardIndex, count: 1, scroll: true };
  const limit = target.settings.maxSlicesPerScroll ?? DEFAULT_MAX_SLICES_PER_SCROLL;
  if (placement.scroll && slice.max > limit) {
    throw illegalArgument(
      `The number of slices [${slice.max}] is too large. It must be less than [${limit}]. ` +
        'This limit can be set by changing the [index.max_slices_per_scroll] index level setting.',
    );
  }
  const { id, max } = slice;
  const shards = placement.count;
  if (shards === 1) return createSliceQuery(target, slice, id, max, placement.scroll);
  if (max >= shards) {
    const targetShard = id % shards;
    if (targetShard !== placement.index) return new MatchNoDocsQuery('this shard is not part of the slice');
    const slicesInShard = Math.floor(max / shards) + (max % shards > targetShard ? 1 : 0);
    if (slicesInShard === 1) return new MatchAllDocsQuery();
    return createSliceQuery(target, slice, Math.floor(id / shards), slicesInShard, placement.scroll);
  }
  return placement.index % max === id ? new MatchAllDocsQuery() : new MatchNoDocsQuery('this shard is not part of the slice');
}

/** The request's query restricted to its slice on this shard (DefaultSearchContext.buildFilteredQuery). */
export function withSliceFilter(query: Query, target: ShardSearchTarget, slice: SliceSpec | undefined): Query {
  if (slice === undefined) return query;
  return new BooleanQuery([
    { query, occur: 'must' },
    { query: sliceFilter(target, slice), occur: 'filter' },
  ]);
}
